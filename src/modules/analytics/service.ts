// Scan analytics: one code's series and breakdowns, and the account overview. Reads hourly
// rollups when every period boundary falls on a whole UTC hour, raw scans otherwise.
import { notFound } from '../../shared/errors.ts';
import type { Principal } from '../../shared/principal.ts';
import { parseInput } from '../../shared/validation.ts';
import type { Code } from '../codes/model.ts';
import type { CodesStore } from '../codes/store.ts';
import { alignsWithHours, formatInstant, HOUR_MS, intoPeriods, previousSeries, type Series } from './periods.ts';
import type { CodeAnalytics, Overview } from './presenter.ts';
import type { Knex } from 'knex';
import { analyticsQuerySchema, overviewQuerySchema } from './schemas.ts';
import { bucketWidth, resolveSeries } from './series.ts';
import { ACCOUNT_BREAKDOWNS, CODE_DIMENSIONS, type AnalyticsSource, type CodeTotals, type Scope, type Window } from './source.ts';
import { countCells, overviewWeekdayHoursQuerySchema, weekdayHoursQuerySchema, type WeekdayHours } from './weekday-hours.ts';

export type { CodeAnalytics, Overview, PeriodCount } from './presenter.ts';

export interface AnalyticsDeps {
  codes: CodesStore;
  rollups: AnalyticsSource;
  raw: AnalyticsSource;
  /** Answer everything from raw scans (benchmarks and cross-checks compare the two). */
  rawOnly: boolean;
  /** A subquery of the ids of the account's codes carrying the named tag (the tags module's). */
  taggedCodes?: (accountId: string, tag: string) => Knex.QueryBuilder;
  now?: () => number;
}

/** The fallback route of a scan has no rule id; breakdowns call it "default". */
const DEFAULT_RULE = 'default';

const noTags = (): Knex.QueryBuilder => {
  throw new Error('analytics by tag need taggedCodes');
};

