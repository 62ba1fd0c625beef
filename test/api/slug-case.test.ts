// Slugs are base62, so case matters, on SQLite and on MariaDB alike: a case variant of a live
// slug is another (unknown) slug, and two slugs that differ only in case are both reservable.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getTestApp, type TestApp } from '../support/app.ts';
import { createCode } from '../support/factories.ts';

let app: TestApp;
let key: string;

beforeAll(async () => {
  app = await getTestApp();
  key = await app.newAccountKey();
});
afterAll(() => app.close());

const swapCase = (text: string) =>
  [...text].map((c) => (c === c.toLowerCase() ? c.toUpperCase() : c.toLowerCase())).join('');

/** A url code whose slug has at least one letter, so its case variant differs from it. */
async function codeWithLetters() {
  for (;;) {
    const code = await createCode(app, key, { content: 'https://example.com/case' });
    const slug = new URL(code.scan_url).pathname.slice(1);
    if (swapCase(slug) !== slug) return { code, slug };
  }
}

describe('slug case', () => {
  it('a case variant of a slug is an unknown slug: 404, before and after the code is deleted', async () => {
    const { code, slug } = await codeWithLetters();
    expect((await app.request('GET', `/${slug}`)).status).toBe(302);
    const variant = await app.request('GET', `/${swapCase(slug)}`);
    expect(variant.status).toBe(404);
    await app.request('DELETE', `/v1/codes/${code.id}`, { key });
    expect((await app.request('GET', `/${slug}`)).status).toBe(404);
    expect((await app.request('GET', `/${swapCase(slug)}`)).status).toBe(404);
  });

  it('two slugs that differ only in case are two rows of the slug table', async () => {
    const { slug } = await codeWithLetters();
    const { db } = app.testDb;
    await db('slugs').insert({ slug: swapCase(slug), created_at: Date.now() });
    expect((await db('slugs').where({ slug: swapCase(slug) })).map((row) => row.slug)).toEqual([swapCase(slug)]);
    expect((await db('codes').where({ slug: swapCase(slug) })).length).toBe(0);
  });
});
