// Query parameters of the analytics endpoints. GraphQL passes its arguments in the same
// string form, so both transports validate alike.
import { z } from 'zod';
import { tagNameSchema } from '../tags/index.ts';
import { GRANULARITIES, isTimeZone } from './periods.ts';

const DATE = /^\d{4}-\d{2}-\d{2}$/;

/** A calendar date without a time: a `to` date includes its whole day. */
export const isDateOnly = (value: string) => DATE.test(value);

/** A day that exists: Date.parse rolls 2026-02-30 over into March instead of refusing it. */
const isCalendarDate = (v: string) => {
  const time = Date.parse(`${v}T00:00:00Z`);
  return !Number.isNaN(time) && new Date(time).toISOString().slice(0, 10) === v;
};

/** A date-time with offset, or a calendar date read in the request's time zone. */
const instant = z
  .string()
  .refine((v) => (DATE.test(v) ? isCalendarDate(v) : z.iso.datetime({ offset: true }).safeParse(v).success), {
    error: 'must be an ISO 8601 date (2026-01-31) or date-time with offset (2026-01-31T00:00:00Z)',
  });

const flag = z.enum(['true', 'false'], { error: "must be 'true' or 'false'" }).transform((v) => v === 'true');

export const MAX_TOP = 100;

/** The length of each period of a series (GraphQL's AnalyticsGranularity too). */
export const granularitySchema = z.enum(GRANULARITIES, { error: `must be one of ${GRANULARITIES.join(', ')}` });

/** A count of listed values, 1 to MAX_TOP. */
const topCount = () =>
  z.coerce
    .number({ error: 'must be a number' })
    .int('must be a whole number')
    .min(1, 'must be at least 1')
    .max(MAX_TOP, `must be at most ${MAX_TOP}`);

const rangeFields = {
  from: instant.optional().meta({
    description:
      'Start of the range, inclusive: a date-time with offset, or a date read in `timezone`. Default: 30 days ago ' +
      '(today included).',
    example: '2026-03-01',
  }),
  to: instant.optional().meta({
    description: 'End of the range, exclusive; a date includes its whole day. Default: now.',
    example: '2026-03-31',
  }),
  granularity: granularitySchema.default('day').meta({ description: 'The length of each period of the series.' }),
  timezone: z
    .string()
    .refine(isTimeZone, { error: 'must be an IANA time zone such as Europe/Berlin' })
    .default('UTC')
    .meta({ description: 'The IANA time zone of dates and periods.', example: 'Europe/Berlin' }),
  include_bots: flag
    .default(false)
    .meta({ description: 'Count scans by crawlers and link previewers too.', override: { default: 'false' } }),
  /** How many values each breakdown (and the overview's top codes) lists. */
  top: topCount()
    .default(10)
    .meta({ description: 'How many values each breakdown (and the overview’s top codes) lists.' }),
};

export const analyticsQuerySchema = z.strictObject(rangeFields);
export type AnalyticsQuery = z.output<typeof analyticsQuerySchema>;

/** The overview's query: a range, and optionally one tag whose codes it is restricted to. */
export const overviewQuerySchema = z.strictObject({
  ...rangeFields,
  top_codes: topCount()
    .optional()
    .meta({
      description:
        'How many codes `top_codes` lists, when not as many as `top`: a page that shows 100 countries on a map ' +
        'and 10 codes asks for `top=100&top_codes=10`, and the ranking of codes costs less.',
    }),
  tag: tagNameSchema.optional().meta({
    description:
      'Only the codes carrying this tag now (its name, case ignored): totals, trend, top codes, breakdowns and ' +
      '`total_codes` count those codes alone. A name the account has no tag for counts nothing.',
    example: 'print',
  }),
});
export type OverviewQuery = z.output<typeof overviewQuerySchema>;

export const RAW_PAGE_MAX = 1000;

export const rawScansQuerySchema = z.strictObject({
  cursor: z.string().max(200).optional().meta({ description: 'The `next_cursor` of the previous page.' }),
  limit: z.coerce
    .number({ error: 'must be a number' })
    .int('must be a whole number')
    .min(1, 'must be at least 1')
    .max(RAW_PAGE_MAX, `must be at most ${RAW_PAGE_MAX}`)
    .default(100)
    .meta({ description: 'Records per JSON page; CSV has every record.' }),
  format: z
    .enum(['json', 'csv'], { error: "must be 'json' or 'csv'" })
    .default('json')
    .meta({ description: 'JSON pages, or one CSV file of every record.' }),
  from: z.iso
    .datetime({ offset: true, error: 'must be an ISO 8601 date-time such as 2026-01-31T00:00:00Z' })
    .optional()
    .meta({ description: 'Only scans at or after this instant.', example: '2026-04-01T00:00:00Z' }),
  to: z.iso
    .datetime({ offset: true, error: 'must be an ISO 8601 date-time such as 2026-01-31T00:00:00Z' })
    .optional()
    .meta({ description: 'Only scans before this instant.', example: '2026-05-01T00:00:00Z' }),
});
export type RawScansQuery = z.output<typeof rawScansQuerySchema>;