export function createAnalyticsService({ codes, rollups, raw, rawOnly, taggedCodes = noTags, now = Date.now }: AnalyticsDeps) {
  const sourceFor = (series: Series) => (!rawOnly && alignsWithHours(series) ? rollups : raw);
  const windowOf = (series: Series, includeBots: boolean): Window => ({ from: series.from, to: series.to, includeBots });

  /** Counts per period of the series, zero-filled, and their totals. */
  async function periodCounts(scope: Scope, series: Series, includeBots: boolean) {
    const counts = series.starts.map((start) => ({ period: formatInstant(start, series.zone), scans: 0, unique_scans: 0 }));
    const buckets = await sourceFor(series).buckets(scope, windowOf(series, includeBots), bucketWidth(series));
    intoPeriods(series, buckets, (i, b) => {
      counts[i]!.scans += b.scans;
      counts[i]!.unique_scans += b.unique;
    });
    const total = counts.reduce((sum, c) => ({ scans: sum.scans + c.scans, unique: sum.unique + c.unique_scans }), { scans: 0, unique: 0 });
    return { counts, total };
  }

  /** The 168 weekday x hour cells of a range of whole days in the query's zone. */
  async function weekdayHours(scope: Scope, q: { from?: string; to?: string; timezone: string; include_bots: boolean }) {
    const series = resolveSeries({ ...q, granularity: 'day' }, now());
    // A day series' buckets never straddle a day, nor so a local hour: hourly from the rollups
    // where days start on a UTC hour, quarter hours (or finer) from raw scans elsewhere.
    const buckets = await sourceFor(series).buckets(scope, windowOf(series, q.include_bots), bucketWidth(series));
    const { cells, total } = countCells(buckets, series.zone);
    return { from: formatInstant(series.from, series.zone), to: formatInstant(series.to, series.zone), timezone: series.zone, include_bots: q.include_bots, total_scans: total, cells };
  }

  async function codeOf(principal: Principal, codeId: string): Promise<Code> {
    const code = await codes.findById(principal.accountId, codeId);
    if (!code) throw notFound('code', codeId);
    return code;
  }

  return {
    /** One code's series (zero-filled) and breakdowns; 404 for codes of other accounts. */
    async codeScans(principal: Principal, codeId: string, input: unknown): Promise<CodeAnalytics> {
      const q = parseInput(analyticsQuerySchema, input);
      const series = resolveSeries(q, now());
      await codeOf(principal, codeId);
      const scope: Scope = { kind: 'code', codeId };
      const source = sourceFor(series);
      const window = windowOf(series, q.include_bots);
      const [{ counts, total }, ...breakdowns] = await Promise.all([
        periodCounts(scope, series, q.include_bots),
        ...CODE_DIMENSIONS.map((d) => source.breakdown(scope, d, window, q.top)),
      ]);
      const named = Object.fromEntries(CODE_DIMENSIONS.map((d, i) => [d, breakdowns[i]!])) as CodeAnalytics['breakdowns'];
      named.rule = named.rule.map((c) => ({ value: c.value ?? DEFAULT_RULE, scans: c.scans }));
      return {
        code_id: codeId,
        from: formatInstant(series.from, series.zone),
        to: formatInstant(series.to, series.zone),
        granularity: series.granularity,
        timezone: series.zone,
        include_bots: q.include_bots,
        total_scans: total.scans,
        unique_scans: total.unique,
        timeseries: counts,
        breakdowns: named,
      };
    },

    /**
     * Account-wide totals, trend, top codes and breakdowns, with the period before for
     * comparison; with `tag`, of the codes carrying that tag at the time of the query.
     */
    async overview(principal: Principal, input: unknown): Promise<Overview> {
      const q = parseInput(overviewQuerySchema, input);
      const series = resolveSeries(q, now());
      const previous = previousSeries(series);
      const { accountId } = principal;
      const tag = q.tag;
      const only = tag === undefined ? undefined : () => taggedCodes(accountId, tag);
      const scope: Scope = only ? { kind: 'codes', accountId, codeIds: only } : { kind: 'account', accountId };
      const source = sourceFor(series);
      const window = windowOf(series, q.include_bots);
      const [current, before, totalCodes, ranking, ...breakdowns] = await Promise.all([
        periodCounts(scope, series, q.include_bots),
        periodCounts(scope, previous, q.include_bots),
        codes.countForAccount(accountId, only?.()),
        source.codeRanking(accountId, window, q.top, only),
        ...ACCOUNT_BREAKDOWNS.map((d) => source.breakdown(scope, d, window, q.top)),
      ]);
      const byId = new Map((await codes.findManyByIds(principal.accountId, ranking.top.map((t) => t.codeId))).map((c) => [c.id, c]));
      const prior = before.total.scans;
      return {
        from: formatInstant(series.from, series.zone),
        to: formatInstant(series.to, series.zone),
        granularity: series.granularity,
        timezone: series.zone,
        include_bots: q.include_bots,
        total_scans: current.total.scans,
        unique_scans: current.total.unique,
        total_codes: totalCodes,
        active_codes: ranking.active,
        // A code deleted between the two queries drops out rather than showing without content.
        top_codes: ranking.top.flatMap((t) => {
          const code = byId.get(t.codeId);
          return code ? [{ id: code.id, type: code.type, content: code.content, scans: t.scans }] : [];
        }),
        trend: current.counts,
        previous_period: {
          from: formatInstant(previous.from, previous.zone),
          to: formatInstant(previous.to, previous.zone),
          total_scans: prior,
          change_pct: prior === 0 ? null : Math.round(((current.total.scans - prior) / prior) * 1000) / 10,
        },
        breakdowns: Object.fromEntries(ACCOUNT_BREAKDOWNS.map((d, i) => [d, breakdowns[i]!])) as Overview['breakdowns'],
      };
    },

    /** One code's scans by weekday and hour in the query's zone; 404 for codes of other accounts. */
    async codeWeekdayHours(principal: Principal, codeId: string, input: unknown): Promise<WeekdayHours> {
      const q = parseInput(weekdayHoursQuerySchema, input);
      await codeOf(principal, codeId);
      return { code_id: codeId, ...(await weekdayHours({ kind: 'code', codeId }, q)) };
    },

    /** The account's scans (or a tag's codes') by weekday and hour in the query's zone. */
    async overviewWeekdayHours(principal: Principal, input: unknown): Promise<WeekdayHours> {
      const q = parseInput(overviewWeekdayHoursQuerySchema, input);
      const { accountId } = principal;
      const tag = q.tag;
      const scope: Scope = tag === undefined ? { kind: 'account', accountId } : { kind: 'codes', accountId, codeIds: () => taggedCodes(accountId, tag) };
      return weekdayHours(scope, q);
    },

    /**
     * Totals of several of the caller's codes over one window, in one query (DataLoader's batch
     * function). Codes of other accounts count nothing: the query is scoped by account.
     */
    async totalsByCode(principal: Principal, codeIds: readonly string[], window: Window): Promise<CodeTotals[]> {
      const onHours = (t: number | null) => t === null || t % HOUR_MS === 0;
      const source = !rawOnly && onHours(window.from) && onHours(window.to) ? rollups : raw;
      const totals = await source.totalsByCode(principal.accountId, codeIds, window);
      return codeIds.map((id) => totals.get(id) ?? { scans: 0, unique: 0 });
    },
  };
}

export type AnalyticsService = ReturnType<typeof createAnalyticsService>;
