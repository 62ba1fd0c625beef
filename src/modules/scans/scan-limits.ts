// max_scans on the scan path. A scan that would use one of a limited code's uses (a person's GET
// answered with the destination) claims it first, in the database every instance and worker
// shares: a conditional UPDATE of the code's row in code_scan_uses (used < max_scans). Only a
// claim that changed the row goes to the destination, so exactly max_scans scans do, however many
// processes answer them at once. Codes without a limit never come here.
//
// A code's row is made on its first claim from what max_scans counted before there were rows:
// its non-bot redirects in the rollups. So a limit set on a code scanned for a while counts its
// past scans, as a limit always did, and one removed drops the row (`forget`) so that a later one
// counts from the rollups again rather than from a row that missed the scans in between.
import type { Queryable } from '../../db/transaction.ts';
import type { ScanUseStore } from './scan-use-store.ts';

export interface ScanLimitsOptions {
  store: ScanUseStore;
  /** The codes' non-bot scans that went to the destination, from the rollups (by code id). */
  redirectsOf: (codeIds: string[], q?: Queryable) => Promise<Map<string, number>>;
}

export function createScanLimits({ store, redirectsOf }: ScanLimitsOptions) {
  /** Each code's uses: its row's, or for a code without one yet, the rollups' count its row would start from. */
  async function usedOf(ids: string[], q?: Queryable): Promise<Map<string, number>> {
    const used = await store.usedOf(ids, q);
    const unstarted = ids.filter((id) => !used.has(id));
    if (unstarted.length > 0) for (const [id, n] of await redirectsOf(unstarted, q)) used.set(id, n);
    return used;
  }

  return {
    /**
     * Claims one use of the code: true when the scan may go to the destination, false when its
     * `maxScans` uses are gone. Two claims that both find no row both start it; one row stands.
     */
    async claim(codeId: string, maxScans: number): Promise<boolean> {
      if (await store.take(codeId, maxScans)) return true;
      if ((await store.usedOf([codeId])).has(codeId)) return false;
      await store.start(codeId, (await redirectsOf([codeId])).get(codeId) ?? 0);
      return store.take(codeId, maxScans);
    },

    /** Whether a use is left, without claiming one (bots and HEAD requests use none). */
    async left(codeId: string, maxScans: number): Promise<boolean> {
      return ((await usedOf([codeId])).get(codeId) ?? 0) < maxScans;
    },

    /** The codes' uses, for the API's `state` (CountLimitedScans). */
    usedOf,

    forget: store.forget,
  };
}

export type ScanLimits = ReturnType<typeof createScanLimits>;
