// A code's name and notes: set on create (REST, GraphQL, bulk JSON and CSV), changed and removed
// on update, searched with q together with the content, carried in webhook payloads, refused
// with a 422 that changes nothing when out of bounds, and never seen by another account.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getTestApp, type TestApp } from '../support/app.ts';

let app: TestApp;
let key: string;

beforeAll(async () => {
  app = await getTestApp();
  key = await app.newAccountKey('names');
});
afterAll(() => app.close());

const create = (body: Record<string, unknown>, apiKey = key) =>
  app.request('POST', '/v1/codes', { key: apiKey, body: { content: 'https://example.com/named', ...body } });
const search = async (q: string, apiKey = key) =>
  (await app.request('GET', `/v1/codes?q=${encodeURIComponent(q)}`, { key: apiKey })).body.data.map(
    (code: any) => code.id,
  );

describe('name and notes on REST', () => {
  it('keeps what create gives (the name trimmed), and null when nothing is given', async () => {
    const named = await create({ name: '  Spring poster, Berlin ', notes: 'Printed 2,000.\nReplace in June.' });
    expect(named.status, named.text).toBe(201);
    expect(named.body).toMatchObject({ name: 'Spring poster, Berlin', notes: 'Printed 2,000.\nReplace in June.' });
    expect((await app.request('GET', `/v1/codes/${named.body.id}`, { key })).body).toMatchObject({
      name: 'Spring poster, Berlin',
      notes: 'Printed 2,000.\nReplace in June.',
    });
    expect((await create({})).body).toMatchObject({ name: null, notes: null });
  });

  it('changes and removes them with PATCH, leaving the rest as it was', async () => {
    const code = (await create({ name: 'Before', notes: 'keep me' })).body;
    const renamed = await app.request('PATCH', `/v1/codes/${code.id}`, { key, body: { name: 'After' } });
    expect(renamed.body).toMatchObject({
      name: 'After',
      notes: 'keep me',
      content: code.content,
      scan_url: code.scan_url,
    });
    const cleared = await app.request('PATCH', `/v1/codes/${code.id}`, { key, body: { name: null, notes: null } });
    expect(cleared.body).toMatchObject({ name: null, notes: null });
  });

  it(
    'refuses an empty or too long name, too long notes and non-strings with a 422 naming the field, creating and ' +
      'changing nothing',
    async () => {
      const before = (await app.request('GET', '/v1/codes?limit=500', { key })).body.data.length;
      for (const [body, path] of [
        [{ name: '   ' }, 'name'],
        [{ name: 'x'.repeat(201) }, 'name'],
        [{ name: 42 }, 'name'],
        [{ notes: 'x'.repeat(10_001) }, 'notes'],
        [{ name: '\ud800' }, 'name'],
      ] as const) {
        const res = await create(body);
        expect(res.status, JSON.stringify(body).slice(0, 40)).toBe(422);
        expect(res.body.errors.map((e: { path: string }) => e.path)).toContain(path);
      }
      expect((await app.request('GET', '/v1/codes?limit=500', { key })).body.data.length).toBe(before);
      const code = (await create({ name: 'Unchanged' })).body;
      expect((await app.request('PATCH', `/v1/codes/${code.id}`, { key, body: { name: '' } })).status).toBe(422);
      expect((await app.request('GET', `/v1/codes/${code.id}`, { key })).body.name).toBe('Unchanged');
    },
  );

  it('finds codes by name or content with q, in any case, and only the caller’s', async () => {
    const byName = (await create({ name: 'Autumn FLYER Zürich', content: 'https://example.com/a1' })).body;
    const byContent = (await create({ content: 'https://example.com/autumn-flyer' })).body;
    const other = await app.newAccountKey('names-other');
    const foreign = (await create({ name: 'Autumn flyer of another account' }, other)).body;
    const found = await search('autumn flyer');
    expect(found).toContain(byName.id);
    expect(found).not.toContain(foreign.id);
    expect(await search('autumn-flyer')).toEqual([byContent.id]);
    expect(await search('zürich')).toEqual([byName.id]);
    expect(await search('autumn flyer', other)).toEqual([foreign.id]);
    expect((await app.request('GET', `/v1/codes/${byName.id}`, { key: other })).status).toBe(404);
  });
});

