// The cost of an operation, counted with its variables: lists count once per item they may
// return, renders count RENDER_COST each. Numbers worked out by hand from the rules in cost.ts:
// an object field 2, a scalar 1, svg 250, a paged field times its page size (50 unless given).
import { parse } from 'graphql';
import { describe, expect, it } from 'vitest';
import { operationCost, RENDER_COST } from '../../src/graphql/cost.ts';
import { schema } from '../../src/api/graphql-schema.ts';

const cost = (query: string, variableValues: Record<string, unknown> = {}, operationName?: string) =>
  operationCost({ schema, document: parse(query), variableValues, operationName });

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
});
