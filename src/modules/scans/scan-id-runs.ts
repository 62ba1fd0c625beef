// The scan ids of committed batches, kept as runs of consecutive ids of one process (see the
// scan_id_runs migration): a batch's scans from one process carry consecutive ids, so a batch
// costs one row however many scans it has. The batch commit skips a replayed scan whose id a run
// holds, whether or not raw scan rows are kept (SCAN_RAW_ROWS). A run holds exactly the ids its
// batch wrote: a gap (a locked view between two scans, a torn journal record) starts a new run.
import type { Knex } from 'knex';
import type { Queryable } from '../../db/transaction.ts';
import { retryOnWriteConflict } from '../../db/transaction.ts';
import { splitScanId } from './scan-ids.ts';

export interface ScanIdRun {
  prefix: string;
  first_n: number;
  last_n: number;
}

/** The ids as runs of consecutive counters per prefix; ids not of createScanIds are left out. */
export function scanIdRuns(ids: readonly string[]): ScanIdRun[] {
  const byPrefix = new Map<string, number[]>();
  for (const id of ids) {
    const parts = splitScanId(id);
    if (!parts) continue;
    const counters = byPrefix.get(parts.prefix);
    if (counters) counters.push(parts.n);
    else byPrefix.set(parts.prefix, [parts.n]);
  }
  const runs: ScanIdRun[] = [];
  for (const [prefix, counters] of byPrefix) {
    counters.sort((a, b) => a - b);
    let run: ScanIdRun | null = null;
    for (const n of counters) {
      if (run && n <= run.last_n + 1) run.last_n = n;
      else runs.push((run = { prefix, first_n: n, last_n: n }));
    }
  }
  return runs;
}

export function createScanIdRunsStore(db: Knex) {
  return {
    /** Which of `ids` a stored run holds: their scans are committed already. */
    async stored(ids: readonly string[], q: Queryable): Promise<Set<string>> {
      const spans = scanIdRuns(ids);
      if (spans.length === 0) return new Set();
      // Runs that end at or after the span's first id and start at or before its last: none for
      // a batch of new scans, whose ids are above every stored run of their process.
      const found: ScanIdRun[] = await q('scan_id_runs')
        .select('prefix', 'first_n', 'last_n')
        .where((w) => {
          for (const span of spans)
            w.orWhere((one) =>
              one.where('prefix', span.prefix).where('last_n', '>=', span.first_n).where('first_n', '<=', span.last_n),
            );
        });
      if (found.length === 0) return new Set();
      return new Set(
        ids.filter((id) => {
          const parts = splitScanId(id);
          return (
            parts !== null &&
            found.some((r) => r.prefix === parts.prefix && Number(r.first_n) <= parts.n && parts.n <= Number(r.last_n))
          );
        }),
      );
    },

    /** Records, in the batch's transaction, the ids the batch wrote. */
    async add(ids: readonly string[], at: number, q: Queryable): Promise<void> {
      const runs = scanIdRuns(ids);
      if (runs.length > 0) await q('scan_id_runs').insert(runs.map((r) => ({ ...r, committed_at: at })));
    },

    /** Deletes up to `limit` runs committed before `before`: they live as long as raw scans. */
    async deleteBefore(before: number, limit: number): Promise<number> {
      const keys: Array<{ prefix: string; last_n: number }> = await db('scan_id_runs')
        .select('prefix', 'last_n')
        .where('committed_at', '<', before)
        .limit(limit);
      if (keys.length === 0) return 0;
      return retryOnWriteConflict(() =>
        db('scan_id_runs')
          .whereIn(
            ['prefix', 'last_n'],
            keys.map((k) => [k.prefix, k.last_n]),
          )
          .delete(),
      );
    },
  };
}

export type ScanIdRunsStore = ReturnType<typeof createScanIdRunsStore>;
