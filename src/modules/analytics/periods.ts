// Periods of a series in the caller's time zone. Luxon does the calendar work (DST, month
// lengths, ISO weeks starting on Monday); everything else handles plain epoch milliseconds.
import { DateTime } from 'luxon';

export const GRANULARITIES = ['hour', 'day', 'week', 'month'] as const;
export type Granularity = (typeof GRANULARITIES)[number];

/** The longest series each granularity may ask for, in periods (a chart, not a data dump). */
export const MAX_PERIODS: Record<Granularity, number> = { hour: 744, day: 366, week: 157, month: 60 };

export interface Series {
  zone: string;
  granularity: Granularity;
  /** Start of each period, ascending; the last period ends at `to`. */
  starts: number[];
  from: number;
  to: number;
}

export function isTimeZone(zone: string): boolean {
  return DateTime.now().setZone(zone).isValid;
}

const startOf = (ms: number, zone: string, g: Granularity) => DateTime.fromMillis(ms, { zone }).startOf(g);

/**
 * The periods that cover [from, to): `from` moves back to the start of its period, `to` forward
 * to the end of its period, so every period is whole. Returns null when there are more than
 * `maxPeriods` of them (the caller reports it).
 */
export function seriesFor(
  from: number,
  to: number,
  zone: string,
  granularity: Granularity,
  maxPeriods = MAX_PERIODS[granularity],
): Series | null {
  const starts: number[] = [];
  let period = startOf(from, zone, granularity);
  while (period.toMillis() < to) {
    if (starts.length === maxPeriods) return null;
    starts.push(period.toMillis());
    period = period.plus({ [granularity]: 1 });
  }
  return { zone, granularity, starts, from: starts[0]!, to: period.toMillis() };
}

/** The same number of periods immediately before a series, for "previous period" comparisons. */
export function previousSeries(series: Series): Series {
  const first = DateTime.fromMillis(series.from, { zone: series.zone });
  const from = first.minus({ [series.granularity]: series.starts.length }).toMillis();
  return seriesFor(from, series.from, series.zone, series.granularity, Number.MAX_SAFE_INTEGER)!;
}

/** ISO 8601 with the zone's offset at that instant, e.g. 2026-03-29T00:00:00.000+01:00. */
export function formatInstant(ms: number, zone: string): string {
  return DateTime.fromMillis(ms, { zone }).toISO()!;
}

/** Midnight of a calendar date (YYYY-MM-DD) in a zone. */
export function startOfDate(date: string, zone: string): number {
  return DateTime.fromISO(date, { zone }).toMillis();
}

/** Start of the day after a calendar date in a zone: a date given as `to` includes its whole day. */
export function endOfDate(date: string, zone: string): number {
  return DateTime.fromISO(date, { zone }).plus({ days: 1 }).toMillis();
}

/**
 * Adds bucketed counts into their periods. Buckets are slices that never straddle a period
 * boundary (the slices of the series' grid, zone-grid.ts), so the start decides.
 */
export function intoPeriods<T extends { at: number }>(
  series: Series,
  buckets: T[],
  add: (periodIndex: number, bucket: T) => void,
): void {
  const { starts } = series;
  for (const bucket of buckets) {
    if (bucket.at < series.from || bucket.at >= series.to) continue;
    // Binary search for the last start <= bucket.at.
    let lo = 0;
    let hi = starts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (starts[mid]! <= bucket.at) lo = mid;
      else hi = mid - 1;
    }
    add(lo, bucket);
  }
}
