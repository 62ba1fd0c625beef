// UTM passthrough: a url code with forward_query sends each scan on with the scan URL's query
// string appended to wherever it goes (its destination or a rule's), after the destination's
// own query; without it, scans go where they always went. Set on create, update, GraphQL and
// CSV; refused for static codes.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getTestApp, type TestApp } from '../support/app.ts';

let app: TestApp;
let key: string;

beforeAll(async () => {
  app = await getTestApp({ GEO_COUNTRY_HEADER: 'X-Test-Country' });
  key = await app.newAccountKey('forward-query');
});
afterAll(() => app.close());

const locationOf = async (scanUrl: string, query: string, headers: Record<string, string> = {}) =>
  (await fetch(`${scanUrl}${query}`, { redirect: 'manual', headers })).headers.get('location');

describe('forward_query', () => {
  it('appends the scan’s query to the destination and to a rule’s, after their own', async () => {
    const created = await app.request('POST', '/v1/codes', {
      key,
      body: {
        content: 'https://example.com/spring?ref=poster#offer',
        forward_query: true,
        routing: { rules: [{ condition: 'country:DE', destination: 'https://example.de/fruehling?utm_source=site' }] },
      },
    });
    expect(created.status, created.text).toBe(201);
    expect(created.body.forward_query).toBe(true);
    const scanUrl = created.body.scan_url;
    expect(await locationOf(scanUrl, '?utm_source=flyer&utm_campaign=spring')).toBe(
      'https://example.com/spring?ref=poster&utm_source=flyer&utm_campaign=spring#offer',
    );
    expect(await locationOf(scanUrl, '?utm_source=flyer&utm_campaign=spring', { 'x-test-country': 'DE' })).toBe(
      'https://example.de/fruehling?utm_source=site&utm_campaign=spring',
    );
    expect(await locationOf(scanUrl, '')).toBe('https://example.com/spring?ref=poster#offer');
  });

  it('is off by default, and switched by PATCH and GraphQL', async () => {
    const code = (await app.request('POST', '/v1/codes', { key, body: { content: 'https://example.com/plain' } })).body;
    expect(code.forward_query).toBe(false);
    expect(await locationOf(code.scan_url, '?utm_source=flyer')).toBe('https://example.com/plain');
    expect(
      (await app.request('PATCH', `/v1/codes/${code.id}`, { key, body: { forward_query: true } })).body.forward_query,
    ).toBe(true);
    expect(await locationOf(code.scan_url, '?utm_source=flyer')).toBe('https://example.com/plain?utm_source=flyer');
    const off = await app.graphql(
      key,
      `mutation { updateCode(id: "${code.id}", input: { forwardQuery: false }) { forwardQuery } }`,
    );
    expect(off.body.data.updateCode.forwardQuery).toBe(false);
    expect(await locationOf(code.scan_url, '?utm_source=flyer')).toBe('https://example.com/plain');
  });

  it('refuses a non-boolean and a static code’s with a 422, and takes true/false from CSV', async () => {
    expect(
      (
        await app.request('POST', '/v1/codes', {
          key,
          body: { content: 'https://example.com/x', forward_query: 'yes' },
        })
      ).status,
    ).toBe(422);
    const text = await app.request('POST', '/v1/codes', {
      key,
      body: { type: 'text', content: { text: 'hi' }, forward_query: true },
    });
    expect(text.status).toBe(422);
    expect(text.body.errors).toContainEqual({
      path: 'forward_query',
      message: expect.stringMatching(/url codes only/),
    });
    const csv = await app.request('POST', '/v1/codes/bulk', {
      key,
      rawBody:
        'content,forward_query\nhttps://example.com/c1,TRUE\nhttps://example.com/c2,false\nhttps://example.com/c3,\n',
      headers: { 'content-type': 'text/csv' },
    });
    expect(csv.status, csv.text).toBe(201);
    expect(csv.body.data.map((c: any) => c.forward_query)).toEqual([true, false, false]);
    const bad = await app.request('POST', '/v1/codes/bulk', {
      key,
      rawBody: 'content,forward_query\nhttps://example.com/c4,maybe\n',
      headers: { 'content-type': 'text/csv' },
    });
    expect(bad.status).toBe(422);
    expect(bad.body.errors).toEqual([{ path: 'row 2.forward_query', message: 'must be true or false' }]);
  });
});
