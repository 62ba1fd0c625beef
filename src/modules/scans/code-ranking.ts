// The account's top codes over a long range without summing every code's scans, by a uniform
// threshold over the daily code rollups (after Cao and Wang's "TPUT"). A code's score is the sum
// of its entries in m lists: one per UTC day of the range (two when bots count: bot and human
// rows), plus one for the partial days at the range's edges, known whole from the quarter-hour rollups.
// 1. A lower bound L for the k-th best score: the exact scores of the busiest codes of a few days
//    of the range (Zipf-like popularity puts the top codes at the top of every day).
// 2. A code scoring L or more has an entry of at least L / m somewhere (else its m entries sum to
//    less). One range read of the ranking index fetches every entry of at least that; the codes
//    seen there are the only ones that can reach L, and each is bounded above by what was read
//    of it plus L / m (less one) for each list it was not seen in.
// 3. The codes whose bound reaches L are summed exactly (by primary key) and ranked.
// The answer is exact, like a GROUP BY over every code; when popularity is even, L / m is small
// and step 2 would read most of the range: it gives up (null) and the caller sums every code.
import { DAY_MS } from '../../shared/time.ts';
import type { Knex } from 'knex';
import type { OwnedCodeIds } from '../codes/index.ts';

export const RANKING_LIMITS = {
  /** Days whose busiest codes give the lower bound (step 1). */
  sampleDays: 8,
  /** Entries read in step 2, past which a GROUP BY over the range costs less. */
  maxEntriesRead: 200_000,
  /** Codes summed exactly in step 3, past which a GROUP BY over the range costs less. */
  maxExactSums: 5_000,
};

/** Code ids per query that sums codes exactly (well inside every engine's parameter limit). */
const ID_CHUNK = 1000;

export interface RankingRange {
  accountId: string;
  /** The range's whole UTC days: [firstDay, endDay), both on a UTC midnight. */
  firstDay: number;
  endDay: number;
  includeBots: boolean;
  /** Each code's scans in the partial days at the range's edges (from the quarter-hour rollups). */
  edges: ReadonlyMap<string, number>;
}

export interface RankedCode {
  codeId: string;
  scans: number;
}

const byScansThenId = (a: RankedCode, b: RankedCode) => b.scans - a.scans || (a.codeId < b.codeId ? -1 : 1);

/**
 * The `top` existing codes with the most scans in the range (ties by id), or null when
 * popularity is too even for the threshold to pay: the caller then sums every code.
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
  const dayLists = days.length * (includeBots ? 2 : 1);
  const lists = dayLists + (edges.size > 0 ? 1 : 0);
  const existing = async (ids: Iterable<string>) => [...(await ownedCodeIds(accountId, [...new Set(ids)]))];

  // 1. The lower bound: the k-th best exact score among the busiest codes of some days (and of the edges).
  const step = Math.max(1, Math.floor(days.length / limits.sampleDays));
  const sample = days.filter((_, i) => (days.length - 1 - i) % step === 0).slice(-limits.sampleDays);
  const busiestAtEdges = [...edges].sort((a, b) => b[1] - a[1]).slice(0, top);
  const sampled = await existing([
    ...(await busiestOfDays(db, accountId, includeBots, sample, top)),
    ...busiestAtEdges.map(([id]) => id),
  ]);
  const known = (await sumExactly(db, range, sampled)).sort(byScansThenId);
  const lowerBound = known.length >= top ? known[top - 1]!.scans : 0;

  // 2. Every entry that could lift a code to the lower bound.
  const least = Math.ceil(lowerBound / lists);
  const entries = await db('code_daily_rollups')
    .where('account_id', accountId)
    .whereIn('day', days)
    .where('scans', '>=', least)
    .modify((b) => (includeBots ? b : b.where('is_bot', 0)))
    .select('code_id', 'scans')
    .limit(limits.maxEntriesRead + 1);
  if (entries.length > limits.maxEntriesRead) return null;
  const seen = new Map<string, { read: number; lists: number }>();
  for (const e of entries as Array<{ code_id: string; scans: number | string }>) {
    const code = seen.get(e.code_id) ?? { read: 0, lists: 0 };
    code.read += Number(e.scans);
    code.lists += 1;
    seen.set(e.code_id, code);
  }
  for (const [codeId, scans] of edges) if (scans >= least && !seen.has(codeId)) seen.set(codeId, { read: 0, lists: 0 });

  // 3. The codes whose upper bound reaches it, summed exactly.
  const contenders = [...seen]
    .filter(
      ([codeId, c]) => c.read + (dayLists - c.lists) * Math.max(0, least - 1) + (edges.get(codeId) ?? 0) >= lowerBound,
    )
    .map(([codeId]) => codeId);
  if (contenders.length > limits.maxExactSums) return null;
  const exact = await sumExactly(db, range, await existing(contenders));
  return exact.sort(byScansThenId).slice(0, top);
}

/**
 * The `top` busiest codes of each of these days (ids, repeats left in), in one statement: a
 * UNION ALL of one range read of the ranking index per day, wrapped as derived tables (SQLite
 * allows no ORDER BY or LIMIT in the members of a compound SELECT).
 */
async function busiestOfDays(
  db: Knex,
  accountId: string,
  includeBots: boolean,
  days: number[],
  top: number,
): Promise<string[]> {
  if (days.length === 0) return [];
  const bots = includeBots ? '' : ' AND is_bot = 0';
  const member = (i: number) =>
    'SELECT * FROM (SELECT code_id FROM code_daily_rollups WHERE account_id = ? AND day = ?' +
    `${bots} ORDER BY scans DESC LIMIT ?) AS day${i}`;
  const result = await db.raw(
    days.map((_, i) => member(i)).join(' UNION ALL '),
    days.flatMap((day) => [accountId, day, top]),
  );
  // mysql2 answers [rows, fields]; better-sqlite3 answers the rows.
  const rows = (Array.isArray(result[0]) ? result[0] : result) as Array<{ code_id: string }>;
  return rows.map((r) => r.code_id);
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
