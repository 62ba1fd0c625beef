// Scans by country on a world map: a choropleth of the country breakdown, drawn from bundled
// shapes (world-shapes.ts, loaded when the map first comes near the screen), with a legend, a
// title per country for hover, and the scans the map cannot show (unknown country, countries too
// small for the 1:110m shapes) counted beside it. The map is a picture to screen readers (its
// label); the country breakdown below lists the same numbers.
import { useEffect, useRef, useState } from 'preact/hooks';
import { useNearScreen } from '../components/near-screen.ts';
import { countryName, formatCount } from '../format.ts';
import { useT } from '../i18n/index.ts';
import type { ValueCount } from './breakdowns.tsx';
import { CsvButton, csvName } from './csv.tsx';
import type { Range } from './range.ts';

type Shapes = typeof import('./world-shapes.ts');

/** Light to dark blue, the dashboard's accent; countries without scans stay grey. */
export const SCALE = ['#dbeafe', '#93c5fd', '#3b82f6', '#1d4ed8', '#1e3a8a'];
export const NO_SCANS = '#e5e7eb';

/** Upper bounds of the scale's steps, whole numbers rising to max (fewer steps for small counts). */
function steps(max: number): number[] {
  const bounds: number[] = [];
  for (let i = 1; i <= SCALE.length; i++) {
    const bound = Math.ceil((max * i) / SCALE.length);
    if (bound > (bounds.at(-1) ?? 0)) bounds.push(bound);
  }
  return bounds;
}

export function WorldMap({ countries, range }: { countries: ValueCount[]; range: Range }) {
  const t = useT();
  const words = t.analytics.map;
  const [shapes, setShapes] = useState<Shapes | null>(null);
  const [failed, setFailed] = useState(false);
  // The shapes (45 kB gzip, 177 paths to draw) wait until the map nears the screen: on a phone it
  // is far below the numbers, and drawing it cost the page's first seconds most of a long task.
  const box = useRef<HTMLDivElement>(null);
  const near = useNearScreen(box);
  useEffect(() => {
    if (near) import('./world-shapes.ts').then(setShapes, () => setFailed(true));
  }, [near]);

  const scans = new Map(countries.flatMap((c) => (c.value === null ? [] : [[c.value, c.scans] as const])));
  const unknown = countries.find((c) => c.value === null)?.scans ?? 0;
  const bounds = steps(Math.max(0, ...scans.values()));
  const colour = (n: number) =>
    n === 0 ? NO_SCANS : SCALE[SCALE.length - bounds.length + bounds.findIndex((b) => n <= b)]!;
  const drawn = new Set(shapes?.shapes.map((s) => s.code));
  // Which countries the shapes cannot show is known once they are here.
  const offMap = shapes ? countries.filter((c) => c.value !== null && !drawn.has(c.value)) : [];
  const span = words.span(range.from, range.to, range.timezone);

  return (
    <figure class="chart world-map">
      <div class="chart-head">
        <h3>{words.title}</h3>
        <CsvButton
          label={words.title}
          filename={csvName('scans-by-country', range.from, range.to)}
          rows={() => [
            ['country', 'name', `scans (${span})`],
            ...countries.map((c) => [
              c.value ?? '',
              c.value === null ? t.values.unknown : countryName(c.value),
              c.scans,
            ]),
          ]}
        />
      </div>
      {failed ? (
        <p class="error-box">{words.notLoaded}</p>
      ) : !shapes ? (
        // The map's own size, so nothing moves when it is drawn.
        <div class="map map-box" ref={box}>
          {near && <p class="loading">{words.loading}</p>}
        </div>
      ) : (
        <svg class="map" viewBox={`0 0 ${shapes.WIDTH} ${shapes.HEIGHT}`} role="img" aria-label={words.label(span)}>
          <path class="sphere" d={shapes.outline} />
          {shapes.shapes.map((s, i) => {
            const n = (s.code && scans.get(s.code)) || 0;
            return (
              <path key={i} class="country" d={s.path} fill={colour(n)} data-country={s.code ?? ''} data-scans={n}>
                <title>{words.country(s.code ? countryName(s.code) : s.name, n)}</title>
              </path>
            );
          })}
        </svg>
      )}
      <figcaption>
        <ul class="legend" aria-label={words.scale}>
          <li>
            <span class="swatch" style={{ background: NO_SCANS }} /> {words.none}
          </li>
          {bounds.map((b, i) => (
            <li key={b}>
              <span class="swatch" style={{ background: SCALE[SCALE.length - bounds.length + i] }} />{' '}
              {formatCount(i === 0 ? 1 : bounds[i - 1]! + 1)}
              {b > (i === 0 ? 1 : bounds[i - 1]! + 1) ? `–${formatCount(b)}` : ''}
            </li>
          ))}
        </ul>
        <p class="off-map" data-unknown={unknown}>
          {words.unknownCountry(unknown)}
          {offMap.length > 0 && (
            <>
              {' '}
              · {words.notDrawn} {offMap.map((c) => `${countryName(c.value!)} ${formatCount(c.scans)}`).join(', ')}
            </>
          )}
        </p>
      </figcaption>
    </figure>
  );
}
