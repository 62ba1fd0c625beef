// The analytics operations in the OpenAPI document: the same schemas that validate the queries
// (schemas.ts) and shape the answers (presenter.ts).
import { z } from 'zod';
import { jsonResponse, listOf, operation, type OpenApiModule } from '../../http/openapi/common.ts';
import { codeIdParams } from '../codes/openapi.ts';
import { MAX_PERIODS } from './periods.ts';
import {
  codeAnalyticsSchema,
  overviewSchema,
  rawAvailableSinceSchema,
  SCAN_RECORD_COLUMNS,
  scanRecordSchema,
} from './presenter.ts';
import { analyticsQuerySchema, overviewQuerySchema, rawScansQuerySchema } from './schemas.ts';
import { overviewWeekdayHoursQuerySchema, weekdayHoursQuerySchema, weekdayHoursSchema } from './weekday-hours.ts';

const TAG = 'Analytics';

// The longest series per granularity, as prose: "N hours, N days, N weeks or N months".
const MAX_SERIES = Object.entries(MAX_PERIODS)
  .map(([granularity, max]) => `${max} ${granularity}s`)
  .join(', ')
  .replace(/, ([^,]*)$/, ' or $1');

const RANGE =
  'The range is `from` (inclusive) to `to` (exclusive), each an ISO 8601 date-time with offset, or a calendar date ' +
  'read in `timezone` (a `to` date includes its whole day); by default the last 30 days, today included. The range ' +
  `widens to whole periods of \`granularity\` in \`timezone\`, and a series has at most ${MAX_SERIES} (else 422). ` +
  'Bots are left out unless `include_bots=true`. Periods on whole quarter hours (in every time zone of today, ' +
  'half- and 45-minute offsets included) are answered from rollups, which reach back to the first scan whatever ' +
  'the raw-scan retention; only a range in a zone whose offset was not on a quarter hour then (a local mean time ' +
  'before about 1900) is answered from raw scans and, with retention (`raw_available_since` not null), must not ' +
  'start before `raw_available_since` (else 422). A server that keeps no raw scan rows (`SCAN_RAW_ROWS=none`) ' +
  'answers such a range with 409 `/problems/raw-scans-not-kept`, and counts a code’s (or a tag’s) breakdowns ' +
  'over the UTC days nearest the range (`breakdowns_from`, `breakdowns_to` say which).';

const WEEKDAY_HOURS =
  'Scans in the range (whole days in `timezone`; by default the last 30 days, today included, at most 366 days) ' +
  'summed into 168 cells, one per ISO weekday (1 Monday to 7 Sunday) and hour of the day in `timezone`, zeros ' +
  'included. Exact in every zone, from the quarter-hour rollups: a quarter hour lies within one local hour in ' +
  'zones with whole-hour offsets and in those with half- or 45-minute ones (Asia/Kolkata, Asia/Kathmandu, ' +
  'America/St_Johns...) alike. Across a DST change, the hour repeated in ' +
  'autumn counts both times into its cell and the hour skipped in spring stays at zero. Bots are left out unless ' +
  '`include_bots=true`. With raw-scan retention (`raw_available_since` not null), a range in a zone answered ' +
  'from raw scans (an offset off the quarter hour, as local mean times before about 1900) must not start before ' +
  '`raw_available_since` (else 422; 409 `/problems/raw-scans-not-kept` with `SCAN_RAW_ROWS=none`). The account’s ' +
  'deleted codes count ' +
  'nowhere from the moment they are deleted.';

const scanRecordList = listOf(scanRecordSchema, 'ScanRecordList').extend({
  raw_available_since: rawAvailableSinceSchema,
});

const CSV_EXAMPLE = `${SCAN_RECORD_COLUMNS.join(',')}
scan_1042,2026-04-01T09:15:02.000Z,,DE,mobile,iOS,Safari,news.example,de,false,true
`;

