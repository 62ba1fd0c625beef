// Scans by weekday and hour of the day in the range picker's zone: a 7 x 24 grid whose shade
// follows the count, each cell titled with its numbers, and the grid's numbers as CSV. The grid
// (168 cells, the longest render of the page's first seconds on a throttled phone) is drawn when
// it comes near the screen; its heading and CSV button are there from the start.
import { useRef } from 'preact/hooks';
import { useNearScreen } from '../components/near-screen.ts';
import { ScrollRegion } from '../components/scroll-region.tsx';
import { formatCount, weekdayNames } from '../format.ts';
import { useT } from '../i18n/index.ts';
import { CsvButton, csvName } from './csv.tsx';
import type { Range } from './range.ts';

export interface WeekdayHourCount {
  /** ISO weekday, 1 Monday to 7 Sunday. */
  weekday: number;
  hour: number;
  scans: number;
}

const HOURS = Array.from({ length: 24 }, (_, h) => h);
const hh = (h: number) => String(h).padStart(2, '0');

/** The accent blue, from clear for no scans to solid for the busiest hour. */
const shade = (scans: number, max: number) =>
  scans === 0 ? 'transparent' : `rgba(37, 99, 235, ${(0.15 + (0.85 * scans) / max).toFixed(3)})`;

export function WeekdayHours({ cells, range }: { cells: WeekdayHourCount[]; range: Range }) {
  const t = useT();
  const words = t.analytics.weekdayHours;
  const weekdays = weekdayNames('long');
  const short = weekdayNames('short');
  const count = new Map(cells.map((c) => [`${c.weekday}/${c.hour}`, c.scans]));
  const max = Math.max(1, ...cells.map((c) => c.scans));
  const at = (weekday: number, hour: number) => count.get(`${weekday}/${hour}`) ?? 0;
  const box = useRef<HTMLDivElement>(null);
  const near = useNearScreen(box);
  return (
    <figure class="chart weekday-hours">
      <div class="chart-head">
        <h3>{words.title(range.timezone)}</h3>
        <CsvButton
          label={words.csv}
          filename={csvName('scans-by-weekday-hour', range.from, range.to)}
          rows={() => [
            [`weekday (${range.timezone})`, `hour (${range.timezone})`, `scans (${range.from} to ${range.to})`],
            ...weekdays.flatMap((day, d) => HOURS.map((h) => [day, `${hh(h)}:00`, at(d + 1, h)])),
          ]}
        />
      </div>
      {/* Hour labels need room: on a narrow screen the grid scrolls inside its box. */}
      {!near ? (
        <div class="heatmap-box" ref={box} />
      ) : (
        <ScrollRegion label={words.grid}>
          <table class="heatmap" aria-label={words.table(range.timezone)}>
            <thead>
              <tr>
                <th />
                {HOURS.map((h) => (
                  <th key={h} scope="col">
                    {hh(h)}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {weekdays.map((day, d) => (
                <tr key={d}>
                  <th scope="row">{short[d]}</th>
                  {HOURS.map((h) => {
                    const n = at(d + 1, h);
                    return (
                      <td
                        key={h}
                        data-weekday={d + 1}
                        data-hour={h}
                        data-scans={n}
                        style={{ background: shade(n, max) }}
                        title={words.cell(day, `${hh(h)}:00–${hh(h)}:59`, n)}
                      >
                        <span class="visually-hidden">{formatCount(n)}</span>
                      </td>
                    );
                  })}
                </tr>
              ))}
            </tbody>
          </table>
        </ScrollRegion>
      )}
    </figure>
  );
}
