// The answers of the analytics endpoints. The zod schemas are the contract (they feed the
// OpenAPI document); the service's answer types and the CSV columns of the raw export are
// inferred from them, so the answers and the document cannot drift apart.
import { z } from 'zod';
import { citySchema, regionSchema } from '../scans/index.ts';
import { CODE_TYPES } from '../codes/index.ts';
import { GRANULARITIES } from './periods.ts';
import { ACCOUNT_BREAKDOWNS } from './source.ts';
import { CODE_DIMENSIONS } from '../scans/index.ts';
import { SCAN_OUTCOMES } from '../scans/index.ts';

const instant = (description: string, example: string) => z.string().meta({ description, example });

export const periodCountSchema = z
  .object({
    period: instant(
      'Start of the period, ISO 8601 with the offset of the requested time zone.',
      '2026-03-02T00:00:00.000+01:00',
    ),
    scans: z.int().meta({ example: 42 }),
    unique_scans: z.int().meta({ description: 'Scans that were their visitor’s first of the UTC day.', example: 31 }),
  })
  .meta({
    id: 'PeriodCount',
    description: 'The scans of one period of a series; periods without scans are there with zeros.',
  });
export type PeriodCount = z.output<typeof periodCountSchema>;

export const valueCountSchema = z
  .object({
    value: z
      .string()
      .nullable()
      .meta({ description: 'Null when the scan did not tell (no Referer, unknown country...).', example: 'DE' }),
    scans: z.int().meta({ example: 17 }),
  })
  .meta({ id: 'ValueCount', description: 'One value of a breakdown and its scans.' });

/** What a breakdown says beyond its name: region and city list only the scans the city database placed. */
export const BREAKDOWN_DESCRIPTIONS: Readonly<Record<string, string>> = {
  region:
    'Regions as "US/California" (country code and the English name), from the city database (GEOIP_CITY_DB). ' +
    'Only scans it placed are counted (no null entry); empty without one.',
  city:
    'Cities as "US/California/San Jose" (country code, region, English name), from the city database ' +
    '(GEOIP_CITY_DB). Only scans it placed are counted (no null entry); empty without one.',
};

const breakdowns = <const D extends readonly string[]>(dimensions: D) =>
  z.object(
    Object.fromEntries(
      dimensions.map((d) => {
        const list = z.array(valueCountSchema);
        return [d, d in BREAKDOWN_DESCRIPTIONS ? list.meta({ description: BREAKDOWN_DESCRIPTIONS[d] }) : list];
      }),
    ) as {
      [K in D[number]]: z.ZodArray<typeof valueCountSchema>;
    },
  );

/** The retention horizon of raw scans (SCAN_RAW_RETENTION_DAYS), as every analytics answer states it. */
export const rawAvailableSinceSchema = z
  .string()
  .nullable()
  .meta({
    description:
      'The earliest instant raw scans are kept from; null when the service keeps them all. Series, totals and top ' +
      'codes over whole quarter hours (in every time zone of today) come from rollups, which keep the whole ' +
      'history; answers that need raw scans (the raw export, per-code counts from a minute off the quarter hour) ' +
      'refuse a range starting earlier with 422. With SCAN_RAW_ROWS=none (no raw scan rows kept) the instant of ' +
      'the answer, and those answers are refused with 409 /problems/raw-scans-not-kept.',
    example: '2025-11-26T21:00:00.000Z',
  });

/** Why the breakdowns may count less than the range, as REST and GraphQL both say it. */
export const BREAKDOWNS_RANGE =
  'A code’s breakdowns (and a tag’s) read the partial UTC days at the range’s edges from raw scans and the whole ' +
  'days from daily rollups: an edge that starts before `raw_available_since` is left out, and the breakdowns ' +
  'count from the next UTC midnight (or up to the last one). On a server that keeps no raw scan rows ' +
  '(`SCAN_RAW_ROWS=none`) each edge off a UTC midnight moves to the nearest one, in or out (at most 12 hours). ' +
  'Equal to the range otherwise.';

/** What a code's answer says of its locked views, as REST and GraphQL both say it. */
export const LOCKED_VIEWS =
  'Times a password-protected code’s unlock page was shown (locked views), over the whole UTC days the range ' +
  'touches, bots left out unless `include_bots`. A locked view is not a scan: it is in none of the scan counts, ' +
  'and the scan follows once the password is given. 0 for a code without a password.';

/** What every analytics answer starts with: the effective range and totals. */
const seriesSummary = {
  from: instant(
    'Start of the first period (the requested `from` moved back to the start of its period).',
    '2026-03-01T00:00:00.000Z',
  ),
  to: instant(
    'End of the last period, exclusive (the requested `to` moved forward to the end of its period).',
    '2026-03-31T00:00:00.000Z',
  ),
  granularity: z.enum(GRANULARITIES),
  timezone: z.string().meta({ description: 'The IANA time zone the periods follow.', example: 'UTC' }),
  include_bots: z.boolean(),
  raw_available_since: rawAvailableSinceSchema,
  breakdowns_from: instant(`Start of the time the breakdowns count. ${BREAKDOWNS_RANGE}`, '2026-03-01T00:00:00.000Z'),
  breakdowns_to: instant(
    `End of the time the breakdowns count, exclusive. ${BREAKDOWNS_RANGE}`,
    '2026-03-31T00:00:00.000Z',
  ),
  total_scans: z.int().meta({ example: 1204 }),
  unique_scans: z.int().meta({
    description:
      'Scans that were their visitor’s first of the UTC day (of this code; in the overview, of any of the ' +
      'account’s codes).',
    example: 873,
  }),
};

