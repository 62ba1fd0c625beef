// GraphQL over HTTP at /graphql. First the conformance audits that graphql-http ships, each one a
// test, against the running service on loopback with introspection off (production's default)
// and on: no audit may fail, and an audit that warns (a SHOULD) or notes (a MAY) must be one
// docs/graphql.md explains, listed here as well. Then what the audits leave open: GET and POST
// only, a POST body only as JSON in UTF-8, answers only in the media types yoga serves; anything
// else is a problem+json (405, 415, 406) before the operation runs, so a refused mutation
// changes nothing.
import { serverAudits, type AuditResult } from 'graphql-http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getTestApp, type TestApp } from '../support/app.ts';
import { countCodes } from '../support/factories.ts';

/** Audits the service answers otherwise than they recommend, by id, as docs/graphql.md lists them. */
const EXPLAINED: Record<string, 'warn' | 'notice'> = {};

interface Target {
  app: TestApp;
  key: string;
}
async function start(introspection: string): Promise<Target> {
  const app = await getTestApp({ GRAPHQL_INTROSPECTION: introspection });
  return { app, key: await app.newAccountKey() };
}

let off: Target;
let on: Target;
beforeAll(async () => {
  [off, on] = await Promise.all([start('false'), start('true')]);
});
afterAll(() => Promise.all([off.app.close(), on.app.close()]));

for (const introspection of ['off', 'on'] as const) {
  describe(`GraphQL over HTTP audits, introspection ${introspection}`, () => {
    const target = () => (introspection === 'off' ? off : on);
    const audits = serverAudits({
      url: () => `${target().app.url}/graphql`,
      // Every operation needs a key; the audits' own headers stay as they are.
      fetchFn: (input: string | URL | Request, init: RequestInit = {}) => {
        const headers = new Headers(init.headers);
        headers.set('authorization', `Bearer ${target().key}`);
        return fetch(input, { ...init, headers });
      },
    });

    it.each(audits.map((audit) => [`${audit.id} ${audit.name}`, audit]))('%s', async (_title, audit) => {
      const result: AuditResult = await audit.fn();
      if (result.status === 'ok') return;
      const answer = `${result.response.status} ${await result.response.text()}`;
      expect({ status: result.status, reason: result.reason, answer }).toEqual({
        status: EXPLAINED[result.id],
        reason: result.reason,
        answer,
      });
    });
  });
}

const CREATE = 'mutation { createCode(input: { content: "https://example.com/refused" }) { id } }';

async function post(headers: Record<string, string>, body: string) {
  // Bytes, so that fetch adds no Content-Type of its own.
  const res = await fetch(`${off.app.url}/graphql`, {
    method: 'POST',
    headers: { authorization: `Bearer ${off.key}`, ...headers },
    body: new TextEncoder().encode(body),
  });
  const text = await res.text();
  return { status: res.status, headers: res.headers, body: text ? JSON.parse(text) : undefined };
}

describe('POST bodies', () => {
  const json = JSON.stringify({ query: CREATE });
  it.each([
    ['none', {}, json, 'none'],
    ['text/plain', { 'content-type': 'text/plain' }, json, "'text/plain'"],
    ['a form', { 'content-type': 'application/x-www-form-urlencoded' }, `query=${encodeURIComponent(CREATE)}`, null],
    ['multipart', { 'content-type': 'multipart/form-data; boundary=x' }, '--x--\r\n', null],
    ['a bare document', { 'content-type': 'application/graphql' }, CREATE, "'application/graphql'"],
    ['JSON in Latin-1', { 'content-type': 'application/json; charset=latin1' }, json, null],
  ])('refuses Content-Type %s with a 415 problem, running nothing', async (_label, headers, body, shown) => {
    const res = await post(headers, body);
    expect(res.status).toBe(415);
    expect(res.headers.get('content-type')).toBe('application/problem+json');
    expect(res.body).toMatchObject({ status: 415, title: 'Unsupported media type', instance: '/graphql' });
    expect(res.body.detail).toMatch(
      /^Send a GraphQL request as JSON .* with Content-Type: application\/json \(UTF-8\)/,
    );
    if (shown) expect(res.body.detail).toContain(`(got ${shown})`);
    expect(await countCodes(off.app, off.key)).toBe(0);
  });

  it('takes JSON with or without charset=utf-8, in any case', async () => {
    for (const type of ['application/json', 'application/json; charset=utf-8', 'Application/JSON; Charset=UTF-8']) {
      const res = await post({ 'content-type': type }, JSON.stringify({ query: '{ __typename }' }));
      expect(res.body, type).toEqual({ data: { __typename: 'Query' } });
    }
  });
});

