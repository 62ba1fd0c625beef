// Only the GraphiQL page goes without a credential: every operation, over GET or POST and
// whatever the Accept header, needs a key or token, with GraphiQL on (development) and off.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getTestApp, type TestApp } from '../support/app.ts';

const ACCEPTS = [
  undefined,
  '*/*',
  'text/*',
  'application/json',
  'application/graphql-response+json',
  'application/json;q=0.9, */*;q=0.8',
  'text/plain',
];
const INTROSPECTION = '{__schema{queryType{name}}}';
const CODES = '{codes{edges{node{id}}}}';

for (const [environment, graphiql] of [
  ['development', true],
  ['production', false],
] as const) {
  describe(`GraphQL without a credential, NODE_ENV=${environment}`, () => {
    let app: TestApp;
    beforeAll(async () => {
      app = await getTestApp({ NODE_ENV: environment, GRAPHQL_INTROSPECTION: 'true' });
    });
    afterAll(() => app.close());

    const get = (query: string, accept?: string) =>
      fetch(`${app.url}/graphql?query=${encodeURIComponent(query)}`, {
        headers: accept === undefined ? {} : { accept },
      });

    it.each(ACCEPTS.map((accept) => [accept ?? '(none)', accept]))(
      'GET with Accept %s is a 401 and runs nothing',
      async (_label, accept) => {
        for (const query of [INTROSPECTION, CODES]) {
          const res = await get(query, accept);
          expect(res.status, `${query} ${accept}`).toBe(401);
          const body = await res.text();
          expect(body).not.toContain('queryType');
          expect(res.headers.get('content-type')).toContain('application/problem+json');
        }
      },
    );

    it.each(ACCEPTS.map((accept) => [accept ?? '(none)', accept]))(
      'POST with Accept %s is a 401',
      async (_label, accept) => {
        const res = await fetch(`${app.url}/graphql`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', ...(accept === undefined ? {} : { accept }) },
          body: JSON.stringify({ query: INTROSPECTION }),
        });
        expect(res.status).toBe(401);
        expect(await res.text()).not.toContain('queryType');
      },
    );

    it(`a browser (Accept: text/html) gets ${graphiql ? 'a GraphiQL page that runs nothing' : 'a 401'}`, async () => {
      const accept = 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8';
      for (const url of [`${app.url}/graphql`, `${app.url}/graphql?query=${encodeURIComponent(INTROSPECTION)}`]) {
        const res = await fetch(url, { headers: { accept } });
        const body = await res.text();
        if (graphiql) {
          expect(res.status).toBe(200);
          expect(res.headers.get('content-type')).toContain('text/html');
          expect(body).toContain('GraphiQL');
          expect(body).not.toContain('"queryType"');
        } else {
          expect(res.status).toBe(401);
        }
      }
    });
  });
}