export const codeAnalyticsSchema = z
  .object({
    code_id: z.string().meta({ example: 'qr_4fT9kQ2mX8pL' }),
    ...seriesSummary,
    imported_scans: z.int().meta({
      description:
        'Scans the code had at the service it was imported from, kept as history: reported here apart, never in ' +
        '`total_scans`, the series or the breakdowns (they have no date, place or device). 0 for a code made here.',
      example: 0,
    }),
    locked_views: z.int().meta({ description: LOCKED_VIEWS, example: 40 }),
    timeseries: z.array(periodCountSchema),
    breakdowns: breakdowns(CODE_DIMENSIONS).meta({
      id: 'CodeScanBreakdowns',
      description:
        'The `top` most frequent values of each dimension, most scans first. `rule` names rule ids, and "default" ' +
        'for the fallback destination.',
    }),
  })
  .meta({
    id: 'CodeScanAnalytics',
    description: 'One code’s scans over a range: the series per period and breakdowns.',
  });
export type CodeAnalytics = z.output<typeof codeAnalyticsSchema>;

export const overviewSchema = z
  .object({
    ...seriesSummary,
    total_codes: z.int().meta({ description: 'Codes the account has now, archived ones left out.', example: 57 }),
    active_codes: z.int().meta({ description: 'Codes scanned in the range.', example: 12 }),
    top_codes: z
      .array(
        z.object({
          id: z.string().meta({ example: 'qr_4fT9kQ2mX8pL' }),
          name: z.string().nullable().meta({ description: 'As in the code.', example: 'Spring poster' }),
          type: z.enum(CODE_TYPES),
          content: z
            .union([z.string(), z.record(z.string(), z.unknown())])
            .meta({ description: 'As in the code.', example: 'https://example.com/spring' }),
          scans: z.int().meta({ example: 512 }),
        }),
      )
      .meta({ description: 'The `top` most scanned codes in the range, most scans first.' }),
    trend: z.array(periodCountSchema),
    previous_period: z
      .object({
        from: instant('Start of the previous period.', '2026-01-30T00:00:00.000Z'),
        to: instant('End of the previous period: the `from` of this answer.', '2026-03-01T00:00:00.000Z'),
        total_scans: z.int(),
        change_pct: z.number().nullable().meta({
          description: 'Change in scans, in percent with one decimal; null when the previous period had none.',
          example: 12.5,
        }),
      })
      .meta({ description: 'The same number of periods just before, for comparison.' }),
    breakdowns: breakdowns(ACCOUNT_BREAKDOWNS).meta({
      id: 'OverviewBreakdowns',
      description: 'The `top` most frequent values of each dimension, most scans first.',
    }),
  })
  .meta({
    id: 'AnalyticsOverview',
    description: 'The account’s scans over a range: totals, trend, top codes and breakdowns.',
  });
export type Overview = z.output<typeof overviewSchema>;

/** The fields of a raw scan record, in the order of the CSV export's columns. */
export const scanRecordSchema = z
  .object({
    id: z.string().meta({ example: 'scan_1042' }),
    scanned_at: z.iso.datetime().meta({ example: '2026-04-01T09:15:02.000Z' }),
    rule_id: z.string().nullable().meta({
      description: 'The routing rule that chose the destination; null for the fallback.',
      example: 'rule_8kP3nQ7wZ2xY',
    }),
    country: z.string().nullable().meta({ description: 'ISO 3166-1 alpha-2.', example: 'DE' }),
    device: z.string().nullable().meta({ example: 'mobile' }),
    os: z.string().nullable().meta({ example: 'iOS' }),
    browser: z.string().nullable().meta({ example: 'Safari' }),
    referrer_host: z
      .string()
      .nullable()
      .meta({ description: 'The host of the Referer, if any.', example: 'news.example' }),
    language: z
      .string()
      .nullable()
      .meta({ description: 'The primary subtag of the visitor’s most preferred Accept-Language.', example: 'de' }),
    is_bot: z.boolean(),
    is_unique: z.boolean().meta({ description: 'The visitor’s first scan of this code on this UTC day.' }),
    outcome: z.enum(SCAN_OUTCOMES).meta({
      description:
        'What the scan was answered: redirect (to the destination or a rule’s), or paused, expired or ' +
        'limit_reached (to the code’s fallback destination, or its page).',
      example: 'redirect',
    }),
    // Last, so the CSV's earlier columns keep their places.
    region: regionSchema,
    city: citySchema,
  })
  .meta({ id: 'ScanRecord', description: 'One scan as recorded: no address, no raw User-Agent.' });
export type ScanRecord = z.output<typeof scanRecordSchema>;

/** The CSV export's columns: the JSON record's fields, in order. */
export const SCAN_RECORD_COLUMNS = scanRecordSchema.keyof().options;
