// Time slices in a time zone, grouped in SQL: the analytics service describes the zone's UTC
// offsets over a window (runs of one offset each, split where DST or the zone's law changes it),
// and the sources sum their rows (quarter-hour or daily rollups, raw scans) into local days,
// hours or weekday x hour cells in the database, returning a few hundred rows rather than every
// quarter hour of a year. Plain integer arithmetic (+, -, %, CASE), alike on MariaDB and SQLite.
import { DAY_MS, HOUR_MS } from '../../shared/time.ts';

/** One UTC offset of a zone (ms east of UTC), from `from` on until the next run's `from`. */
export interface OffsetRun {
  from: number;
  offset: number;
}

/**
 * Slices of `width` ms that start on local multiples of it (local midnights for a day, local
 * hours for an hour) in each run's offset. The first run starts at the window's start; a slice
 * that began before its run's start is counted from there (a day on which the offset changed is
 * two slices, one per offset, both starting within that day).
 */
export interface Grid {
  width: number;
  runs: OffsetRun[];
}

const WEEK_MS = 7 * DAY_MS;
/** 1970-01-01 was a Thursday: three days later local time is a whole number of weeks past a Monday 00:00. */
const TO_MONDAY_MS = 3 * DAY_MS;

/** An integer for SQL text: every number here is the service's own, never a caller's string. */
function int(n: number): string {
  if (!Number.isSafeInteger(n)) throw new Error(`not an integer: ${n}`);
  return String(n);
}

/** `column`'s value picked per run: a constant for one run, a CASE over the run starts for several. */
function perRun(column: string, runs: readonly OffsetRun[], value: (run: OffsetRun, i: number) => number): string {
  if (runs.length === 0) throw new Error('a grid needs a run');
  if (runs.length === 1) return int(value(runs[0]!, 0));
  const whens = runs.slice(1).map((run, i) => `WHEN ${column} < ${int(run.from)} THEN ${int(value(runs[i]!, i))}`);
  return `(CASE ${whens.join(' ')} ELSE ${int(value(runs.at(-1)!, runs.length - 1))} END)`;
}

/**
 * Select expressions of a row's run (`grid_run`) and the start of its slice (`grid_slice`, before
 * clamping to the run), for rows whose time is `column`. A DAY added keeps the operand of % positive
 * (offsets are within a day; widths divide one).
 */
export function gridColumns(column: string, grid: Grid): { run: string; slice: string } {
  if (DAY_MS % grid.width !== 0) throw new Error(`a grid's width divides a day: ${grid.width}`);
  const offset = perRun(column, grid.runs, (run) => run.offset);
  return {
    run: perRun(column, grid.runs, (_, i) => i),
    slice: `${column} - ((${column} + ${offset} + ${int(DAY_MS)}) % ${int(grid.width)})`,
  };
}

/** A grouped row of the grid's columns (drivers may return sums as strings). */
export interface GridRow {
  grid_run: number | string;
  grid_slice: number | string;
  scans: number | string;
  unique: number | string | null;
}

/** A slice's counts (scan-queries.ts's Bucket, not imported: that module imports this one). */
interface GridBucket {
  at: number;
  scans: number;
  unique: number;
}

/** The grouped rows as buckets, each slice counted from no earlier than its run's start, in time order. */
export function gridBuckets(rows: readonly GridRow[], grid: Grid): GridBucket[] {
  return rows
    .map((r) => ({
      at: Math.max(Number(r.grid_slice), grid.runs[Number(r.grid_run)]!.from),
      scans: Number(r.scans),
      unique: Number(r.unique ?? 0),
    }))
    .sort((a, b) => a.at - b.at);
}

/**
 * The select expression of a row's hour of the week in local time, in ms (0 for Monday 00:00-01:00,
 * HOUR for Monday 01:00...; divide by HOUR_MS), for rows whose time is `column`. A row must lie
 * within one local hour: a quarter hour does in every zone whose offset is a multiple of 15 minutes.
 */
export function weekHourColumn(column: string, runs: readonly OffsetRun[]): string {
  const local = `(${column} + ${perRun(column, runs, (run) => run.offset)} + ${int(TO_MONDAY_MS)})`;
  return `(${local} % ${int(WEEK_MS)}) - (${local} % ${int(HOUR_MS)})`;
}

/** Scans in one hour of the week, local time: `hour` 0 is Monday 00:00-01:00, 167 Sunday 23:00-24:00. */
export interface WeekHourCount {
  hour: number;
  scans: number;
}

/** Rows grouped by weekHourColumn (as `week_hour`), as counts per hour of the week. */
export function weekHourCounts(rows: ReadonlyArray<{ week_hour: number | string; scans: number | string }>) {
  return rows.map((r): WeekHourCount => ({ hour: Number(r.week_hour) / HOUR_MS, scans: Number(r.scans) }));
}
