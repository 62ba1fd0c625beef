// GraphQL for dashboards: per-code counts (batched through DataLoader), a code's series and
// breakdowns, and the account overview; the same analytics service as REST.
import type { ArgBuilder } from '@pothos/core';
import { builder, type BuilderTypes } from '../../graphql/builder.ts';
import { points } from '../../graphql/cost.ts';
import { enumOf } from '../../graphql/enums.ts';
import { scoped } from '../../graphql/scoped.ts';
import { compact } from '../../graphql/inputs.ts';
import { validationFailed } from '../../shared/errors.ts';
import { CodeRef, CodeTypeEnum } from '../codes/graphql.ts';
import { BREAKDOWN_DESCRIPTIONS, BREAKDOWNS_RANGE, LOCKED_VIEWS } from './presenter.ts';
import type { AnalyticsService, CodeAnalytics, Overview, PeriodCount } from './service.ts';
import { ACCOUNT_BREAKDOWNS } from './source.ts';
import { CODE_DIMENSIONS, type ValueCount } from '../scans/index.ts';
import { parseInput } from '../../shared/validation.ts';
import type { AnalyticsLoaders } from './loaders.ts';
import { CODE_COUNT_POINTS, CODE_SCANS_POINTS, OVERVIEW_POINTS, WEEKDAY_HOURS_POINTS } from './prices.ts';
import { analyticsQuerySchema, granularitySchema, overviewQuerySchema } from './schemas.ts';
import {
  overviewWeekdayHoursQuerySchema,
  weekdayHoursQuerySchema,
  type WeekdayHourCell,
  type WeekdayHours,
} from './weekday-hours.ts';

const RAW_AVAILABLE_SINCE =
  'The earliest instant raw scans are kept from (SCAN_RAW_RETENTION_DAYS); null when all are. Ranges not on whole ' +
  'UTC hours need raw scans and must not start earlier. With SCAN_RAW_ROWS=none (no raw scan rows kept) the instant ' +
  'of the answer: what needs raw scans is refused (RAW_SCANS_NOT_KEPT).';

// What this module's resolvers find in the context (graphql/context.ts explains the merging).
declare module '../../graphql/context.ts' {
  interface GraphQLServices {
    analytics: AnalyticsService;
  }
  interface GraphQLLoaders {
    analytics: AnalyticsLoaders;
  }
}

const Granularity = enumOf('AnalyticsGranularity', granularitySchema);

const PeriodCountRef = builder.objectRef<PeriodCount>('PeriodCount').implement({
  fields: (t) => ({
    period: t.exposeString('period', { description: 'Start of the period, ISO 8601 with the zone offset.' }),
    scans: t.exposeInt('scans'),
    uniqueScans: t.exposeInt('unique_scans'),
  }),
});

const ValueCountRef = builder.objectRef<ValueCount>('ValueCount').implement({
  fields: (t) => ({
    value: t.exposeString('value', {
      nullable: true,
      description: 'Null when the scan did not tell (no Referer, unknown country).',
    }),
    scans: t.exposeInt('scans'),
  }),
});

/** One [ValueCount] field per dimension, named as the REST answer names it. */
const breakdownFields = (
  t: PothosSchemaTypes.ObjectFieldBuilder<BuilderTypes, Record<string, ValueCount[]>>,
  dimensions: readonly string[],
) =>
  Object.fromEntries(
    dimensions.map((dimension) => [
      dimension,
      t.field({
        type: [ValueCountRef],
        description: BREAKDOWN_DESCRIPTIONS[dimension],
        resolve: (b) => b[dimension] ?? [],
      }),
    ]),
  );

const CodeBreakdownsRef = builder.objectRef<CodeAnalytics['breakdowns']>('CodeScanBreakdowns').implement({
  fields: (t) => ({
    ...breakdownFields(
      t,
      CODE_DIMENSIONS.filter((dimension) => dimension !== 'rule'),
    ),
    rule: t.field({
      type: [ValueCountRef],
      description: 'Rule ids, and "default" for the fallback destination.',
      resolve: (b) => b.rule,
    }),
  }),
});

const CodeAnalyticsRef = builder.objectRef<CodeAnalytics>('CodeScanAnalytics').implement({
  fields: (t) => ({
    from: t.exposeString('from'),
    to: t.exposeString('to'),
    granularity: t.field({ type: Granularity, resolve: (a) => a.granularity }),
    timezone: t.exposeString('timezone'),
    includeBots: t.exposeBoolean('include_bots'),
    rawAvailableSince: t.exposeString('raw_available_since', { nullable: true, description: RAW_AVAILABLE_SINCE }),
    breakdownsFrom: t.exposeString('breakdowns_from', { description: BREAKDOWNS_RANGE }),
    breakdownsTo: t.exposeString('breakdowns_to', { description: BREAKDOWNS_RANGE }),
    totalScans: t.exposeInt('total_scans'),
    uniqueScans: t.exposeInt('unique_scans'),
    importedScans: t.exposeInt('imported_scans', {
      description: 'Scans the code had at the service it was imported from: history, never in totalScans.',
    }),
    lockedViews: t.exposeInt('locked_views', { description: LOCKED_VIEWS }),
    timeseries: t.field({ type: [PeriodCountRef], resolve: (a) => a.timeseries }),
    breakdowns: t.field({ type: CodeBreakdownsRef, resolve: (a) => a.breakdowns }),
  }),
});

