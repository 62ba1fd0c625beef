// Scan analytics: one code's series and breakdowns, and the account overview. Reads the rollups
// (daily rows when every period boundary falls on a UTC midnight, quarter-hour ones summed into
// local days or hours in SQL when on a whole quarter hour, as in every time zone today) and raw
// scans otherwise.
import { notFound } from '../../shared/errors.ts';
import type { Principal } from '../../shared/principal.ts';
import type { Code } from '../codes/index.ts';
import type { CodesStore } from '../codes/index.ts';
import { DAY_MS, QUARTER_MS } from '../../shared/time.ts';
import { formatInstant, intoPeriods, previousSeries, type Series } from './periods.ts';
import type { CodeAnalytics, Overview } from './presenter.ts';
import type { Knex } from 'knex';
import type { AnalyticsQuery, OverviewQuery } from './schemas.ts';
import { rawHorizon } from './raw-horizon.ts';
import { resolveSeries } from './series.ts';
import { ACCOUNT_BREAKDOWNS, type AccountDimension } from './source.ts';
import {
  ALL_VALUES,
  CODE_DIMENSIONS,
  DIMENSION_COLUMNS,
  rankValues,
  type AnalyticsSource,
  type Bucket,
  type CodeTotals,
  type Grid,
  type OffsetRun,
  type WeekHourCount,
  type Scope,
  type ValueCount,
  type Window,
} from '../scans/index.ts';
import { gridOf, offsetRuns, onQuarters } from './zone-grid.ts';
import {
  countCells,
  type OverviewWeekdayHoursQuery,
  type WeekdayHours,
  type WeekdayHoursQuery,
} from './weekday-hours.ts';

export type { CodeAnalytics, Overview, PeriodCount } from './presenter.ts';

export interface AnalyticsDeps {
  codes: CodesStore;
  rollups: AnalyticsSource;
  raw: AnalyticsSource;
  /** Answer everything from raw scans (benchmarks and cross-checks compare the two). */
  rawOnly: boolean;
  /** A subquery of the ids of the account's codes carrying the named tag (the tags module's). */
  taggedCodes?: (accountId: string, tag: string) => Knex.QueryBuilder;
  /** The id of the account's tag of that name (the tags module's), whose rollups answer for its codes. */
  tagIdOf?: (accountId: string, tag: string) => Promise<string | null>;
  /** The earliest instant raw scans are kept from (SCAN_RAW_RETENTION_DAYS); null: all are. */
  rawAvailableSince?: () => number | null;
  /** SCAN_RAW_ROWS=keep (the default); false: none are stored, and what needs them is refused (raw-horizon.ts). */
  rawRowsKept?: boolean;
  /** The raw scans of the account's deleted codes that are still being purged (scans/purge.ts). */
  purging?: Purging;
  /** A code's locked views on the UTC days from `fromDay` to `toDay` (scans' LockedViewsStore.count). */
  lockedViews?: (codeId: string, fromDay: number, toDay: number, includeBots: boolean) => Promise<number>;
  /**
   * Runs `read` over sources that all read one snapshot of the database (a read transaction),
   * so that a purge batch committing meanwhile is seen by all of its queries or by none.
   */
  snapshot?: <T>(read: (view: SourceView) => Promise<T>) => Promise<T>;
  now?: () => number;
}

/**
 * What is left of the account's deleted codes while their purge runs. The purge subtracts each
 * batch of their raw scans from the account's rollups as it deletes it; the overview subtracts
 * what is left, so its answers are the same before, during and after the purge.
 */
export interface Purging {
  /** Whether any of the account's deleted codes is still being purged. */
  any(accountId: string): Promise<boolean>;
  buckets(accountId: string, window: Window, grid: Grid): Promise<Bucket[]>;
  weekHours(accountId: string, window: Window, runs: readonly OffsetRun[]): Promise<WeekHourCount[]>;
  values(
    accountId: string,
    column: (typeof DIMENSION_COLUMNS)[AccountDimension],
    window: Window,
  ): Promise<ValueCount[]>;
}

