// The cost of an operation, counted with its variables: lists count once per item they may
// return, renders count RENDER_COST each. Numbers worked out by hand from the rules in cost.ts:
// an object field 2, a scalar 1, svg 250, a paged field times its page size (50 unless given).
// Its points: a root field 1, a priced field its price per item it runs for, a batched one once.
import { parse } from 'graphql';
import { describe, expect, it } from 'vitest';
import { operationCost, RENDER_COST } from '../../src/graphql/cost.ts';
import {
  CODE_COUNT_POINTS,
  CODE_SCANS_POINTS,
  OVERVIEW_POINTS,
  WEEKDAY_HOURS_POINTS,
} from '../../src/modules/analytics/prices.ts';
import { schema } from '../../src/api/graphql-schema.ts';

const priced = (query: string, variableValues: Record<string, unknown> = {}, operationName?: string) =>
  operationCost({ schema, document: parse(query), variableValues, operationName });
const cost = (...args: Parameters<typeof priced>) => priced(...args).cost;
const points = (...args: Parameters<typeof priced>) => priced(...args).points;

describe('operationCost', () => {
  it('multiplies a paged list by its page size', () => {
    // codes: (2 + edges (2 + node (2 + id 1 + content 1))) x 500
    expect(cost('{ codes(first: 500) { edges { node { id content } } } }')).toBe(500 * 8);
  });

  it('counts svg in a 500-item list as 500 renders', () => {
    expect(cost('{ codes(first: 500) { edges { node { svg(size: 4096) } } } }')).toBe(500 * (2 + 2 + 2 + RENDER_COST));
    const aliases = Array.from({ length: 56 }, (_, i) => `a${i}: svg(size: 4096)`).join(' ');
    expect(cost(`{ codes(first: 500) { edges { node { ${aliases} } } } }`)).toBe(500 * (2 + 2 + 2 + 56 * RENDER_COST));
  });

  it('takes the page size from variables, and the default page without one', () => {
    const query = 'query ($n: Int) { codes(first: $n) { edges { node { svg } } } }';
    expect(cost(query, { n: 20 })).toBe(20 * (6 + RENDER_COST));
    expect(cost(query)).toBe(50 * (6 + RENDER_COST));
  });

  it('counts through fragments and inline fragments, and picks the named operation', () => {
    const document = `
      fragment Pic on Code { svg }
      query One { codes(first: 10) { edges { node { ...Pic ... on Code { id } } } } }
      query Two { codes(first: 2) { edges { node { id } } } }`;
    expect(cost(document, {}, 'One')).toBe(10 * (6 + RENDER_COST + 1));
    expect(cost(document, {}, 'Two')).toBe(2 * 7);
  });

  it('leaves introspection out', () => {
    expect(cost('{ __schema { types { name } } }')).toBe(0);
  });

  it('charges a root field one point, whatever its page size, and any operation at least one', () => {
    expect(points('{ codes(first: 500) { edges { node { id content tags } } } }')).toBe(1);
    expect(
      points(
        '{ a: codes { edges { node { id } } } b: tags { edges { node { id } } } webhooks { edges { node { id } } } }',
      ),
    ).toBe(3);
    expect(points('{ __typename }')).toBe(1);
    expect(points('mutation { a: deleteCode(id: "x") { deleted } b: deleteCode(id: "y") { deleted } }')).toBe(2);
  });

  it('prices analytics by their work, per code in a list, and batched counts once', () => {
    expect(points('{ analyticsOverview(top: 1) { totalScans } }')).toBe(OVERVIEW_POINTS);
    const aliases = Array.from({ length: 1500 }, (_, i) => `a${i}: analyticsOverview(top: 1) { totalScans }`);
    expect(points(`{ ${aliases.join(' ')} }`)).toBe(1500 * OVERVIEW_POINTS);
    expect(points('{ analyticsWeekdayHours { totalScans } }')).toBe(WEEKDAY_HOURS_POINTS);
    // One query for the page, then a series and cells per code.
    expect(
      points('{ codes(first: 20) { edges { node { scans { totalScans } scanWeekdayHours { totalScans } } } } }'),
    ).toBe(1 + 20 * (CODE_SCANS_POINTS + WEEKDAY_HOURS_POINTS));
    // The DataLoader answers every code's counts with one query per field.
    expect(points('{ codes(first: 100) { edges { node { scanCount uniqueScanCount } } } }')).toBe(
      1 + 2 * CODE_COUNT_POINTS,
    );
  });

  it('charges a render per image and a query per item that needs one', () => {
    expect(points('query ($n: Int) { codes(first: $n) { edges { node { svg } } } }', { n: 40 })).toBe(1 + 40);
    expect(
      points('{ webhooks(first: 10) { edges { node { deliveries(first: 20) { edges { node { eventData } } } } } } }'),
    ).toBe(1 + 10 * (1 + 20));
  });
});
