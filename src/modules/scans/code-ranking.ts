// The account's top codes over a long range without summing every code's scans: the threshold
// algorithm (Fagin, Lotem and Naor) over the daily code rollups. Each UTC day of the range is a
// list of that day's codes, read busiest first through the ranking index of code_daily_rollups;
// a code's score is the sum of its entries over the lists (and over the hours at the range's
// edges, which come whole from the hourly rollups and are known from the start). After reading
// the first `depth` entries of every list:
// - a code not seen in any list scores at most the sum of the lists' last values read (the
//   threshold): every entry it has is at or below its list's last value read;
// - a code seen in some lists scores at least what was read of it, and at most that plus the
//   last values of the lists it was not seen in.
// Once the threshold is below the k-th best lower bound, no unseen code can enter the top k: the
// seen codes whose upper bound reaches that k-th lower bound are summed exactly (by primary key)
// and ranked. Otherwise every list is read deeper. The answer is exact, like a GROUP BY over all
// codes; it is fast when popularity is skewed (a few codes hold most scans, as in real accounts)
// and falls back to that GROUP BY when it is not (the lists would be read nearly whole).
import type { Knex } from 'knex';
import type { OwnedCodeIds } from '../codes/index.ts';

const DAY_MS = 86_400_000;

export const RANKING_LIMITS = {
  /** Entries read per list before the first check; each deeper read takes four times as many. */
  firstDepth: 16,
  /** Entries read in all, past which a GROUP BY over the range costs less than reading on. */
  maxEntriesRead: 200_000,
  /** Codes summed exactly at the end, past which the lists are read deeper first. */
  maxExactSums: 2_000,
};
/** Lists read per statement: SQLite allows at most 500 members in a compound SELECT. */
const LISTS_PER_STATEMENT = 400;
/** Code ids per query that sums codes exactly (well inside every engine's parameter limit). */
const ID_CHUNK = 1000;

export interface RankingRange {
  accountId: string;
  /** The range's whole UTC days: [firstDay, endDay), both on a UTC midnight. */
  firstDay: number;
  endDay: number;
  includeBots: boolean;
  /** Each code's scans in the partial days at the range's edges (from the hourly rollups). */
  edges: ReadonlyMap<string, number>;
}

export interface RankedCode {
  codeId: string;
  scans: number;
}

/** A code seen in some lists: what was read of it, and in which lists (days). */
interface Seen {
  read: number;
  days: number[];
}

const byScansThenId = (a: RankedCode, b: RankedCode) => b.scans - a.scans || (a.codeId < b.codeId ? -1 : 1);

/**
 * The `top` existing codes with the most scans in the range (ties by id), or null when the lists
 * would be read nearly whole (popularity too even): the caller then sums every code.
 */