type TopCode = Overview['top_codes'][number];
const TopCodeRef = builder.objectRef<TopCode>('TopCode').implement({
  fields: (t) => ({
    id: t.exposeID('id'),
    name: t.exposeString('name', { nullable: true }),
    type: t.expose('type', { type: CodeTypeEnum }),
    content: t.field({ type: 'JSON', resolve: (c) => c.content }),
    scans: t.exposeInt('scans'),
  }),
});

const PreviousPeriodRef = builder.objectRef<Overview['previous_period']>('PreviousPeriod').implement({
  fields: (t) => ({
    from: t.exposeString('from'),
    to: t.exposeString('to'),
    totalScans: t.exposeInt('total_scans'),
    changePct: t.exposeFloat('change_pct', {
      nullable: true,
      description: 'Null when the previous period had no scans.',
    }),
  }),
});

const OverviewBreakdownsRef = builder.objectRef<Overview['breakdowns']>('OverviewBreakdowns').implement({
  fields: (t) => breakdownFields(t, ACCOUNT_BREAKDOWNS),
});

const OverviewRef = builder.objectRef<Overview>('AnalyticsOverview').implement({
  fields: (t) => ({
    from: t.exposeString('from'),
    to: t.exposeString('to'),
    granularity: t.field({ type: Granularity, resolve: (o) => o.granularity }),
    timezone: t.exposeString('timezone'),
    includeBots: t.exposeBoolean('include_bots'),
    rawAvailableSince: t.exposeString('raw_available_since', { nullable: true, description: RAW_AVAILABLE_SINCE }),
    breakdownsFrom: t.exposeString('breakdowns_from', { description: BREAKDOWNS_RANGE }),
    breakdownsTo: t.exposeString('breakdowns_to', { description: BREAKDOWNS_RANGE }),
    totalScans: t.exposeInt('total_scans'),
    uniqueScans: t.exposeInt('unique_scans'),
    totalCodes: t.exposeInt('total_codes'),
    activeCodes: t.exposeInt('active_codes'),
    topCodes: t.field({ type: [TopCodeRef], resolve: (o) => o.top_codes }),
    trend: t.field({ type: [PeriodCountRef], resolve: (o) => o.trend }),
    previousPeriod: t.field({ type: PreviousPeriodRef, resolve: (o) => o.previous_period }),
    breakdowns: t.field({ type: OverviewBreakdownsRef, resolve: (o) => o.breakdowns }),
  }),
});

/** Arguments of a series, as REST takes them (dates or date-times as strings). */
const seriesArgs = (t: { arg: ArgBuilder<BuilderTypes> }) => ({
  from: t.arg.string({ description: 'ISO 8601 date or date-time with offset; default 30 days ago.' }),
  to: t.arg.string({ description: 'Exclusive date-time, or a date that is included whole; default now.' }),
  granularity: t.arg({ type: Granularity }),
  timezone: t.arg.string({ description: 'IANA time zone of the periods; default UTC.' }),
  includeBots: t.arg.boolean(),
  top: t.arg.int({ description: 'Values per breakdown (and top codes), 1-100; default 10.' }),
});

const asQuery = (args: Record<string, unknown>) =>
  compact({
    from: args.from,
    to: args.to,
    granularity: args.granularity,
    timezone: args.timezone,
    include_bots: args.includeBots === undefined || args.includeBots === null ? undefined : String(args.includeBots),
    top: args.top,
  });

const countArgs = (t: { arg: ArgBuilder<BuilderTypes> }) => ({
  from: t.arg({ type: 'DateTime', description: 'Inclusive; default: all time.' }),
  to: t.arg({ type: 'DateTime', description: 'Exclusive; default: now.' }),
  includeBots: t.arg.boolean(),
});

type CountArgs = { from?: Date | null; to?: Date | null; includeBots?: boolean | null };

function windowOf(args: CountArgs) {
  const from = args.from?.getTime() ?? null;
  const to = args.to?.getTime() ?? null;
  if (from !== null && to !== null && from >= to)
    throw validationFailed([{ path: 'from', message: 'must be before to' }]);
  return { from, to, includeBots: args.includeBots ?? false };
}

