// A zone's local days from the daily rollups, with quarter-hour rows for only part of each UTC day.
// A local day off UTC straddles two UTC days: in Kolkata (+05:30) it runs from 18:30 UTC to 18:30
// UTC, so no daily row lies within it. But with p the UTC time of the local midnight, a local day
// that starts at d + p (d a UTC midnight) is
//   the UTC day d, less its head [d, d + p), plus the next day's head    (p up to 12 h), or
//   the tail [d + p, d + 24 h) of day d, plus the next UTC day, less the next day's tail (p over 12 h),
// exact sums of whole rows (each counted at its start, as in the quarter rows). So a year in Kolkata
// reads 366 daily rows and the 22 quarters of each day's 18:30-24:00, not all 96 of them.
import type { Knex } from 'knex';
import { DAY_MS } from '../../shared/time.ts';
import type { Grid } from './time-grid.ts';

/** A stretch of whole local days of one offset: from one local midnight (UTC `from`) to another (`to`). */
export interface WholeLocalDays {
  from: number;
  to: number;
  /** The UTC time of day of the local midnights, in ms (18:30 for Kolkata). */
  phase: number;
}

const mod = (a: number, n: number) => ((a % n) + n) % n;

/**
 * A window of a day grid (local days) split into its stretches of whole local days, one per run
 * of the zone's offset, and the partial days at the ends of each run (where the offset changes),
 * left to the quarter-hour rows.
 */
export function splitLocalDays(from: number, to: number, grid: Grid) {
  const whole: WholeLocalDays[] = [];
  const partial: Array<{ from: number; to: number; grid: Grid }> = [];
  grid.runs.forEach((run, i) => {
    const start = Math.max(run.from, from);
    const end = Math.min(grid.runs[i + 1]?.from ?? to, to);
    if (start >= end) return;
    const phase = mod(-run.offset, DAY_MS);
    const first = start + mod(phase - start, DAY_MS);
    const last = end - mod(end - phase, DAY_MS);
    const alone = { width: DAY_MS, runs: [{ from: start, offset: run.offset }] };
    if (first >= last) {
      partial.push({ from: start, to: end, grid: alone });
      return;
    }
    if (start < first) partial.push({ from: start, to: first, grid: alone });
    whole.push({ from: first, to: last, phase });
    if (last < end)
      partial.push({ from: last, to: end, grid: { ...alone, runs: [{ from: last, offset: run.offset }] } });
  });
  return { whole, partial };
}

interface Counts {
  scans: number;
  unique: number;
}

const summed = (rows: Array<{ day: number | string; scans: number | string; unique: number | string | null }>) =>
  new Map<number, Counts>(rows.map((r) => [Number(r.day), { scans: Number(r.scans), unique: Number(r.unique ?? 0) }]));

/**
 * The counts of each local day of the stretch, from `daily` (the scope's daily rows, time column
 * `day`) and `quarters` (its quarter-hour rows, time column `hour`), both already filtered by scope
 * and bot flag.
 */
export async function wholeLocalDays(
  days: WholeLocalDays,
  daily: () => Knex.QueryBuilder,
  quarters: () => Knex.QueryBuilder,
  db: Knex,
): Promise<Array<{ at: number } & Counts>> {
  const { phase } = days;
  // The UTC midnights d of the local days d + phase in the stretch.
  const firstDay = days.from - phase;
  const endDay = days.to - phase;
  const heads = phase <= DAY_MS / 2;
  // Of each UTC day e from firstDay to endDay (inclusive), the shorter part: its head or its tail.
  const parts: Array<[number, number]> = [];
  if (phase !== 0)
    for (let e = firstDay; e <= endDay; e += DAY_MS) parts.push(heads ? [e, e + phase] : [e + phase, e + DAY_MS]);
  const wholeFrom = heads ? firstDay : firstDay + DAY_MS;
  const [dayRows, partRows] = await Promise.all([
    daily()
      .where('day', '>=', wholeFrom)
      .where('day', '<', wholeFrom + (endDay - firstDay))
      .select('day')
      .sum({ scans: 'scans', unique: 'unique_scans' })
      .groupBy('day'),
    parts.length === 0
      ? []
      : quarters()
          .where((b) => {
            for (const [lo, hi] of parts) b.orWhere((r) => r.where('hour', '>=', lo).where('hour', '<', hi));
          })
          .select({ day: db.raw(`hour - (hour % ${DAY_MS})`) })
          .sum({ scans: 'scans', unique: 'unique_scans' })
          .groupBy('day'),
  ]);
  const day = summed(dayRows);
  const part = summed(partRows);
  const of = (m: Map<number, Counts>, at: number) => m.get(at) ?? { scans: 0, unique: 0 };
  const buckets: Array<{ at: number } & Counts> = [];
  for (let d = firstDay; d < endDay; d += DAY_MS) {
    // heads: day d - head(d) + head(d + 1); tails: tail(d) + day(d + 1) - tail(d + 1).
    const [plus, whole, minus] = heads
      ? [of(part, d + DAY_MS), of(day, d), of(part, d)]
      : [of(part, d), of(day, d + DAY_MS), of(part, d + DAY_MS)];
    const scans = whole.scans - minus.scans + plus.scans;
    const unique = whole.unique - minus.unique + plus.unique;
    if (scans !== 0 || unique !== 0) buckets.push({ at: d + phase, scans, unique });
  }
  return buckets;
}