export async function topCodesByThreshold(
  db: Knex,
  ownedCodeIds: OwnedCodeIds,
  range: RankingRange,
  top: number,
  limits = RANKING_LIMITS,
): Promise<RankedCode[] | null> {
  const { accountId, firstDay, endDay, includeBots, edges } = range;
  const days: number[] = [];
  for (let day = firstDay; day < endDay; day += DAY_MS) days.push(day);
  // Per code and day, up to two entries (bot and human rows) when bots count, else one.
  const entriesPerDay = includeBots ? 2 : 1;
  // The last value read of each day's list; 0 once the list is read whole.
  const lastRead = new Map<number, number>(days.map((d) => [d, Number.MAX_SAFE_INTEGER]));
  const seen = new Map<string, Seen>();
  for (const [codeId, scans] of edges) seen.set(codeId, { read: scans, days: [] });
  const exists = new Map<string, boolean>();
  let entriesRead = 0;

  const checkExistence = async (ids: string[]) => {
    const unknown = ids.filter((id) => !exists.has(id));
    if (unknown.length === 0) return;
    const owned = await ownedCodeIds(accountId, unknown);
    for (const id of unknown) exists.set(id, owned.has(id));
  };

  for (let depth = 0; ;) {
    const deeper = depth === 0 ? limits.firstDepth : depth * 4;
    const open = days.filter((d) => lastRead.get(d)! > 0);
    if (entriesRead + open.length * (deeper - depth) > limits.maxEntriesRead) return null;
    if (open.length > 0) {
      const rows = await readLists(db, accountId, includeBots, open, depth, deeper);
      entriesRead += rows.length;
      const got = new Map<number, number>();
      for (const row of rows) {
        const day = Number(row.day);
        const scans = Number(row.scans);
        const code = seen.get(row.code_id) ?? { read: 0, days: [] };
        code.read += scans;
        code.days.push(day);
        seen.set(row.code_id, code);
        lastRead.set(day, scans);
        got.set(day, (got.get(day) ?? 0) + 1);
      }
      // A list that gave fewer entries than asked is read whole: nothing unseen is left in it.
      for (const day of open) if ((got.get(day) ?? 0) < deeper - depth) lastRead.set(day, 0);
    }
    depth = deeper;

    let threshold = 0;
    for (const value of lastRead.values()) threshold += entriesPerDay * value;
    const upperOf = (code: Seen) => {
      let unread = threshold;
      for (const day of code.days) unread -= lastRead.get(day)!;
      return code.read + unread;
    };

    // The k-th best lower bound among existing codes, looked up busiest first.
    const byRead = [...seen].sort((a, b) => b[1].read - a[1].read);
    let kthRead = 0;
    let found = 0;
    for (let i = 0; i < byRead.length && found < top; i += ID_CHUNK) {
      const slice = byRead.slice(i, i + ID_CHUNK);
      await checkExistence(slice.map(([id]) => id));
      for (const [id, code] of slice) {
        if (exists.get(id) && ++found === top) kthRead = code.read;
      }
    }
    const allRead = threshold === 0;
    if (!allRead && (found < top || threshold >= kthRead)) continue;

    // Codes that could still reach the top k; with every list read whole, what was read is exact.
    const contenders = byRead.filter(([, code]) => upperOf(code) >= kthRead).map(([id]) => id);
    if (!allRead && contenders.length > limits.maxExactSums) continue;
    await checkExistence(contenders);
    const existing = contenders.filter((id) => exists.get(id));
    const exact = allRead
      ? existing.map((codeId) => ({ codeId, scans: seen.get(codeId)!.read }))
      : await sumExactly(db, range, existing);
    return exact.sort(byScansThenId).slice(0, top);
  }
}

interface ListRow {
  code_id: string;
  day: number | string;
  scans: number | string;
}

/**
 * Entries [from, to) of each day's list, busiest first, in one statement: a UNION ALL of one
 * range read of the ranking index per day, in the index's order (is_bot last, so that a code's
 * bot and human rows of equal scans keep their places between reads). Wrapped as derived
 * tables: SQLite allows no ORDER BY or LIMIT in the members of a compound SELECT.
 */
async function readLists(
  db: Knex,
  accountId: string,
  includeBots: boolean,
  days: number[],
  from: number,
  to: number,
): Promise<ListRow[]> {
  const bots = includeBots ? '' : ' AND is_bot = 0';
  const member = (i: number) =>
    'SELECT * FROM (SELECT code_id, day, scans FROM code_daily_rollups WHERE account_id = ? AND day = ?' +
    `${bots} ORDER BY scans DESC, code_id DESC, is_bot DESC LIMIT ? OFFSET ?) AS list${i}`;
  const rows: ListRow[] = [];
  for (let i = 0; i < days.length; i += LISTS_PER_STATEMENT) {
    const some = days.slice(i, i + LISTS_PER_STATEMENT);
    const result = await db.raw(
      some.map((_, j) => member(j)).join(' UNION ALL '),
      some.flatMap((day) => [accountId, day, to - from, from]),
    );
    // mysql2 answers [rows, fields]; better-sqlite3 answers the rows.
    rows.push(...((Array.isArray(result[0]) ? result[0] : result) as ListRow[]));
  }
  return rows;
}

/** Each code's scans over the whole range: its daily rows (by primary key) plus its edge hours. */
async function sumExactly(db: Knex, range: RankingRange, codeIds: string[]): Promise<RankedCode[]> {
  const sums = new Map<string, number>(codeIds.map((id) => [id, range.edges.get(id) ?? 0]));
  for (let i = 0; i < codeIds.length; i += ID_CHUNK) {
    const rows: Array<{ code_id: string; scans: number | string }> = await db('code_daily_rollups')
      .whereIn('code_id', codeIds.slice(i, i + ID_CHUNK))
      .where('day', '>=', range.firstDay)
      .where('day', '<', range.endDay)
      .modify((b) => (range.includeBots ? b : b.where('is_bot', 0)))
      .select('code_id')
      .sum({ scans: 'scans' })
      .groupBy('code_id');
    for (const row of rows) sums.set(row.code_id, sums.get(row.code_id)! + Number(row.scans));
  }
  return [...sums].map(([codeId, scans]) => ({ codeId, scans }));
}
