// A zone's UTC offsets over a range, and the grid of slices a series is summed in (the scans
// module's time-grid.ts sums rows into it in SQL). Offsets come from Luxon (the IANA database);
// a series' periods start on local midnights or hours, which in one run of an offset fall on one
// phase of the day or hour, so the slices of a grid never straddle a period.
import { DateTime } from 'luxon';
import { DAY_MS, HOUR_MS, QUARTER_MS } from '../../shared/time.ts';
import type { Grid, OffsetRun } from '../scans/index.ts';
import type { Series } from './periods.ts';

/** How far apart the offset is looked at: no zone changes its offset twice within a day. */
const STEP_MS = DAY_MS;

/** Slices finer than an hour, for periods off every whole hour (old local mean times). */
const FINER_WIDTHS = [QUARTER_MS, 60_000, 1_000, 1];

const offsetAt = (ms: number, zone: string) => Math.round(DateTime.fromMillis(ms, { zone }).offset * 60_000);

/**
 * The zone's offsets over [from, to), one run per offset, the first from `from`. Looked at once a
 * day, and where two looks differ the change is found to the millisecond by bisection.
 */
export function offsetRuns(from: number, to: number, zone: string): OffsetRun[] {
  const runs: OffsetRun[] = [{ from, offset: offsetAt(from, zone) }];
  for (let at = from; at < to;) {
    const next = Math.min(at + STEP_MS, to - 1);
    if (next <= at) break;
    const offset = runs.at(-1)!.offset;
    const later = offsetAt(next, zone);
    if (later !== offset) {
      let same = at;
      let changed = next;
      while (changed - same > 1) {
        const mid = Math.floor((same + changed) / 2);
        if (offsetAt(mid, zone) === offset) same = mid;
        else changed = mid;
      }
      runs.push({ from: changed, offset: offsetAt(changed, zone) });
      at = changed;
    } else at = next;
  }
  return runs;
}

/** Whether no slice of `width` in the runs straddles a period boundary of the series. */
function fits(series: Series, width: number, runs: readonly OffsetRun[]): boolean {
  let r = 0;
  return series.starts.every((start) => {
    while (r + 1 < runs.length && runs[r + 1]!.from <= start) r++;
    const run = runs[r]!;
    return start === run.from || (start + run.offset + DAY_MS) % width === 0;
  });
}

/**
 * The grid a series is summed in: local hours for an hourly series, local days for the others
 * (weeks and months are whole local days), in the zone's offsets over the series; finer slices
 * only if the periods do not fit those (a zone's local mean time of the 19th century).
 */
export function gridOf(series: Series): Grid {
  const runs = offsetRuns(series.from, series.to, series.zone);
  const width = [series.granularity === 'hour' ? HOUR_MS : DAY_MS, ...FINER_WIDTHS].find((w) => fits(series, w, runs))!;
  return { width, runs };
}

/**
 * Whether quarter-hour (and daily) rollups can answer the runs exactly over [from, to): every
 * offset, every change of it and both ends on whole quarter hours (as in every zone today, not
 * in Kolkata's +05:53:28 of the 19th century, which raw scans answer).
 */
export function onQuarters(runs: readonly OffsetRun[], to: number, width = QUARTER_MS): boolean {
  return (
    width % QUARTER_MS === 0 &&
    to % QUARTER_MS === 0 &&
    runs.every((run) => run.from % QUARTER_MS === 0 && run.offset % QUARTER_MS === 0)
  );
}
