// Where the scans came from: one small table per dimension, most scans first, with a bar each.
import { breakdownLabel, formatCount } from '../format.ts';

export interface ValueCount {
  value: string | null;
  scans: number;
}

const TITLES: Record<string, string> = {
  country: 'Countries',
  device: 'Devices',
  os: 'Operating systems',
  browser: 'Browsers',
  referrer: 'Referrers',
  language: 'Languages',
  rule: 'Routing rules',
};

/** Rule ids read as their conditions; a rule removed since its scans keeps its id. */
export type RuleNames = Record<string, string>;

function Breakdown({ dimension, counts, ruleNames }: { dimension: string; counts: ValueCount[]; ruleNames: RuleNames }) {
  const max = Math.max(1, ...counts.map((c) => c.scans));
  return (
    <section class="breakdown" data-dimension={dimension}>
      <h3>{TITLES[dimension] ?? dimension}</h3>
      {counts.length === 0 ? (
        <p class="empty">No scans in this range.</p>
      ) : (
        <table>
          <tbody>
            {counts.map((c) => (
              <tr key={c.value ?? ''} data-value={c.value ?? ''}>
                <th scope="row">{(dimension === 'rule' && c.value && ruleNames[c.value]) || breakdownLabel(dimension, c.value)}</th>
                <td class="bar">
                  <meter min={0} max={max} value={c.scans} />
                </td>
                <td class="number">{formatCount(c.scans)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}

/** Every dimension of `breakdowns`, in the order given. */
export function Breakdowns({ breakdowns, ruleNames = {} }: { breakdowns: Record<string, ValueCount[]>; ruleNames?: RuleNames }) {
  return (
    <div class="breakdowns">
      {Object.entries(breakdowns).map(([dimension, counts]) => (
        <Breakdown key={dimension} dimension={dimension} counts={counts} ruleNames={ruleNames} />
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
