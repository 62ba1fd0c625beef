// The account's scans in a range: totals against the period before, the trend, the top codes,
// and where the scans came from (country, device, OS, browser, referrer).
import { useState } from 'preact/hooks';
import { AfterPaint } from '../components/after-paint.tsx';
import { Link } from '../components/link.tsx';
import { ErrorBox, Loading } from '../components/messages.tsx';
import { codeTitle, describeContent, formatCount } from '../format.ts';
import { useT, type Messages } from '../i18n/index.ts';
import { useQuery } from '../use-query.ts';
import { Breakdowns, StatTiles, type ValueCount } from './breakdowns.tsx';
import { rangeVariables, type Range } from './range.ts';
import { ScansChart, type PeriodCount } from './scans-chart.tsx';
import { ACCOUNT_OVERVIEW_QUERY } from './queries.ts';
import { WeekdayHours, type WeekdayHourCount } from './weekday-hours.tsx';
import { WorldMap } from './world-map.tsx';
import { ScrollRegion } from '../components/scroll-region.tsx';
import { NoScansYet } from './no-scans.tsx';
import { TagFilter } from './tag-filter.tsx';

interface Overview {
  totalScans: number;
  uniqueScans: number;
  totalCodes: number;
  activeCodes: number;
  previousPeriod: { totalScans: number; changePct: number | null };
  trend: PeriodCount[];
  topCodes: { id: string; name: string | null; type: string; content: unknown; scans: number }[];
  breakdowns: Record<'country' | 'region' | 'city' | 'device' | 'os' | 'browser' | 'referrer', ValueCount[]>;
}

/**
 * This range against the same length just before. The API's percentage is null when the period
 * before had no scans (a new account, a new campaign): then the difference in scans says it.
 */
function change(t: Messages, scans: number, before: { totalScans: number; changePct: number | null }): string {
  const words = t.analytics.stats;
  if (before.changePct !== null) return words.changeBy(before.changePct, before.totalScans);
  return scans === 0 ? words.noScansInEither : words.noneBefore(scans);
}

export function AccountAnalytics({ range }: { range: Range }) {
  const t = useT();
  // '' = every code of the account.
  const [tag, setTag] = useState('');
  const { data, error, loading } = useQuery<{
    analyticsOverview: Overview;
    analyticsWeekdayHours: { cells: WeekdayHourCount[] };
  }>(ACCOUNT_OVERVIEW_QUERY, { ...rangeVariables(range), tag: tag || null });
  const filter = <TagFilter tag={tag} onChange={setTag} />;
  if (error)
    return (
      <>
        {filter}
        <ErrorBox error={error} />
      </>
    );
  if (!data) return <Loading what={t.analytics.loading} />;
  const o = data.analyticsOverview;
  const words = t.analytics.stats;
  return (
    <div aria-busy={loading}>
      {filter}
      {o.totalScans === 0 && <NoScansYet what={tag ? t.analytics.codesTagged(tag) : t.analytics.yourCodes} />}
      <StatTiles
        stats={[
          [words.scans, formatCount(o.totalScans), 'total-scans'],
          [words.uniqueScans, formatCount(o.uniqueScans), 'unique-scans'],
          [words.codesScanned, words.ofCodes(o.activeCodes, o.totalCodes), 'active-codes'],
          [words.change, change(t, o.totalScans, o.previousPeriod), 'change'],
        ]}
      />
      <ScansChart series={o.trend} granularity={range.granularity} timezone={range.timezone} range={range} />
      <section class="top-codes">
        <h2>{t.analytics.topCodes}</h2>
        {o.topCodes.length === 0 ? (
          <p class="empty">{t.analytics.noCodeScanned}</p>
        ) : (
          <ScrollRegion label={t.analytics.topCodesTable}>
            <table>
              <thead>
                <tr>
                  <th>{t.analytics.columns.code}</th>
                  <th>{t.analytics.columns.content}</th>
                  <th class="number">{t.analytics.columns.scans}</th>
                </tr>
              </thead>
              <tbody>
                {o.topCodes.map((c) => (
                  <tr key={c.id}>
                    <td>
                      <Link to={`/codes/${c.id}/analytics`}>{codeTitle(c)}</Link>
                    </td>
                    <td class="content-cell">{describeContent(c.type, c.content)}</td>
                    <td class="number">{formatCount(c.scans)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </ScrollRegion>
        )}
      </section>
      <h2>{t.analytics.whereAndWhen}</h2>
      {/* Below the fold: each a task of its own after the numbers above are painted. */}
      <AfterPaint>
        <WorldMap countries={o.breakdowns.country} range={range} />
      </AfterPaint>
      <AfterPaint>
        <WeekdayHours cells={data.analyticsWeekdayHours.cells} range={range} />
      </AfterPaint>
      <AfterPaint>
        <Breakdowns breakdowns={o.breakdowns} range={range} />
      </AfterPaint>
    </div>
  );
}
