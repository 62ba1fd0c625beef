// Scans by weekday and hour of day (7 x 24 cells) in the caller's time zone: when in the week a
// code, or the account, is scanned. Counted in SQL by local hour of the week (scans/time-grid.ts)
// from the quarter-hour rollups, whose quarters fall within a local hour in every zone, half- and
// quarter-hour offsets (India, Nepal, Newfoundland...) included, so the answer is exact in every zone.
import { z } from 'zod';
import { analyticsQuerySchema, overviewQuerySchema } from './schemas.ts';
import type { WeekHourCount } from '../scans/index.ts';
import { rawAvailableSinceSchema } from './presenter.ts';

export const WEEKDAYS = 7;
export const HOURS = 24;

/** A range in a zone (the series' query without granularity and top: the cells are fixed). */
export type WeekdayHoursQuery = z.output<typeof weekdayHoursQuerySchema>;
export type OverviewWeekdayHoursQuery = z.output<typeof overviewWeekdayHoursQuerySchema>;
export const weekdayHoursQuerySchema = analyticsQuerySchema.omit({ granularity: true, top: true });
/** The overview's: a range, and optionally a tag. */
export const overviewWeekdayHoursQuerySchema = overviewQuerySchema.omit({ granularity: true, top: true });

const cellSchema = z
  .object({
    weekday: z
      .int()
      .min(1)
      .max(7)
      .meta({ description: 'ISO weekday in the requested zone: 1 is Monday, 7 Sunday.', example: 1 }),
    hour: z.int().min(0).max(23).meta({ description: 'Hour of the day in the requested zone, 0-23.', example: 9 }),
    scans: z.int().meta({ example: 14 }),
  })
  .meta({ id: 'WeekdayHourCount', description: 'The scans of one hour of one weekday, summed over the range.' });

export const weekdayHoursSchema = z
  .object({
    code_id: z
      .string()
      .optional()
      .meta({ description: 'The code, for a code’s cells; absent in the account’s.', example: 'qr_4fT9kQ2mX8pL' }),
    from: z.string().meta({
      description: 'Start of the range (the requested `from` moved back to the start of its day).',
      example: '2026-03-01T00:00:00.000+01:00',
    }),
    to: z.string().meta({
      description: 'End of the range, exclusive (the requested `to` moved forward to the end of its day).',
      example: '2026-04-01T00:00:00.000+02:00',
    }),
    timezone: z.string().meta({ description: 'The IANA time zone of weekdays and hours.', example: 'Europe/Berlin' }),
    include_bots: z.boolean(),
    total_scans: z.int().meta({ example: 1204 }),
    cells: z
      .array(cellSchema)
      .meta({ description: 'All 168 cells, zeros included, Monday 00 first, then by weekday and hour.' }),
    raw_available_since: rawAvailableSinceSchema,
  })
  .meta({
    id: 'WeekdayHours',
    description: 'Scans by weekday and hour of the day in a time zone, summed over a range.',
  });
export type WeekdayHours = z.output<typeof weekdayHoursSchema>;
export type WeekdayHourCell = WeekdayHours['cells'][number];

/** The 168 cells, Monday 00 first, from counts per hour of the week (summed where an hour repeats). */
export function countCells(counts: WeekHourCount[]): { cells: WeekdayHourCell[]; total: number } {
  const scans = new Array<number>(WEEKDAYS * HOURS).fill(0);
  let total = 0;
  for (const c of counts) {
    scans[c.hour]! += c.scans;
    total += c.scans;
  }
  const cells = scans.map((n, i) => ({ weekday: Math.floor(i / HOURS) + 1, hour: i % HOURS, scans: n }));
  return { cells, total };
}
