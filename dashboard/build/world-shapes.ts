// The world map's country shapes, projected at build time: vite.config.ts serves them as the
// module `virtual:world-shapes`, so the browser gets finished SVG paths instead of decoding the
// TopoJSON and projecting 177 countries on its main thread (a long task that cost the analytics
// page most of its Lighthouse performance score on a throttled phone). Natural Earth's 1:110m
// countries from the world-atlas package (TopoJSON, ISC; the data is public domain), turned into
// GeoJSON by topojson-client and projected with d3-geo's Equal Earth projection (both ISC).
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { geoEqualEarth, geoPath } from 'd3-geo';
import countries from 'i18n-iso-countries';
import { feature } from 'topojson-client';
import type { GeometryCollection, Topology } from 'topojson-specification';

export const WIDTH = 960;
export const HEIGHT = 470;

/**
 * The source of `virtual:world-shapes` (its types: dashboard/src/world-shapes.d.ts): WIDTH,
 * HEIGHT, the sphere's outline and every country's shape.
 */
export function worldShapesModule(): string {
  const atlasFile = createRequire(import.meta.url).resolve('world-atlas/countries-110m.json');
  const topology = JSON.parse(readFileSync(atlasFile, 'utf8')) as Topology<{
    countries: GeometryCollection<{ name: string }>;
  }>;
  const projection = geoEqualEarth().fitExtent(
    [
      [2, 2],
      [WIDTH - 2, HEIGHT - 2],
    ],
    { type: 'Sphere' },
  );
  // One decimal of a 960-pixel-wide map is finer than any screen shows it.
  const draw = geoPath(projection).digits(1);
  const shapes = feature(topology, topology.objects.countries).features.map((f) => ({
    // world-atlas names countries by ISO 3166-1 numeric id ("276" is Germany).
    code: f.id === undefined ? null : (countries.numericToAlpha2(String(f.id)) ?? null),
    name: f.properties.name,
    path: draw(f) ?? '',
  }));
  return [
    `export const WIDTH = ${WIDTH};`,
    `export const HEIGHT = ${HEIGHT};`,
    `export const outline = ${JSON.stringify(draw({ type: 'Sphere' }) ?? '')};`,
    `export const shapes = ${JSON.stringify(shapes)};`,
  ].join('\n');
}
