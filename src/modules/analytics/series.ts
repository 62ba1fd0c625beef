// From validated query parameters to the periods of a series.
import { DateTime } from 'luxon';
import { validationFailed } from '../../shared/errors.ts';
import { endOfDate, MAX_PERIODS, seriesFor, startOfDate, type Series } from './periods.ts';
import { isDateOnly, type AnalyticsQuery } from './schemas.ts';

/** Default range: the last 30 calendar days in the request's zone, today included. */
const DEFAULT_DAYS = 30;

const asInstant = (value: string, zone: string, end: boolean) =>
  isDateOnly(value) ? (end ? endOfDate(value, zone) : startOfDate(value, zone)) : Date.parse(value);

/** The whole periods covering the requested range, or a 422 naming what is wrong. */
export function resolveSeries(
  q: Pick<AnalyticsQuery, 'from' | 'to' | 'granularity' | 'timezone'>,
  now: number,
): Series {
  const zone = q.timezone;
  const to = q.to ? asInstant(q.to, zone, true) : now + 1;
  const from = q.from
    ? asInstant(q.from, zone, false)
    : DateTime.fromMillis(Math.min(to, now), { zone })
        .startOf('day')
        .minus({ days: DEFAULT_DAYS - 1 })
        .toMillis();
  if (from >= to) throw validationFailed([{ path: 'from', message: 'must be before to' }]);
  const series = seriesFor(from, to, zone, q.granularity);
  if (!series) {
    throw validationFailed([
      {
        path: 'to',
        message:
          `a ${q.granularity} series covers at most ${MAX_PERIODS[q.granularity]} periods; narrow the range ` +
          `or use a coarser granularity`,
      },
    ]);
  }
  return series;
}