export const analyticsOpenApi: OpenApiModule = {
  tag: {
    name: TAG,
    description:
      'Scan analytics: a code’s scans per period with breakdowns, the account overview, and the raw scan records as ' +
      'JSON pages or CSV.',
  },
  paths: {
    '/codes/{id}/scans': {
      get: operation({
        operationId: 'getCodeScans',
        summary: 'A code’s scans per period, with breakdowns',
        description:
          `${RANGE} Breakdowns list the \`top\` values of each dimension. 404 for an unknown code or one ` +
          `of another account.`,
        tag: TAG,
        scope: 'analytics:read',
        requestParams: { path: codeIdParams, query: analyticsQuerySchema },
        responses: { '200': jsonResponse(codeAnalyticsSchema, 'The series and breakdowns.') },
        problems: [404, 409, 422, 503],
      }),
    },
    '/codes/{id}/scans/weekday-hours': {
      get: operation({
        operationId: 'getCodeScanWeekdayHours',
        summary: 'A code’s scans by weekday and hour of the day',
        description: `${WEEKDAY_HOURS} 404 for an unknown code or one of another account.`,
        tag: TAG,
        scope: 'analytics:read',
        requestParams: { path: codeIdParams, query: weekdayHoursQuerySchema },
        responses: { '200': jsonResponse(weekdayHoursSchema, 'The 168 cells.') },
        problems: [404, 409, 422, 503],
      }),
    },
    '/codes/{id}/scans/raw': {
      get: operation({
        operationId: 'listCodeScanRecords',
        summary: 'A code’s individual scan records (JSON pages or CSV)',
        description:
          'Each scan as recorded, oldest first, optionally within `from` (inclusive) and `to` (exclusive). As JSON, ' +
          'one page of at most `limit` records with `next_cursor`. With `format=csv`, every record of the range ' +
          '(from `cursor` on, if given) as one streamed CSV file whose columns are the JSON fields; text that a ' +
          'spreadsheet would run as a formula gets a leading apostrophe. Raw scans older than the retention ' +
          '(`SCAN_RAW_RETENTION_DAYS`) are deleted: the JSON page says from when records are kept in ' +
          '`raw_available_since` (the CSV in the `Raw-Available-Since` header), and a `from` before it is ' +
          'refused with 422. A server that keeps no raw scan rows (`SCAN_RAW_ROWS=none`, rollups only) answers 409 ' +
          '`/problems/raw-scans-not-kept`. 404 for an unknown code or one of another account.',
        tag: TAG,
        scope: 'analytics:read',
        requestParams: { path: codeIdParams, query: rawScansQuerySchema },
        responses: {
          '200': {
            description: 'A page of records (the default, `format=json`), or all of them as CSV (`format=csv`).',
            content: {
              'application/json': { schema: scanRecordList },
              'text/csv': {
                schema: z.string().meta({ description: 'A header row, then one scan per row.', example: CSV_EXAMPLE }),
              },
            },
            headers: z.object({
              'Content-Disposition': z.string().optional().meta({
                description: 'With `format=csv`: an attachment named after the code.',
                example: 'attachment; filename="scans-qr_4fT9kQ2mX8pL.csv"',
              }),
              'Cache-Control': z
                .literal('private, no-store')
                .optional()
                .meta({ description: 'With `format=csv`: the export is not kept by caches.' }),
              'Raw-Available-Since': z.string().optional().meta({
                description: 'With `format=csv` and raw-scan retention: the earliest instant raw scans are kept from.',
                example: '2025-11-26T21:00:00.000Z',
              }),
            }),
          },
        },
        problems: [404, 409, 422, 503],
      }),
    },
    '/analytics/overview': {
      get: operation({
        operationId: 'getAnalyticsOverview',
        summary: 'The account’s scans: totals, trend, top codes, breakdowns',
        description:
          `${RANGE} \`previous_period\` covers the same number of periods just before, for comparison; ` +
          `\`top\` says how many top codes and values per breakdown to list.`,
        tag: TAG,
        scope: 'analytics:read',
        requestParams: { query: overviewQuerySchema },
        responses: { '200': jsonResponse(overviewSchema, 'The overview.') },
        problems: [409, 422, 503],
      }),
    },
    '/analytics/weekday-hours': {
      get: operation({
        operationId: 'getAnalyticsWeekdayHours',
        summary: 'The account’s scans by weekday and hour of the day',
        description: `${WEEKDAY_HOURS} With \`tag\`, only the codes carrying that tag now.`,
        tag: TAG,
        scope: 'analytics:read',
        requestParams: { query: overviewWeekdayHoursQuerySchema },
        responses: { '200': jsonResponse(weekdayHoursSchema, 'The 168 cells.') },
        problems: [409, 422, 503],
      }),
    },
  },
};
