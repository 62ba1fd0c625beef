// Where the scans came from: one small table per dimension, most scans first, with a bar each.
import { breakdownLabel, formatCount } from '../format.ts';
import { useT } from '../i18n/index.ts';
import { CsvButton, csvName } from './csv.tsx';
import { TOP_SHOWN } from './queries.ts';
import type { Range } from './range.ts';

export interface ValueCount {
  value: string | null;
  scans: number;
}

/**
 * Known only with the service's city database (GEOIP_CITY_DB), which is off by default: hidden
 * when empty, and credited when shown (DB-IP City Lite, the documented database, is CC BY 4.0).
 */
const PLACES = new Set(['region', 'city']);

/** Rule ids read as their conditions; a rule removed since its scans keeps its id. */
export type RuleNames = Record<string, string>;

function Breakdown({
  dimension,
  counts: all,
  ruleNames,
  range,
}: {
  dimension: string;
  counts: ValueCount[];
  ruleNames: RuleNames;
  range: Range;
}) {
  const t = useT();
  const counts = all.slice(0, TOP_SHOWN);
  const max = Math.max(1, ...counts.map((c) => c.scans));
  const label = (c: ValueCount) =>
    (dimension === 'rule' && c.value && ruleNames[c.value]) || breakdownLabel(dimension, c.value);
  const title = t.analytics.breakdowns[dimension] ?? dimension;
  return (
    <section class="breakdown" data-dimension={dimension}>
      <div class="chart-head">
        <h3>{title}</h3>
        <CsvButton
          label={title}
          filename={csvName('scans-by', dimension, range.from, range.to)}
          rows={() => [
            [dimension, 'label', `scans (${range.from} to ${range.to}, ${range.timezone})`],
            ...counts.map((c) => [c.value, label(c), c.scans]),
          ]}
        />
      </div>
      {counts.length === 0 ? (
        <p class="empty">{t.analytics.noScansInRange}</p>
      ) : (
        <table>
          <tbody>
            {counts.map((c) => (
              <tr key={c.value ?? ''} data-value={c.value ?? ''}>
                <th scope="row">{label(c)}</th>
                <td class="bar">
                  <meter min={0} max={max} value={c.scans} />
                </td>
                <td class="number">{formatCount(c.scans)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {PLACES.has(dimension) && (
        <p class="attribution">
          <a href="https://db-ip.com">{t.analytics.attribution}</a>
        </p>
      )}
    </section>
  );
}

/** Every dimension of `breakdowns`, in the order given, each with its first TOP_SHOWN values. */
export function Breakdowns({
  breakdowns,
  range,
  ruleNames = {},
}: {
  breakdowns: Record<string, ValueCount[]>;
  range: Range;
  ruleNames?: RuleNames;
}) {
  return (
    <div class="breakdowns">
      {Object.entries(breakdowns)
        .filter(([dimension, counts]) => !PLACES.has(dimension) || counts.length > 0)
        .map(([dimension, counts]) => (
          <Breakdown key={dimension} dimension={dimension} counts={counts} ruleNames={ruleNames} range={range} />
        ))}
    </div>
  );
}

/** Headline numbers, e.g. [['Scans', 12, 'total-scans']]; the key names the tile for tests and styles. */
export function StatTiles({ stats }: { stats: [label: string, value: string, key: string][] }) {
  return (
    <dl class="stats">
      {stats.map(([label, value, key]) => (
        <div key={key} class="stat">
          <dt>{label}</dt>
          <dd data-stat={key}>{value}</dd>
        </div>
      ))}
    </dl>
  );
}