describe('name and notes elsewhere', () => {
  it('GraphQL: create, filter with q, remove with null', async () => {
    const created = await app.graphql(
      key,
      'mutation { createCode(input: { content: "https://example.com/gql-named", name: "Winter window", notes: "shop ' +
        'front" }) { id name notes } }',
    );
    const code = created.body.data.createCode;
    expect(code).toMatchObject({ name: 'Winter window', notes: 'shop front' });
    const listed = await app.graphql(
      key,
      '{ codes(first: 10, filter: { q: "WINTER WINDOW" }) { edges { node { id name } } } }',
    );
    expect(listed.body.data.codes.edges.map((e: any) => e.node)).toEqual([{ id: code.id, name: 'Winter window' }]);
    const cleared = await app.graphql(
      key,
      `mutation { updateCode(id: "${code.id}", input: { name: null }) { name notes } }`,
    );
    expect(cleared.body.data.updateCode).toEqual({ name: null, notes: 'shop front' });
    const refused = await app.graphql(key, `mutation { updateCode(id: "${code.id}", input: { name: "" }) { name } }`);
    expect(refused.body.errors[0].extensions.code).toBe('VALIDATION_FAILED');
  });

  it('bulk: JSON items and CSV columns carry them', async () => {
    const json = await app.request('POST', '/v1/codes/bulk', {
      key,
      body: {
        codes: [
          { content: 'https://example.com/b1', name: 'Bulk one', notes: 'n1' },
          { content: 'https://example.com/b2' },
        ],
      },
    });
    expect(json.status, json.text).toBe(201);
    expect(json.body.data.map((c: any) => [c.name, c.notes])).toEqual([
      ['Bulk one', 'n1'],
      [null, null],
    ]);
    const csv =
      'content,name,notes\nhttps://example.com/c1,"Shelf talker, aisle 4","two lines\nof ' +
      'notes"\nhttps://example.com/c2,,\n';
    const fromCsv = await app.request('POST', '/v1/codes/bulk', {
      key,
      rawBody: csv,
      headers: { 'content-type': 'text/csv' },
    });
    expect(fromCsv.status, fromCsv.text).toBe(201);
    expect(fromCsv.body.data.map((c: any) => [c.name, c.notes])).toEqual([
      ['Shelf talker, aisle 4', 'two lines\nof notes'],
      [null, null],
    ]);
    const tooLong = await app.request('POST', '/v1/codes/bulk', {
      key,
      rawBody: `content,name\nhttps://example.com/c3,${'x'.repeat(201)}\n`,
      headers: { 'content-type': 'text/csv' },
    });
    expect(tooLong.status).toBe(422);
  });

  it('webhook payloads of code events carry them', async () => {
    const endpoint = await app.request('POST', '/v1/webhooks', {
      key,
      body: { url: 'https://hooks.example.com/names', events: ['code.created', 'code.updated'] },
    });
    expect(endpoint.status, endpoint.text).toBe(201);
    const code = (await create({ name: 'Hooked', notes: 'sent along' })).body;
    await app.request('PATCH', `/v1/codes/${code.id}`, { key, body: { name: 'Hooked again' } });
    const deliveries = (await app.request('GET', `/v1/webhooks/${endpoint.body.id}/deliveries`, { key })).body.data;
    const details = await Promise.all(
      deliveries.map(
        async (d: any) =>
          (await app.request('GET', `/v1/webhooks/${endpoint.body.id}/deliveries/${d.id}`, { key })).body.event,
      ),
    );
    const names = Object.fromEntries(details.map((event: any) => [event.type, [event.data.name, event.data.notes]]));
    expect(names).toEqual({ 'code.created': ['Hooked', 'sent along'], 'code.updated': ['Hooked again', 'sent along'] });
  });
});
