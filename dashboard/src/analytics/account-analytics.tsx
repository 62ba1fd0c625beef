// The account's scans in a range: totals against the period before, the trend, the top codes,
// and where the scans came from (country, device, OS, browser, referrer).
import { Link } from '../components/link.tsx';
import { ErrorBox, Loading } from '../components/messages.tsx';
import { describeContent, formatCount } from '../format.ts';
import { useQuery } from '../use-query.ts';
import { Breakdowns, StatTiles, type ValueCount } from './breakdowns.tsx';
import { rangeVariables, type Range } from './range.ts';
import { ScansChart, type PeriodCount } from './scans-chart.tsx';
import { ACCOUNT_OVERVIEW_QUERY } from './queries.ts';
import { WeekdayHours, type WeekdayHourCount } from './weekday-hours.tsx';
import { WorldMap } from './world-map.tsx';

interface Overview {
  totalScans: number;
  uniqueScans: number;
  totalCodes: number;
  activeCodes: number;
  previousPeriod: { totalScans: number; changePct: number | null };
  trend: PeriodCount[];
  topCodes: { id: string; type: string; content: unknown; scans: number }[];
  breakdowns: Record<'country' | 'region' | 'city' | 'device' | 'os' | 'browser' | 'referrer', ValueCount[]>;
}

const change = (pct: number | null) => (pct === null ? 'n/a' : `${pct > 0 ? '+' : ''}${pct}%`);

export function AccountAnalytics({ range }: { range: Range }) {
  const { data, error, loading } = useQuery<{
    analyticsOverview: Overview;
    analyticsWeekdayHours: { cells: WeekdayHourCount[] };
  }>(ACCOUNT_OVERVIEW_QUERY, rangeVariables(range));
  if (error) return <ErrorBox error={error} />;
  if (!data) return <Loading what="analytics" />;
  const o = data.analyticsOverview;
  return (
    <div aria-busy={loading}>
      <StatTiles
        stats={[
          ['Scans', formatCount(o.totalScans), 'total-scans'],
          ['Unique scans', formatCount(o.uniqueScans), 'unique-scans'],
          ['Codes scanned', `${formatCount(o.activeCodes)} of ${formatCount(o.totalCodes)}`, 'active-codes'],
          ['Against the period before', change(o.previousPeriod.changePct), 'change'],
        ]}
      />
      <ScansChart series={o.trend} granularity={range.granularity} timezone={range.timezone} range={range} />
      <section class="top-codes">
        <h2>Top codes</h2>
        {o.topCodes.length === 0 ? (
          <p class="empty">No code was scanned in this range.</p>
        ) : (
          <table>
            <thead>
              <tr>
                <th>Code</th>
                <th>Content</th>
                <th class="number">Scans</th>
              </tr>
            </thead>
            <tbody>
              {o.topCodes.map((c) => (
                <tr key={c.id}>
                  <td>
                    <Link to={`/codes/${c.id}/analytics`}>{c.id}</Link>
                  </td>
                  <td class="content-cell">{describeContent(c.type, c.content)}</td>
                  <td class="number">{formatCount(c.scans)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </section>
      <h2>Where and when scans came</h2>
      <WorldMap countries={o.breakdowns.country} range={range} />
      <WeekdayHours cells={data.analyticsWeekdayHours.cells} range={range} />
      <Breakdowns breakdowns={o.breakdowns} range={range} />
    </div>
  );
}
