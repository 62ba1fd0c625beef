// One code's scans in a range: totals, the series, and every breakdown the API keeps per code.
import { AfterPaint } from '../components/after-paint.tsx';
import { ErrorBox, Loading } from '../components/messages.tsx';
import { describeContent, formatCount } from '../format.ts';
import { useQuery } from '../use-query.ts';
import { useT } from '../i18n/index.ts';
import { Breakdowns, StatTiles, type ValueCount } from './breakdowns.tsx';
import { rangeVariables, type Range } from './range.ts';
import { ScansChart, type PeriodCount } from './scans-chart.tsx';
import { WEEKDAY_HOURS_FIELDS } from './queries.ts';
import { WeekdayHours, type WeekdayHourCount } from './weekday-hours.tsx';
import { WorldMap } from './world-map.tsx';
import { NoScansYet } from './no-scans.tsx';

// One query for the page: 100 values per breakdown (the API's most) for the map, of which the
// tables show the first TOP_SHOWN; the weekday x hour cells beside.
const CODE_SCANS = `query CodeScans(
  $id: ID!, $from: String, $to: String, $granularity: AnalyticsGranularity, $timezone: String
) {
  code(id: $id) {
    id type content name scanUrl routing { rules { ruleId condition } }
    scans(from: $from, to: $to, granularity: $granularity, timezone: $timezone, top: 100) {
      totalScans uniqueScans
      timeseries { period scans uniqueScans }
      breakdowns {
        country { value scans } region { value scans } city { value scans }
        device { value scans } os { value scans } browser { value scans }
        referrer { value scans } language { value scans } rule { value scans }
      }
    }
    scanWeekdayHours(from: $from, to: $to, timezone: $timezone) { ${WEEKDAY_HOURS_FIELDS} }
  }
}`;

interface CodeScans {
  id: string;
  type: string;
  content: unknown;
  name: string | null;
  scanUrl: string | null;
  routing: { rules: { ruleId: string; condition: string }[] };
  scans: {
    totalScans: number;
    uniqueScans: number;
    timeseries: PeriodCount[];
    breakdowns: Record<string, ValueCount[]>;
  };
  scanWeekdayHours: { cells: WeekdayHourCount[] };
}

export function CodeAnalytics({ id, range }: { id: string; range: Range }) {
  const t = useT();
  const { data, error, loading } = useQuery<{ code: CodeScans | null }>(CODE_SCANS, { id, ...rangeVariables(range) });
  if (error) return <ErrorBox error={error} />;
  if (!data) return <Loading what={t.analytics.loading} />;
  const code = data.code;
  if (!code) return <ErrorBox error={t.analytics.noSuchCode(id)} />;
  return (
    <div aria-busy={loading}>
      {code.name && <h2 class="code-name">{code.name}</h2>}
      <p class="content-cell">
        {describeContent(code.type, code.content)}
        {code.scanUrl ? t.analytics.scannedAt(<code>{code.scanUrl}</code>) : t.analytics.staticCode}
      </p>
      {code.scanUrl && code.scans.totalScans === 0 && <NoScansYet what={t.analytics.thisCode} />}
      <StatTiles
        stats={[
          [t.analytics.stats.scans, formatCount(code.scans.totalScans), 'total-scans'],
          [t.analytics.stats.uniqueScans, formatCount(code.scans.uniqueScans), 'unique-scans'],
        ]}
      />
      <ScansChart
        series={code.scans.timeseries}
        granularity={range.granularity}
        timezone={range.timezone}
        range={range}
      />
      <h2>{t.analytics.whereAndWhen}</h2>
      {/* Below the fold on a phone: each a task of its own after the numbers above are painted. */}
      <AfterPaint>
        <WorldMap countries={code.scans.breakdowns.country ?? []} range={range} />
      </AfterPaint>
      <AfterPaint>
        <WeekdayHours cells={code.scanWeekdayHours.cells} range={range} />
      </AfterPaint>
      <AfterPaint>
        <Breakdowns
          breakdowns={code.scans.breakdowns}
          range={range}
          ruleNames={Object.fromEntries(code.routing.rules.map((r) => [r.ruleId, t.analytics.rule(r.condition)]))}
        />
      </AfterPaint>
    </div>
  );
}
