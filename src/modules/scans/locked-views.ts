// code_locked_views: how often each password-protected code's unlock page was shown, per UTC day.
// A locked view is not a scan (no scan row, no rollup, no use of max_scans): the scan path hands
// it to the recorder beside the scans, so it costs the page nothing, and the batch commit counts
// the batch's views here in its own transaction, one upsert per code, day and bot flag. Each
// view's id is kept in locked_view_ids, so that a view replayed from the scan journal after its
// batch had committed is not counted twice.
import type { Knex } from 'knex';
import { addOnConflict } from '../../db/dialect.ts';
import { inKeyOrder } from '../../db/key-order.ts';
import type { Queryable } from '../../db/transaction.ts';
import { DAY_MS } from '../../shared/time.ts';
import type { ScanEvent } from './model.ts';

interface LockedViewRow {
  code_id: string;
  day: number;
  is_bot: boolean;
  account_id: string;
  views: number;
}

/** The batch's locked views summed per code, UTC day and bot flag. */
export function lockedViewRows(events: ScanEvent[]): LockedViewRow[] {
  const rows = new Map<string, LockedViewRow>();
  for (const e of events) {
    const day = e.at - (e.at % DAY_MS);
    const key = `${e.codeId}|${day}|${e.isBot}`;
    const row = rows.get(key);
    if (row) row.views += 1;
    else rows.set(key, { code_id: e.codeId, day, is_bot: e.isBot, account_id: e.accountId, views: 1 });
  }
  return [...rows.values()];
}

/** Ids per statement: well under SQLite's 32,766 bound parameters, three per inserted id. */
const ID_CHUNK = 500;

/** The batch's views whose ids are not stored yet: a replayed view already counted is left out. */
async function uncounted(events: ScanEvent[], q: Queryable): Promise<ScanEvent[]> {
  const ids = events.flatMap((e) => (e.id ? [e.id] : []));
  const stored = new Set<string>();
  for (let i = 0; i < ids.length; i += ID_CHUNK) {
    const found: string[] = await q('locked_view_ids')
      .whereIn('view_id', ids.slice(i, i + ID_CHUNK))
      .pluck('view_id');
    for (const id of found) stored.add(id);
  }
  return stored.size === 0 ? events : events.filter((e) => !e.id || !stored.has(e.id));
}

export function createLockedViewsStore(db: Knex) {
  const addViews = addOnConflict(db, ['views']);
  return {
    /** Adds a batch's locked views (lockedViewRows) to the counters, each id once. */
    async add(events: ScanEvent[], q: Queryable): Promise<void> {
      const fresh = await uncounted(events, q);
      const ids = fresh.flatMap((e) => (e.id ? [{ view_id: e.id, code_id: e.codeId, viewed_at: e.at }] : []));
      for (let i = 0; i < ids.length; i += ID_CHUNK) await q('locked_view_ids').insert(ids.slice(i, i + ID_CHUNK));
      const rows = inKeyOrder(lockedViewRows(fresh), ['code_id', 'day', 'is_bot']);
      if (rows.length > 0)
        await q('code_locked_views').insert(rows).onConflict(['code_id', 'day', 'is_bot']).merge(addViews);
    },

    /** The code's locked views on the UTC days from `fromDay` (inclusive) to `toDay` (exclusive), epoch ms. */
    async count(codeId: string, fromDay: number, toDay: number, includeBots: boolean): Promise<number> {
      const row: { n: number | string | null } | undefined = await db('code_locked_views')
        .sum({ n: 'views' })
        .where('code_id', codeId)
        .where('day', '>=', fromDay)
        .where('day', '<', toDay)
        .modify((b) => (includeBots ? b : b.where('is_bot', false)))
        .first();
      return Number(row?.n ?? 0);
    },
  };
}

export type LockedViewsStore = ReturnType<typeof createLockedViewsStore>;
