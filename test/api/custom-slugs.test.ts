// Custom slugs: chosen on create (REST, GraphQL, bulk JSON and CSV) or changed on update;
// 3-64 of A-Z a-z 0-9 _ -, case-sensitive, never the service's own paths, never used twice (a
// 409, also for a deleted code's slug and for two creates racing for one); a changed slug
// retires the old one for good (404), and the image encodes the new scan URL.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getTestApp, type TestApp } from '../support/app.ts';

let app: TestApp;
let key: string;

beforeAll(async () => {
  app = await getTestApp();
  key = await app.newAccountKey('slugs');
});
afterAll(() => app.close());

const create = (body: Record<string, unknown>, apiKey = key) =>
  app.request('POST', '/v1/codes', { key: apiKey, body: { content: 'https://example.com/custom', ...body } });
const scan = async (path: string) => {
  const res = await fetch(`${app.url}/${path}`, { redirect: 'manual' });
  return { status: res.status, location: res.headers.get('location') };
};
const codeCount = async () => (await app.request('GET', '/v1/codes?limit=500', { key })).body.data.length;

describe('custom slugs on create', () => {
  it('serves the code at its slug, case-sensitively, with a scan URL and image that encode it', async () => {
    const res = await create({ slug: 'Spring-sale_2026', content: 'https://example.com/spring' });
    expect(res.status, res.text).toBe(201);
    expect(res.body.scan_url).toBe(`${app.url}/Spring-sale_2026`);
    expect(res.body.payload).toBe(res.body.scan_url);
    expect(await scan('Spring-sale_2026')).toEqual({ status: 302, location: 'https://example.com/spring' });
    expect((await scan('spring-sale_2026')).status).toBe(404);
    // Another case is another slug, free to take.
    expect((await create({ slug: 'spring-sale_2026' })).status).toBe(201);
  });

  it('refuses bad, reserved and static-code slugs with a 422 naming slug, creating nothing', async () => {
    const before = await codeCount();
    for (const slug of [
      'ab',
      'x'.repeat(65),
      'has space',
      'dot.ted',
      'ümlaut',
      'graphql',
      'Dashboard',
      'V1',
      'oauth',
      42,
    ]) {
      const res = await create({ slug });
      expect(res.status, String(slug)).toBe(422);
      expect(res.body.errors.map((e: { path: string }) => e.path)).toContain('slug');
    }
    const text = await app.request('POST', '/v1/codes', {
      key,
      body: { type: 'text', content: { text: 'hi' }, slug: 'static-one' },
    });
    expect(text.status).toBe(422);
    expect(text.body.errors).toContainEqual({ path: 'slug', message: expect.stringMatching(/url codes only/) });
    expect(await codeCount()).toBe(before);
  });

  it('answers 409 for a taken slug, a deleted code’s slug, and another account’s, changing nothing', async () => {
    const first = (await create({ slug: 'taken-one' })).body;
    const again = await create({ slug: 'taken-one' });
    expect(again.status).toBe(409);
    expect(again.headers.get('content-type')).toMatch(/problem\+json/);
    expect(again.body).toMatchObject({ errors: [{ path: 'slug', message: 'is taken' }] });
    expect((await create({ slug: 'taken-one' }, await app.newAccountKey('slugs-other'))).status).toBe(409);
    expect((await app.request('DELETE', `/v1/codes/${first.id}`, { key })).status).toBe(204);
    expect((await scan('taken-one')).status).toBe(404);
    expect((await create({ slug: 'taken-one' })).status).toBe(409);
  });

  it('gives one of two creates racing for a slug a 201 and the other a 409', async () => {
    const results = await Promise.all([
      create({ slug: 'raced-for' }),
      create({ slug: 'raced-for' }),
      create({ slug: 'raced-for' }),
    ]);
    expect(results.map((r) => r.status).sort()).toEqual([201, 409, 409]);
    expect((await scan('raced-for')).status).toBe(302);
  });
});