builder.objectFields(CodeRef, (t) => ({
  scanCount: t.int({
    description: 'Scans in [from, to), bots excluded unless asked. Batched: one query for every code of the request.',
    args: countArgs(t),
    extensions: points(CODE_COUNT_POINTS, { once: true }),
    resolve: scoped(
      'analytics:read',
      async (code, args, ctx) =>
        (await ctx.loaders.analytics.codeTotals(windowOf(args as CountArgs)).load(code.id)).scans,
    ),
  }),
  uniqueScanCount: t.int({
    description:
      "Scans that were a visitor's first of the UTC day for this code (see docs/scans-and-analytics.md on unique " +
      'counts).',
    args: countArgs(t),
    extensions: points(CODE_COUNT_POINTS, { once: true }),
    resolve: scoped(
      'analytics:read',
      async (code, args, ctx) =>
        (await ctx.loaders.analytics.codeTotals(windowOf(args as CountArgs)).load(code.id)).unique,
    ),
  }),
  scans: t.field({
    type: CodeAnalyticsRef,
    description: 'The series and breakdowns of GET /v1/codes/:id/scans.',
    args: seriesArgs(t),
    extensions: points(CODE_SCANS_POINTS),
    resolve: scoped('analytics:read', (code, args, ctx) =>
      ctx.services.analytics.codeScans(ctx.principal, code.id, parseInput(analyticsQuerySchema, asQuery(args))),
    ),
  }),
}));

builder.queryField('analyticsOverview', (t) =>
  t.field({
    type: OverviewRef,
    description: 'The account overview of GET /v1/analytics/overview; with tag, of the codes carrying that tag.',
    extensions: points(OVERVIEW_POINTS),
    args: {
      ...seriesArgs(t),
      tag: t.arg.string({ description: 'Only the codes carrying this tag now (its name, case ignored).' }),
      topCodes: t.arg.int({ description: 'How many codes topCodes lists, 1-100; default: as many as top.' }),
    },
    resolve: scoped('analytics:read', (_root, args, ctx) =>
      ctx.services.analytics.overview(
        ctx.principal,
        parseInput(overviewQuerySchema, { ...asQuery(args), ...compact({ tag: args.tag, top_codes: args.topCodes }) }),
      ),
    ),
  }),
);

const WeekdayHourCountRef = builder.objectRef<WeekdayHourCell>('WeekdayHourCount').implement({
  fields: (t) => ({
    weekday: t.exposeInt('weekday', { description: 'ISO weekday in the requested zone: 1 is Monday, 7 Sunday.' }),
    hour: t.exposeInt('hour', { description: 'Hour of the day in the requested zone, 0-23.' }),
    scans: t.exposeInt('scans'),
  }),
});

const WeekdayHoursRef = builder.objectRef<WeekdayHours>('WeekdayHours').implement({
  description: 'Scans by weekday and hour of the day in a time zone, summed over a range of whole days.',
  fields: (t) => ({
    from: t.exposeString('from'),
    to: t.exposeString('to'),
    timezone: t.exposeString('timezone'),
    includeBots: t.exposeBoolean('include_bots'),
    totalScans: t.exposeInt('total_scans'),
    cells: t.field({
      type: [WeekdayHourCountRef],
      description: 'All 168 cells, zeros included, Monday 00 first.',
      resolve: (w) => w.cells,
    }),
    rawAvailableSince: t.exposeString('raw_available_since', { nullable: true, description: RAW_AVAILABLE_SINCE }),
  }),
});

/** A range in a zone, as REST's weekday-hours endpoints take it. */
const weekdayHoursArgs = (t: { arg: ArgBuilder<BuilderTypes> }) => {
  const { from, to, timezone, includeBots } = seriesArgs(t);
  return { from, to, timezone, includeBots };
};

const asWeekdayHoursQuery = (args: Record<string, unknown>) => {
  const { granularity: _granularity, top: _top, ...query } = asQuery(args);
  return query;
};

builder.objectFields(CodeRef, (t) => ({
  scanWeekdayHours: t.field({
    type: WeekdayHoursRef,
    description: 'The weekday x hour cells of GET /v1/codes/:id/scans/weekday-hours.',
    extensions: points(WEEKDAY_HOURS_POINTS),
    args: weekdayHoursArgs(t),
    resolve: scoped('analytics:read', (code, args, ctx) =>
      ctx.services.analytics.codeWeekdayHours(
        ctx.principal,
        code.id,
        parseInput(weekdayHoursQuerySchema, asWeekdayHoursQuery(args)),
      ),
    ),
  }),
}));

builder.queryField('analyticsWeekdayHours', (t) =>
  t.field({
    type: WeekdayHoursRef,
    description:
      'The account’s weekday x hour cells of GET /v1/analytics/weekday-hours; with tag, of the codes carrying that ' +
      'tag.',
    extensions: points(WEEKDAY_HOURS_POINTS),
    args: {
      ...weekdayHoursArgs(t),
      tag: t.arg.string({ description: 'Only the codes carrying this tag now (its name, case ignored).' }),
    },
    resolve: scoped('analytics:read', (_root, args, ctx) =>
      ctx.services.analytics.overviewWeekdayHours(
        ctx.principal,
        parseInput(overviewWeekdayHoursQuerySchema, { ...asWeekdayHoursQuery(args), ...compact({ tag: args.tag }) }),
      ),
    ),
  }),
);
