// Cursor pagination, filters and sorts of GET /v1/codes.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getTestApp, type TestApp } from '../support/app.ts';
import { createCode } from '../support/factories.ts';

let app: TestApp;

beforeAll(async () => {
  app = await getTestApp();
});
afterAll(() => app.close());

async function walk(key: string, query: string, between?: () => Promise<void>): Promise<any[][]> {
  const pages: any[][] = [];
  let cursor: string | null = null;
  do {
    const sep = query ? '&' : '';
    const res: any = await app.request(
      'GET',
      `/v1/codes?${query}${sep}${cursor ? `cursor=${encodeURIComponent(cursor)}` : ''}`,
      { key },
    );
    expect(res.status, res.text).toBe(200);
    pages.push(res.body.data);
    cursor = res.body.next_cursor;
    if (cursor && between) await between();
  } while (cursor);
  return pages;
}

describe('walking 120 codes in pages of 50 while codes are inserted', () => {
  let key: string;
  const original: string[] = [];

  beforeAll(async () => {
    key = await app.newAccountKey();
    for (let i = 0; i < 120; i++) original.push((await createCode(app, key)).id);
  });

  it.each(['-created_at', 'created_at', '-updated_at', 'updated_at'])('sort=%s: no duplicate, no gap', async (sort) => {
    const inserted: string[] = [];
    const pages = await walk(key, `limit=50&sort=${sort}`, async () => {
      for (let i = 0; i < 3; i++) inserted.push((await createCode(app, key)).id);
    });
    const seen = pages.flat().map((c) => c.id);
    expect(new Set(seen).size).toBe(seen.length);
    for (const id of original) expect(seen).toContain(id);
    expect(pages[0]).toHaveLength(50);
    // Newest first never shows codes inserted after the walk began; oldest first may.
    if (sort.startsWith('-')) for (const id of inserted) expect(seen).not.toContain(id);
    const key_ = sort.replace('-', '');
    const values = pages.flat().map((c) => Date.parse(c[key_]));
    const sorted = [...values].sort((a, b) => (sort.startsWith('-') ? b - a : a - b));
    expect(values).toEqual(sorted);
    original.push(...inserted);
  });
});

describe('filters', () => {
  let key: string;
  let early: any;
  let middle: any;
  let late: any;

  beforeAll(async () => {
    key = await app.newAccountKey();
    early = await createCode(app, key, { content: 'https://shop.example.com/summer_sale' });
    await new Promise((r) => setTimeout(r, 20));
    middle = await createCode(app, key, { content: 'https://shop.example.com/winter' });
    await new Promise((r) => setTimeout(r, 20));
    late = await createCode(app, key, { content: 'https://blog.example.org/100%25-real' });
  });

  const ids = (res: any) => res.body.data.map((c: { id: string }) => c.id);

  it('q matches a substring of the content, case-insensitively', async () => {
    expect(ids(await app.request('GET', '/v1/codes?q=SHOP.example', { key }))).toEqual([middle.id, early.id]);
  });

  it('q treats % and _ literally', async () => {
    expect(ids(await app.request('GET', `/v1/codes?q=${encodeURIComponent('100%')}`, { key }))).toEqual([late.id]);
    expect(ids(await app.request('GET', '/v1/codes?q=r_s', { key }))).toEqual([early.id]);
    expect(ids(await app.request('GET', '/v1/codes?q=_', { key }))).toEqual([early.id]);
  });

  it('created_after and created_before are exclusive bounds', async () => {
    const res = await app.request(
      'GET',
      `/v1/codes?created_after=${early.created_at}&created_before=${late.created_at}`,
      { key },
    );
    expect(ids(res)).toEqual([middle.id]);
  });

  it('type filters by type', async () => {
    expect(ids(await app.request('GET', '/v1/codes?type=url', { key }))).toHaveLength(3);
  });

  it('limit=1 pages one by one with next_cursor null at the end', async () => {
    const pages = await walk(key, 'limit=1');
    expect(pages.map((p) => p.map((c) => c.id))).toEqual([[late.id], [middle.id], [early.id]]);
  });
});

describe('bad list parameters answer 422', () => {
  it.each([
    ['limit=0', 'limit'],
    ['limit=501', 'limit'],
    ['limit=abc', 'limit'],
    ['limit=2.5', 'limit'],
    ['sort=name', 'sort'],
    ['type=vcard2', 'type'],
    ['created_after=yesterday', 'created_after'],
    ['cursor=garbage', 'cursor'],
    ['page=2', 'page'],
  ])('%s', async (query, path) => {
    const key = await app.newAccountKey();
    const res = await app.request('GET', `/v1/codes?${query}`, { key });
    expect(res.status).toBe(422);
    expect(res.body.errors.map((e: { path: string }) => e.path)).toContain(path);
  });

  it('a cursor made for another sort', async () => {
    const key = await app.newAccountKey();
    await createCode(app, key);
    await createCode(app, key);
    const first = await app.request('GET', '/v1/codes?limit=1', { key });
    const res = await app.request('GET', `/v1/codes?limit=1&sort=updated_at&cursor=${first.body.next_cursor}`, { key });
    expect(res.status).toBe(422);
    expect(res.body.errors[0].path).toBe('cursor');
  });
});