describe('changing a slug', () => {
  it('moves the code to the new slug, retires the old one for good, and redraws the image', async () => {
    const code = (await create({ slug: 'old-name', content: 'https://example.com/moving' })).body;
    expect((await scan('old-name')).status).toBe(302);
    const moved = await app.request('PATCH', `/v1/codes/${code.id}`, { key, body: { slug: 'new-name' } });
    expect(moved.status, moved.text).toBe(200);
    expect(moved.body).toMatchObject({
      scan_url: `${app.url}/new-name`,
      payload: `${app.url}/new-name`,
      content: 'https://example.com/moving',
    });
    expect(await scan('new-name')).toEqual({ status: 302, location: 'https://example.com/moving' });
    expect((await scan('old-name')).status).toBe(404);
    expect((await create({ slug: 'old-name' })).status).toBe(409);
    const svg = await app.request('GET', `/v1/codes/${code.id}/image?format=svg`, { key });
    expect(svg.status).toBe(200);
    // Taken and bad slugs are refused, the code left as it was.
    expect((await app.request('PATCH', `/v1/codes/${code.id}`, { key, body: { slug: 'taken-one' } })).status).toBe(409);
    expect((await app.request('PATCH', `/v1/codes/${code.id}`, { key, body: { slug: 'no' } })).status).toBe(422);
    expect((await app.request('GET', `/v1/codes/${code.id}`, { key })).body.scan_url).toBe(`${app.url}/new-name`);
    // The same slug again is no change.
    expect((await app.request('PATCH', `/v1/codes/${code.id}`, { key, body: { slug: 'new-name' } })).status).toBe(200);
  });
});

describe('elsewhere', () => {
  it('GraphQL: create with a slug, CONFLICT when taken, change it', async () => {
    const created = await app.graphql(
      key,
      'mutation { createCode(input: { content: "https://example.com/g", slug: "gql-slug" }) { id slug scanUrl } }',
    );
    expect(created.body.data.createCode).toMatchObject({ slug: 'gql-slug', scanUrl: `${app.url}/gql-slug` });
    const taken = await app.graphql(
      key,
      'mutation { createCode(input: { content: "https://example.com/g", slug: "gql-slug" }) { id } }',
    );
    expect(taken.body.errors[0].extensions).toMatchObject({ code: 'CONFLICT', status: 409 });
    const changed = await app.graphql(
      key,
      `mutation { updateCode(id: "${created.body.data.createCode.id}", input: { slug: "gql-slug-2" }) { slug } }`,
    );
    expect(changed.body.data.updateCode.slug).toBe('gql-slug-2');
  });

  it(
    'bulk JSON and CSV: custom slugs beside random ones; a repeat is a 422 and a taken one a 409, naming the item ' +
      'or row',
    async () => {
      const ok = await app.request('POST', '/v1/codes/bulk', {
        key,
        body: {
          codes: [{ content: 'https://example.com/b1', slug: 'bulk-one' }, { content: 'https://example.com/b2' }],
        },
      });
      expect(ok.status, ok.text).toBe(201);
      expect(ok.body.data[0].scan_url).toBe(`${app.url}/bulk-one`);
      expect(ok.body.data[1].scan_url).toMatch(/\/[A-Za-z0-9]{7}$/);
      const before = await codeCount();
      const repeated = await app.request('POST', '/v1/codes/bulk', {
        key,
        body: {
          codes: [
            { content: 'https://example.com/r', slug: 'twice' },
            { content: 'https://example.com/r', slug: 'twice' },
          ],
        },
      });
      expect(repeated.status).toBe(422);
      expect(repeated.body.errors).toEqual([{ path: 'codes.1.slug', message: 'repeats the slug of codes.0' }]);
      const taken = await app.request('POST', '/v1/codes/bulk', {
        key,
        body: {
          codes: [
            { content: 'https://example.com/t', slug: 'fresh-one' },
            { content: 'https://example.com/t', slug: 'bulk-one' },
          ],
        },
      });
      expect(taken.status).toBe(409);
      expect(taken.body.errors).toEqual([{ path: 'codes.1.slug', message: 'is taken' }]);
      const csv = await app.request('POST', '/v1/codes/bulk', {
        key,
        rawBody: 'content,slug\nhttps://example.com/c,csv-one\nhttps://example.com/c,bulk-one\n',
        headers: { 'content-type': 'text/csv' },
      });
      expect(csv.status).toBe(409);
      expect(csv.body.errors).toEqual([{ path: 'row 3.slug', message: 'is taken' }]);
      expect(await codeCount()).toBe(before);
      expect((await scan('fresh-one')).status).toBe(404);
      const fromCsv = await app.request('POST', '/v1/codes/bulk', {
        key,
        rawBody: 'content,slug\nhttps://example.com/c,csv-one\n',
        headers: { 'content-type': 'text/csv' },
      });
      expect(fromCsv.body.data[0].scan_url).toBe(`${app.url}/csv-one`);
    },
  );
});
