// One behaviour on both engines: the same assertions run on SQLite and on MariaDB (CI runs the
// suite once per engine). Search, time-range boundaries and slug case (slug-case.test.ts).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getTestApp, type TestApp } from '../support/app.ts';
import { createCode } from '../support/factories.ts';

let app: TestApp;
let key: string;

beforeAll(async () => {
  app = await getTestApp();
  key = await app.newAccountKey('parity');
});
afterAll(() => app.close());

async function search(q: string): Promise<string[]> {
  const res = await app.request('GET', `/v1/codes?q=${encodeURIComponent(q)}&limit=100`, { key });
  expect(res.status, res.text).toBe(200);
  return res.body.data.map((code: { content: string }) => code.content);
}

describe('q= search', () => {
  beforeAll(async () => {
    for (const content of [
      'https://example.com/Straße/CAFÉ',
      'https://example.com/cafe',
      'https://example.com/ÇA-VA',
      'https://example.com/100%_off',
    ]) {
      await createCode(app, key, { content });
    }
  });

  it('ignores case, for non-ASCII letters too', async () => {
    expect(await search('café')).toEqual(['https://example.com/Straße/CAFÉ']);
    expect(await search('STRASSE')).toEqual([]);
    expect(await search('straße')).toEqual(['https://example.com/Straße/CAFÉ']);
    expect(await search('ça-va')).toEqual(['https://example.com/ÇA-VA']);
    expect((await search('EXAMPLE.COM')).length).toBe(4);
  });

  it('does not fold accents: cafe and café are different words', async () => {
    expect(await search('cafe')).toEqual(['https://example.com/cafe']);
    expect(await search('ca-va')).toEqual([]);
  });

  it('takes % and _ literally', async () => {
    expect(await search('100%_off')).toEqual(['https://example.com/100%_off']);
    expect(await search('%')).toEqual(['https://example.com/100%_off']);
    expect(await search('_')).toEqual(['https://example.com/100%_off']);
  });
});

describe('created_after / created_before', () => {
  it('are exclusive bounds, to the millisecond', async () => {
    const other = await app.newAccountKey('parity-range');
    const code = await createCode(app, other, { content: 'https://example.com/range' });
    const at = Date.parse(code.created_at);
    const list = async (query: string) =>
      (await app.request('GET', `/v1/codes?${query}`, { key: other })).body.data.map((c: { id: string }) => c.id);
    const iso = (ms: number) => new Date(ms).toISOString();
    expect(await list(`created_after=${iso(at)}`)).toEqual([]);
    expect(await list(`created_before=${iso(at)}`)).toEqual([]);
    expect(await list(`created_after=${iso(at - 1)}`)).toEqual([code.id]);
    expect(await list(`created_before=${iso(at + 1)}`)).toEqual([code.id]);
    expect(await list(`created_after=${iso(at - 1)}&created_before=${iso(at + 1)}`)).toEqual([code.id]);
  });
});

describe('sort order', () => {
  it('breaks ties in created_at by id, compared as bytes (upper case before lower case), both ways', async () => {
    const other = await app.newAccountKey('parity-sort');
    const bulk = await app.request('POST', '/v1/codes/bulk', {
      key: other,
      body: { codes: Array.from({ length: 40 }, (_, i) => ({ content: `https://example.com/tie-${i}` })) },
    });
    expect(bulk.status, bulk.text).toBe(201);
    const ids: string[] = bulk.body.data.map((code: { id: string }) => code.id);
    const bytewise = [...ids].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
    // Base62 ids of 20 characters: 40 of them are all but certain to mix cases at some position.
    expect(bytewise).not.toEqual([...ids].sort((a, b) => a.localeCompare(b, 'en', { sensitivity: 'base' })));
    const list = async (sort: string) =>
      (await app.request('GET', `/v1/codes?sort=${sort}&limit=100`, { key: other })).body.data.map(
        (c: { id: string }) => c.id,
      );
    expect(await list('created_at')).toEqual(bytewise);
    expect(await list('-created_at')).toEqual([...bytewise].reverse());
  });
});