/** The sources and the purge's remainder, read together. */
export interface SourceView {
  rollups: AnalyticsSource;
  raw: AnalyticsSource;
  purging: Purging;
}

const NOTHING_PURGING: Purging = {
  any: async () => false,
  buckets: async () => [],
  weekHours: async () => [],
  values: async () => [],
};

/** The fallback route of a scan has no rule id; breakdowns call it "default". */
const DEFAULT_RULE = 'default';

const noTags = (): Knex.QueryBuilder => {
  throw new Error('analytics by tag need taggedCodes');
};

/** The time a breakdown counted (see breakdownWindow), as the answer states it. */
const breakdownsRange = (counted: { from: number; to: number }, zone: string) => ({
  breakdowns_from: formatInstant(counted.from, zone),
  breakdowns_to: formatInstant(counted.to, zone),
});

/** Buckets to subtract (a deleted code's scans still being purged), as buckets to add. */
const negated = (buckets: Bucket[]): Bucket[] => buckets.map((b) => ({ at: b.at, scans: -b.scans, unique: -b.unique }));

/** A series and the grid its counts are summed in (zone-grid.ts). */
interface Plan {
  series: Series;
  grid: Grid;
}

const planOf = (series: Series): Plan => ({ series, grid: gridOf(series) });

export function createAnalyticsService(deps: AnalyticsDeps) {
  const { codes, rollups, raw, rawOnly, taggedCodes = noTags, rawAvailableSince = () => null, now = Date.now } = deps;
  const tagIdOf = deps.tagIdOf ?? (async () => null);
  const rawRowsKept = deps.rawRowsKept ?? true;
  const horizon = rawHorizon(rawRowsKept, rawAvailableSince, now);
  const here: SourceView = { rollups, raw, purging: deps.purging ?? NOTHING_PURGING };
  const snapshot = deps.snapshot ?? ((read) => read(here));
  const sourceFor = ({ series, grid }: Plan, view = here) =>
    !rawOnly && onQuarters(grid.runs, series.to, grid.width) ? view.rollups : view.raw;
  const windowOf = (series: Series, includeBots: boolean): Window => ({
    from: series.from,
    to: series.to,
    includeBots,
  });

  /**
   * The earliest instant raw scans answer for, as the answer states it. A series that raw scans
   * answer (not on whole quarter hours, or ANALYTICS_SOURCE=raw) must not start before it (422), nor
   * be asked of a server that keeps none (409), rather than counts that silently miss scans.
   */
  function rawRange(plan: Plan): { raw_available_since: string | null } {
    if (sourceFor(plan) === raw && !horizon.covers(plan.series.from)) {
      throw horizon.refusal(
        'this range needs them (its periods do not fall on whole quarter hours)',
        'use a range whose periods start on whole quarter hours, which the rollups answer',
      );
    }
    const since = horizon.since();
    return { raw_available_since: since === null ? null : new Date(since).toISOString() };
  }

  /**
   * The part of the series' window that a code's (or a tag's) breakdowns count exactly. They read
   * the partial UTC days at its edges from raw scans: an edge that starts before the retention
   * horizon would count only some of its scans, so it is left out and the answer says so
   * (breakdowns_from, breakdowns_to). The account's breakdowns come from quarter-hour rollups and a
   * raw-backed series was refused before the horizon (rawRange): both keep the whole window. Without
   * raw rows (SCAN_RAW_ROWS=none) there are no partial days: each edge moves to the nearest UTC
   * midnight (in or out, at most 12 hours), so that a day in any zone has the breakdowns of about
   * that day rather than none.
   */
  function breakdownWindow(scope: Scope, plan: Plan, includeBots: boolean): Window & { from: number; to: number } {
    const { from, to } = plan.series;
    if (!rawRowsKept && scope.kind !== 'account') {
      const nearestMidnight = (t: number) => Math.round(t / DAY_MS) * DAY_MS;
      const keptFrom = nearestMidnight(from);
      return { from: keptFrom, to: Math.max(nearestMidnight(to), keptFrom), includeBots };
    }
    const since = horizon.since();
    if (since === null || scope.kind === 'account' || sourceFor(plan) === raw) return { from, to, includeBots };
    const firstMidnight = Math.min(Math.ceil(from / DAY_MS) * DAY_MS, to);
    const keptFrom = from % DAY_MS !== 0 && from < since ? firstMidnight : from;
    const lastMidnight = Math.max(Math.floor(to / DAY_MS) * DAY_MS, keptFrom);
    const keptTo = to % DAY_MS !== 0 && lastMidnight < since ? lastMidnight : to;
    return { from: keptFrom, to: keptTo, includeBots };
  }

  /**
   * Runs `read` on the sources. While the account has a purge running, `read` is told to
   * subtract what is left of its deleted codes, and reads one snapshot (one connection, so its
   * queries run one after the other; only then): on several connections, a purge batch committing
   * between its queries would be subtracted twice or not at all.
   */
  async function subtractingPurges<T>(scope: Scope, read: (view: SourceView, purging: boolean) => Promise<T>) {
    const purging = scope.kind === 'account' && (await here.purging.any(scope.accountId));
    return purging ? snapshot((view) => read(view, true)) : read(here, false);
  }

  /** Counts per period of the series, zero-filled, and their totals; `minus` are subtracted (codes being purged). */
  async function periodCounts(scope: Scope, plan: Plan, includeBots: boolean, minus: Bucket[] = [], view = here) {
    const { series } = plan;
    const counts = series.starts.map((start) => ({
      period: formatInstant(start, series.zone),
      scans: 0,
      unique_scans: 0,
    }));
    const buckets = await sourceFor(plan, view).buckets(scope, windowOf(series, includeBots), plan.grid);
    intoPeriods(series, [...buckets, ...negated(minus)], (i, b) => {
      counts[i]!.scans += b.scans;
      counts[i]!.unique_scans += b.unique;
    });
    const total = counts.reduce((sum, c) => ({ scans: sum.scans + c.scans, unique: sum.unique + c.unique_scans }), {
      scans: 0,
      unique: 0,
    });
    return { counts, total };
  }

  /** The 168 weekday x hour cells of a range of whole days in the query's zone. */
  async function weekdayHours(
    scope: Scope,
    q: { from?: string; to?: string; timezone: string; include_bots: boolean },
  ) {
    const series = resolveSeries({ ...q, granularity: 'day' }, now());
    // Summed by local hour of the week in SQL, in each of the zone's offsets over the range: from
    // the quarter-hour rollups, each of whose quarters lies within one local hour in every zone.
    const runs = offsetRuns(series.from, series.to, series.zone);
    const plan: Plan = { series, grid: { width: QUARTER_MS, runs } };
    const range = rawRange(plan);
    const window = windowOf(series, q.include_bots);
    // As in the overview: the account's deleted codes being purged count no more.
    const [counts, gone] = await subtractingPurges(scope, (view, purging) =>
      Promise.all([
        sourceFor(plan, view).weekHours(scope, window, runs),
        purging && scope.kind === 'account' ? view.purging.weekHours(scope.accountId, window, runs) : [],
      ]),
    );
    const { cells, total } = countCells([...counts, ...gone.map((g) => ({ hour: g.hour, scans: -g.scans }))]);
    return {
      from: formatInstant(series.from, series.zone),
      to: formatInstant(series.to, series.zone),
      timezone: series.zone,
      include_bots: q.include_bots,
      total_scans: total,
      cells,
      ...range,
    };
  }

  async function codeOf(principal: Principal, codeId: string): Promise<Code> {
    const code = await codes.findById(principal.accountId, codeId);
    if (!code) throw notFound('code', codeId);
    return code;
  }

  return {
    /** One code's series (zero-filled) and breakdowns; 404 for codes of other accounts. */
    async codeScans(principal: Principal, codeId: string, q: AnalyticsQuery): Promise<CodeAnalytics> {
      const series = resolveSeries(q, now());
      const plan = planOf(series);
      const range = rawRange(plan);
      const code = await codeOf(principal, codeId);
      const scope: Scope = { kind: 'code', codeId };
      const source = sourceFor(plan);
      const counted = breakdownWindow(scope, plan, q.include_bots);
      const firstDay = Math.floor(series.from / DAY_MS) * DAY_MS;
      const [lockedViews, { counts, total }, ...breakdowns] = await Promise.all([
        deps.lockedViews?.(codeId, firstDay, Math.ceil(series.to / DAY_MS) * DAY_MS, q.include_bots) ?? 0,
        periodCounts(scope, plan, q.include_bots),
        ...CODE_DIMENSIONS.map((d) => source.breakdown(scope, d, counted, q.top)),
      ]);
      const named = Object.fromEntries(
        CODE_DIMENSIONS.map((d, i) => [d, breakdowns[i]!]),
      ) as CodeAnalytics['breakdowns'];
      named.rule = named.rule.map((c) => ({ value: c.value ?? DEFAULT_RULE, scans: c.scans }));
      return {
        code_id: codeId,
        from: formatInstant(series.from, series.zone),
        to: formatInstant(series.to, series.zone),
        granularity: series.granularity,
        timezone: series.zone,
        include_bots: q.include_bots,
        ...range,
        ...breakdownsRange(counted, series.zone),
        total_scans: total.scans,
        unique_scans: total.unique,
        imported_scans: code.importedScans,
        locked_views: lockedViews,
        timeseries: counts,
        breakdowns: named,
      };
    },

    /**
     * Account-wide totals, trend, top codes and breakdowns, with the period before for
     * comparison; with `tag`, of the codes carrying that tag at the time of the query.
     */
    async overview(principal: Principal, q: OverviewQuery): Promise<Overview> {
      const series = resolveSeries(q, now());
      const plan = planOf(series);
      const previous = planOf(previousSeries(series));
      const range = rawRange(plan);
      const { accountId } = principal;
      const tag = q.tag;
      const only = tag === undefined ? undefined : () => taggedCodes(accountId, tag);
      const tagId = tag === undefined ? null : await tagIdOf(accountId, tag);
      const scope: Scope = only
        ? { kind: 'codes', accountId, codeIds: only, ...(tagId === null ? {} : { tagId }) }
        : { kind: 'account', accountId };
      const window = windowOf(series, q.include_bots);
      const counted = breakdownWindow(scope, plan, q.include_bots);
      // Deleted codes being purged count no more: what is left of them is subtracted (a tag's
      // codes are existing ones, so only the whole account's answers need it).
      const gather = (view: SourceView, minus: boolean) => {
        const source = sourceFor(plan, view);
        const without = (p: Plan) =>
          minus ? view.purging.buckets(accountId, windowOf(p.series, q.include_bots), p.grid) : Promise.resolve([]);
        const breakdown = async (d: AccountDimension): Promise<ValueCount[]> => {
          if (!minus) return source.breakdown(scope, d, counted, q.top);
          const [all, gone] = await Promise.all([
            source.breakdown(scope, d, counted, ALL_VALUES),
            view.purging.values(accountId, DIMENSION_COLUMNS[d], window),
          ]);
          const left = rankValues([...all, ...gone.map((g) => ({ value: g.value, scans: -g.scans }))], ALL_VALUES);
          return rankValues(
            left.filter((c) => c.scans > 0),
            q.top,
          );
        };
        return Promise.all([
          without(plan).then((gone) => periodCounts(scope, plan, q.include_bots, gone, view)),
          without(previous).then((gone) => periodCounts(scope, previous, q.include_bots, gone, view)),
          source.codeRanking(accountId, window, q.top_codes ?? q.top, only),
          ...ACCOUNT_BREAKDOWNS.map(breakdown),
        ]);
      };
      // The codes table is no part of the snapshot: a purge does not change it.
      const [totalCodes, [current, before, ranking, ...breakdowns]] = await Promise.all([
        codes.countForAccount(accountId, only?.()),
        subtractingPurges(scope, gather),
      ]);
      const byId = new Map(
        (
          await codes.findManyByIds(
            principal.accountId,
            ranking.top.map((t) => t.codeId),
          )
        ).map((c) => [c.id, c]),
      );
      const prior = before.total.scans;
      return {
        from: formatInstant(series.from, series.zone),
        to: formatInstant(series.to, series.zone),
        granularity: series.granularity,
        timezone: series.zone,
        include_bots: q.include_bots,
        ...range,
        ...breakdownsRange(counted, series.zone),
        total_scans: current.total.scans,
        unique_scans: current.total.unique,
        total_codes: totalCodes,
        active_codes: ranking.active,
        // A code deleted between the two queries drops out rather than showing without content.
        top_codes: ranking.top.flatMap((t) => {
          const code = byId.get(t.codeId);
          return code ? [{ id: code.id, name: code.name, type: code.type, content: code.content, scans: t.scans }] : [];
        }),
        trend: current.counts,
        previous_period: {
          from: formatInstant(previous.series.from, previous.series.zone),
          to: formatInstant(previous.series.to, previous.series.zone),
          total_scans: prior,
          change_pct: prior === 0 ? null : Math.round(((current.total.scans - prior) / prior) * 1000) / 10,
        },
        breakdowns: Object.fromEntries(ACCOUNT_BREAKDOWNS.map((d, i) => [d, breakdowns[i]!])) as Overview['breakdowns'],
      };
    },

    /** One code's scans by weekday and hour in the query's zone; 404 for codes of other accounts. */
    async codeWeekdayHours(principal: Principal, codeId: string, q: WeekdayHoursQuery): Promise<WeekdayHours> {
      await codeOf(principal, codeId);
      return { code_id: codeId, ...(await weekdayHours({ kind: 'code', codeId }, q)) };
    },

    /** The account's scans (or a tag's codes') by weekday and hour in the query's zone. */
    async overviewWeekdayHours(principal: Principal, q: OverviewWeekdayHoursQuery): Promise<WeekdayHours> {
      const { accountId } = principal;
      const tag = q.tag;
      const scope: Scope =
        tag === undefined
          ? { kind: 'account', accountId }
          : { kind: 'codes', accountId, codeIds: () => taggedCodes(accountId, tag) };
      return weekdayHours(scope, q);
    },

    /**
     * Totals of several of the caller's codes over one window, in one query per source (DataLoader's
     * batch function). The rollups answer any window: its whole quarters from them, the minutes at
     * its edges from raw scans. Codes of other accounts count nothing: the queries are scoped by
     * account.
     */
    async totalsByCode(principal: Principal, codeIds: readonly string[], window: Window): Promise<CodeTotals[]> {
      // Where the raw scans it reads start: the window's (raw only), or its minutes off whole quarters.
      const offQuarter = (t: number | null) => t !== null && t % QUARTER_MS !== 0;
      const rawStarts = rawOnly
        ? [window.from]
        : [
            ...(offQuarter(window.from) ? [window.from] : []),
            ...(offQuarter(window.to) ? [window.to! - (window.to! % QUARTER_MS)] : []),
          ];
      if (rawStarts.some((start) => !horizon.covers(start))) {
        throw horizon.refusal(
          'a window not on whole quarter hours needs them',
          'give from and to on whole quarter hours',
        );
      }
      const totals = await (rawOnly ? raw : rollups).totalsByCode(principal.accountId, codeIds, window);
      return codeIds.map((id) => totals.get(id) ?? { scans: 0, unique: 0 });
    },
  };
}

export type AnalyticsService = ReturnType<typeof createAnalyticsService>;
