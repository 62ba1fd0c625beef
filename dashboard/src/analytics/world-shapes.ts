// The world's countries as SVG paths, loaded as a chunk of its own (import()) when a map is
// first drawn, so the first bundle does not carry the shapes. Natural Earth's 1:110m countries
// from the world-atlas package (TopoJSON, ISC; the data is public domain), turned into GeoJSON by
// topojson-client and projected with d3-geo's Equal Earth projection (both ISC).
import { geoEqualEarth, geoPath } from 'd3-geo';
import countries from 'i18n-iso-countries';
import { feature } from 'topojson-client';
import type { GeometryCollection, Topology } from 'topojson-specification';
import atlas from 'world-atlas/countries-110m.json';

export const WIDTH = 960;
export const HEIGHT = 470;

export interface CountryShape {
  /** ISO 3166-1 alpha-2, as scans record countries; null for the few shapes without one. */
  code: string | null;
  /** Natural Earth's name, for shapes without a code. */
  name: string;
  path: string;
}

const topology = atlas as unknown as Topology<{ countries: GeometryCollection<{ name: string }> }>;
const projection = geoEqualEarth().fitExtent(
  [
    [2, 2],
    [WIDTH - 2, HEIGHT - 2],
  ],
  { type: 'Sphere' },
);
const draw = geoPath(projection);

export const outline = draw({ type: 'Sphere' }) ?? '';

export const shapes: CountryShape[] = feature(topology, topology.objects.countries).features.map((f) => ({
  // world-atlas names countries by ISO 3166-1 numeric id ("276" is Germany).
  code: f.id === undefined ? null : (countries.numericToAlpha2(String(f.id)) ?? null),
  name: f.properties.name,
  path: draw(f) ?? '',
}));
