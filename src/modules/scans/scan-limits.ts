// max_scans on the scan path, without a database read per scan. For each limited code this
// instance keeps `base` (the committed count it last read: non-bot scans that went to the
// destination, from the rollups) and `local` (what this instance counted that `base` does not
// include). A scan under the limit adds one to `local` synchronously, so on one instance the
// max_scans-th scan is the last to go through, exactly.
//
// Keeping `base + local` exact across a re-read: a read is used only if no batch of this
// instance committed while it ran (the commit function is wrapped to know), and `local` then
// becomes this instance's counted scans not yet committed (`pending`), which the read cannot
// include. Other instances' scans arrive with each re-read: a state older than `refreshMs`
// (the flush interval) is re-read in the background on its next scan. So across N instances a
// code can overshoot its limit by what the others counted within about two flush intervals
// (theirs, before their scans commit, and ours, before we re-read).
import { LRUCache } from 'lru-cache';
import type { CommitBatch } from './commit-batch.ts';

interface LimitState {
  base: number;
  local: number;
  readAt: number;
  refreshing: boolean;
}

/**
 * Re-reads a count that raced a commit this many times, then takes the last (it may count a batch twice: stop early,
 * never late).
 */
const MAX_READ_ATTEMPTS = 5;

export interface ScanLimitsOptions {
  /** The committed count of a code's scans toward max_scans (non-bot, outcome redirect). */
  count: (codeId: string) => Promise<number>;
  /** How old a state may get before its next scan re-reads it (the flush interval). */
  refreshMs: number;
  /** Limited codes whose state is kept (the code cache's size). */
  max: number;
}

export function createScanLimits({ count, refreshMs, max }: ScanLimitsOptions) {
  const states = new LRUCache<string, LimitState>({ max });
  /** This instance's scans counted toward a limit and not yet committed, by code. */
  const pending = new Map<string, number>();
  let commitsInFlight = 0;
  /** Counts finished commit attempts, so that a read can tell whether one ended while it ran. */
  let commitGeneration = 0;
  let idle: { promise: Promise<void>; resolve: () => void } | null = null;
  const whenIdle = () => {
    if (!idle) {
      let resolve!: () => void;
      const promise = new Promise<void>((r) => (resolve = r));
      idle = { promise, resolve };
    }
    return idle.promise;
  };
  const loads = new Map<string, Promise<void>>();

  /**
   * Reads the code's committed count and hands `apply` the state it makes, in the same tick as
   * the check that no commit raced the read (so no scan is counted in between).
   */
  async function read(codeId: string, apply: (base: number, local: number) => void): Promise<void> {
    for (let attempt = 1; ; attempt++) {
      if (commitsInFlight > 0) await whenIdle();
      const generation = commitGeneration;
      const base = await count(codeId);
      if ((generation === commitGeneration && commitsInFlight === 0) || attempt >= MAX_READ_ATTEMPTS)
        return apply(base, pending.get(codeId) ?? 0);
    }
  }

  function refresh(codeId: string, state: LimitState): void {
    state.refreshing = true;
    read(codeId, (base, local) => Object.assign(state, { base, local, readAt: Date.now() }))
      .catch(() => undefined)
      .finally(() => (state.refreshing = false));
  }

  return {
    /** Wraps the recorder's commit: counted scans stop being pending once their batch commits. */
    wrapCommit(commit: CommitBatch): CommitBatch {
      return async (events, batchId) => {
        commitsInFlight += 1;
        try {
          const result = await commit(events, batchId);
          for (const e of events) {
            if (!e.countedTowardLimit) continue;
            const left = (pending.get(e.codeId) ?? 1) - 1;
            if (left > 0) pending.set(e.codeId, left);
            else pending.delete(e.codeId);
          }
          return result;
        } finally {
          commitsInFlight -= 1;
          commitGeneration += 1;
          if (commitsInFlight === 0 && idle) {
            idle.resolve();
            idle = null;
          }
        }
      };
    },

    /** True when the code's count is known here (else `load` it first). */
    known(codeId: string): boolean {
      return states.has(codeId);
    },

    /** Reads the code's count; concurrent calls share one read. */
    load(codeId: string): Promise<void> {
      let loading = loads.get(codeId);
      if (!loading) {
        loading = read(
          codeId,
          (base, local) => void states.set(codeId, { base, local, readAt: Date.now(), refreshing: false }),
        ).finally(() => loads.delete(codeId));
        loads.set(codeId, loading);
      }
      return loading;
    },

    /** Whether the code used up `maxScans` (an unknown code counts as not yet: load it first). */
    reached(codeId: string, maxScans: number): boolean {
      const state = states.get(codeId);
      if (!state) return false;
      if (!state.refreshing && Date.now() - state.readAt >= refreshMs) refresh(codeId, state);
      return state.base + state.local >= maxScans;
    },

    /** Counts one scan toward the code's limit; its event must carry countedTowardLimit. */
    count(codeId: string): void {
      const state = states.get(codeId);
      if (state) state.local += 1;
      pending.set(codeId, (pending.get(codeId) ?? 0) + 1);
    },

    /** This instance's counted scans not yet committed, for the API's `state`. */
    pendingOf(codeId: string): number {
      return pending.get(codeId) ?? 0;
    },
  };
}

export type ScanLimits = ReturnType<typeof createScanLimits>;