describe('Accept', () => {
  it.each(['text/plain', 'text/html', 'application/json; charset=latin1', 'application/json;q=0', 'image/*'])(
    'answers Accept %s with a 406 problem before running the mutation',
    async (accept) => {
      const res = await post({ 'content-type': 'application/json', accept }, JSON.stringify({ query: CREATE }));
      expect(res.status).toBe(406);
      expect(res.headers.get('content-type')).toBe('application/problem+json');
      expect(res.body).toMatchObject({ status: 406, title: 'Not acceptable' });
      expect(res.body.detail).toBe(
        'GraphQL answers in application/graphql-response+json, application/json, text/event-stream, ' +
          `multipart/mixed (UTF-8), which Accept '${accept}' refuses.`,
      );
      expect(await countCodes(off.app, off.key)).toBe(0);
    },
  );

  it('answers a GET the same way', async () => {
    const res = await off.app.request('GET', `/graphql?query=${encodeURIComponent('{ __typename }')}`, {
      key: off.key,
      headers: { accept: 'text/csv' },
    });
    expect(res.status).toBe(406);
    expect(res.body.detail).toContain("which Accept 'text/csv' refuses");
  });

  it.each([
    ['application/graphql-response+json', 'application/graphql-response+json; charset=utf-8'],
    ['application/json;charset=UTF-8', 'application/json; charset=utf-8'],
    ['*/*', 'application/json; charset=utf-8'],
    ['text/html, application/json;q=0.9', 'application/json; charset=utf-8'],
  ])('serves Accept %s', async (accept, type) => {
    const res = await post({ 'content-type': 'application/json', accept }, JSON.stringify({ query: '{ __typename }' }));
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe(type);
  });

  it('refuses a subscription asked for over multipart/mixed alone (served over SSE) with a 406 problem', async () => {
    const query = 'subscription { scanCreated { codeId } }';
    const res = await post(
      { 'content-type': 'application/json', accept: 'multipart/mixed' },
      JSON.stringify({ query }),
    );
    expect(res.status).toBe(406);
    expect(res.body.detail).toContain("which Accept 'multipart/mixed' refuses");
  });
});

describe('status codes', () => {
  it.each([
    ['application/graphql-response+json', 400],
    ['application/json', 200],
  ])('answers a document that does not parse or validate, with Accept %s, as a %i', async (accept, status) => {
    for (const query of ['{ nope }', '{ codes(']) {
      const res = await post({ 'content-type': 'application/json', accept }, JSON.stringify({ query }));
      expect(res.status, query).toBe(status);
      expect(res.body.data, query).toBeUndefined();
      expect(res.body.errors[0].extensions.code, query).toMatch(/^GRAPHQL_(VALIDATION|PARSE)_FAILED$/);
    }
  });

  it.each(['PUT', 'DELETE', 'PATCH'])('answers %s with a 405 problem naming GET and POST', async (method) => {
    const res = await off.app.request(method, '/graphql', { key: off.key, body: { query: '{ __typename }' } });
    expect(res.status).toBe(405);
    expect(res.headers.get('allow')).toBe('GET, POST');
    expect(res.headers.get('content-type')).toBe('application/problem+json');
    expect(res.body.detail).toBe(`GraphQL is served over GET and POST (got ${method}).`);
  });
});
