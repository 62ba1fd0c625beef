// A zone's offset runs and the grid a series is summed in (modules/analytics/zone-grid.ts).
import { describe, expect, it } from 'vitest';
import { seriesFor } from '../../src/modules/analytics/periods.ts';
import { gridOf, offsetRuns, onQuarters } from '../../src/modules/analytics/zone-grid.ts';

const at = (iso: string) => Date.parse(iso);
const HOUR = 3_600_000;
const DAY = 24 * HOUR;

describe('offsetRuns', () => {
  it('splits a range at each DST change, to the millisecond', () => {
    expect(offsetRuns(at('2026-03-01T00:00:00Z'), at('2026-11-01T00:00:00Z'), 'Europe/Berlin')).toEqual([
      { from: at('2026-03-01T00:00:00Z'), offset: HOUR },
      { from: at('2026-03-29T01:00:00Z'), offset: 2 * HOUR },
      { from: at('2026-10-25T01:00:00Z'), offset: HOUR },
    ]);
    // Adelaide leaves summer time at 03:00 local on 04-05 (16:30 UTC the day before).
    expect(offsetRuns(at('2026-04-01T00:00:00Z'), at('2026-04-09T00:00:00Z'), 'Australia/Adelaide')).toEqual([
      { from: at('2026-04-01T00:00:00Z'), offset: 10.5 * HOUR },
      { from: at('2026-04-04T16:30:00Z'), offset: 9.5 * HOUR },
    ]);
  });

  it('is one run where the offset never changes, and finds a change in the last day of a range', () => {
    expect(offsetRuns(at('2026-01-01T00:00:00Z'), at('2027-01-01T00:00:00Z'), 'Asia/Kathmandu')).toEqual([
      { from: at('2026-01-01T00:00:00Z'), offset: 5.75 * HOUR },
    ]);
    expect(offsetRuns(at('2026-03-28T23:00:00Z'), at('2026-03-29T01:00:01Z'), 'Europe/Berlin')).toHaveLength(2);
  });
});

describe('gridOf', () => {
  it('sums local days for days, weeks and months, local hours for hours', () => {
    const days = seriesFor(at('2026-03-01T00:00:00Z'), at('2026-04-01T00:00:00Z'), 'Asia/Kolkata', 'month')!;
    expect(gridOf(days)).toMatchObject({ width: DAY, runs: [{ offset: 5.5 * HOUR }] });
    const hours = seriesFor(at('2026-03-28T00:00:00Z'), at('2026-03-30T00:00:00Z'), 'Europe/Berlin', 'hour')!;
    expect(gridOf(hours)).toMatchObject({ width: HOUR, runs: [{ offset: HOUR }, { offset: 2 * HOUR }] });
    expect(onQuarters(gridOf(hours).runs, hours.to, HOUR)).toBe(true);
  });

  it('takes finer slices, and leaves the rollups, for an old local mean time', () => {
    // Kolkata kept Madras time (+05:21:10) until 1906: its days start 6 min 10 s past a quarter hour.
    const old = seriesFor(at('1900-03-01T00:00:00Z'), at('1900-03-05T00:00:00Z'), 'Asia/Kolkata', 'day')!;
    const grid = gridOf(old);
    expect(grid.width).toBe(DAY);
    expect(onQuarters(grid.runs, old.to, grid.width)).toBe(false);
  });
});
