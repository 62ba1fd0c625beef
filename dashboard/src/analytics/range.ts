// The range an analytics page shows: dates (whole days, in the chosen zone), granularity and
// time zone, sent as the API takes them, so the numbers are the REST answer's for the same query.
import { isoDate } from '../format.ts';
import type { Messages } from '../i18n/index.ts';

export const GRANULARITIES = ['hour', 'day', 'week', 'month'] as const;
export type Granularity = (typeof GRANULARITIES)[number];

export interface Range {
  /** YYYY-MM-DD, from the start of that day. */
  from: string;
  /** YYYY-MM-DD, through the end of that day. */
  to: string;
  granularity: Granularity;
  timezone: string;
}

const DAY_MS = 86_400_000;

function daysBefore(date: string, days: number): string {
  return new Date(Date.parse(`${date}T00:00:00Z`) - days * DAY_MS).toISOString().slice(0, 10);
}

/** The last `days` days, today included, in `timezone`. */
export function lastDays(days: number, timezone: string): Pick<Range, 'from' | 'to'> {
  const today = isoDate(new Date(), timezone);
  return { from: daysBefore(today, days - 1), to: today };
}

/** The API's own default: the last 30 days by day, in UTC. */
export const defaultRange = (): Range => ({ ...lastDays(30, 'UTC'), granularity: 'day', timezone: 'UTC' });

/** What keeps the range from being asked at all; the server checks the rest (order, length). */
export function rangeProblem(range: Range, t: Messages): string | null {
  if (!range.from || !range.to) return t.analytics.range.chooseDates;
  return null;
}

export const rangeVariables = (range: Range) => ({
  from: range.from,
  to: range.to,
  granularity: range.granularity,
  timezone: range.timezone,
});
