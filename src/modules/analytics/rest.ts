// REST routes for scan analytics and raw scan export.
import { Readable } from 'node:stream';
import type { Router } from '@koa/router';
import { stringify } from 'csv-stringify';
import { principalOf, type AppState } from '../../http/context.ts';
import { scope } from '../../http/scopes.ts';
import type { RouteEdge } from '../../http/route-edge.ts';
import { SCAN_RECORD_COLUMNS, type ScanRecord } from './presenter.ts';
import { defuseFormula } from '../../shared/spreadsheet.ts';
import { parseInput } from '../../shared/validation.ts';
import type { RawScansService } from './raw-scans.ts';
import { CODE_SCANS_POINTS, OVERVIEW_POINTS, RAW_SCANS_POINTS, WEEKDAY_HOURS_POINTS } from './prices.ts';
import { analyticsQuerySchema, overviewQuerySchema, rawScansQuerySchema } from './schemas.ts';
import type { AnalyticsService } from './service.ts';
import { overviewWeekdayHoursQuerySchema, weekdayHoursQuerySchema } from './weekday-hours.ts';

function csvStream(records: AsyncIterable<ScanRecord[]>): NodeJS.ReadableStream {
  const csv = stringify({
    header: true,
    columns: [...SCAN_RECORD_COLUMNS],
    cast: { string: defuseFormula, boolean: (v) => String(v) },
  });
  // pipeline-like: the generator pulls a page only when the CSV side wants more.
  return Readable.from(
    (async function* () {
      for await (const page of records) yield* page;
    })(),
  ).pipe(csv);
}

export function registerAnalyticsRoutes(
  router: Router<AppState>,
  { analytics, rawScans, pricedAuth }: RouteEdge & { analytics: AnalyticsService; rawScans: RawScansService },
): void {
  // Each read is charged its work (prices.ts), as its GraphQL field is.
  // GET /v1/codes/:id/scans: one code's series and breakdowns (from, to, granularity, timezone, include_bots, top)
  router.get('/codes/:id/scans', pricedAuth(CODE_SCANS_POINTS), scope('analytics:read'), async (ctx) => {
    ctx.body = await analytics.codeScans(principalOf(ctx), ctx.params.id!, parseInput(analyticsQuerySchema, ctx.query));
  });

  // GET /v1/codes/:id/scans/weekday-hours: one code's scans by weekday and hour (from, to, timezone, include_bots)
  router.get(
    '/codes/:id/scans/weekday-hours',
    pricedAuth(WEEKDAY_HOURS_POINTS),
    scope('analytics:read'),
    async (ctx) => {
      ctx.body = await analytics.codeWeekdayHours(
        principalOf(ctx),
        ctx.params.id!,
        parseInput(weekdayHoursQuerySchema, ctx.query),
      );
    },
  );

  // GET /v1/codes/:id/scans/raw: individual scan records, keyset-paginated JSON or streamed CSV
  router.get('/codes/:id/scans/raw', pricedAuth(RAW_SCANS_POINTS), scope('analytics:read'), async (ctx) => {
    const result = await rawScans.list(principalOf(ctx), ctx.params.id!, parseInput(rawScansQuerySchema, ctx.query));
    if (result.format === 'json') {
      ctx.body = {
        object: 'list',
        data: result.data,
        next_cursor: result.nextCursor,
        raw_available_since: result.rawAvailableSince,
      };
      return;
    }
    ctx.attachment(`scans-${ctx.params.id}.csv`);
    ctx.type = 'text/csv; charset=utf-8';
    ctx.set('Cache-Control', 'private, no-store');
    if (result.rawAvailableSince) ctx.set('Raw-Available-Since', result.rawAvailableSince);
    ctx.body = csvStream(result.records);
  });

  // GET /v1/analytics/overview: the account's totals, trend, top codes and breakdowns
  router.get('/analytics/overview', pricedAuth(OVERVIEW_POINTS), scope('analytics:read'), async (ctx) => {
    ctx.body = await analytics.overview(principalOf(ctx), parseInput(overviewQuerySchema, ctx.query));
  });

  // GET /v1/analytics/weekday-hours: the account's scans by weekday and hour (from, to, timezone, include_bots, tag)
  router.get('/analytics/weekday-hours', pricedAuth(WEEKDAY_HOURS_POINTS), scope('analytics:read'), async (ctx) => {
    ctx.body = await analytics.overviewWeekdayHours(
      principalOf(ctx),
      parseInput(overviewWeekdayHoursQuerySchema, ctx.query),
    );
  });
}
