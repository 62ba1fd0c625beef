// Property: walking GET /v1/codes by cursor while other requests create and delete codes at the
// same moment never repeats a code and never skips one that existed for the whole walk. Bulk
// creation gives many codes the same created_at, so ties are broken by id across pages.
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getTestApp, type TestApp } from '../support/app.ts';
import { createCode } from '../support/factories.ts';

let app: TestApp;
let key: string;
/** Codes alive now, as the test knows them. */
const alive = new Set<string>();

beforeAll(async () => {
  app = await getTestApp({ RATE_LIMIT_PER_MINUTE: '0' });
  key = await app.newAccountKey('pagination-properties');
  const bulk = await app.request('POST', '/v1/codes/bulk', {
    key,
    body: { codes: Array.from({ length: 60 }, (_, i) => ({ content: `https://example.com/tie-${i}` })) },
  });
  expect(bulk.status, bulk.text).toBe(201);
  for (const code of bulk.body.data) alive.add(code.id);
  for (let i = 0; i < 20; i++) alive.add((await createCode(app, key)).id);
});
afterAll(() => app.close());

async function walk(sort: string, limit: number): Promise<string[]> {
  const seen: string[] = [];
  let cursor: string | null = null;
  do {
    const res: any = await app.request(
      'GET',
      `/v1/codes?sort=${sort}&limit=${limit}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`,
      { key },
    );
    expect(res.status, res.text).toBe(200);
    seen.push(...res.body.data.map((code: { id: string }) => code.id));
    cursor = res.body.next_cursor;
  } while (cursor);
  return seen;
}

/** Runs the changes one after another, as fast as the server answers, beside the walk. */
async function change(operations: ('create' | 'delete')[], created: Set<string>, deleted: Set<string>): Promise<void> {
  for (const operation of operations) {
    if (operation === 'create') {
      const code = await createCode(app, key);
      created.add(code.id);
      alive.add(code.id);
    } else {
      const victim = [...alive][Math.floor(alive.size / 2)];
      if (!victim) continue;
      alive.delete(victim);
      deleted.add(victim);
      expect((await app.request('DELETE', `/v1/codes/${victim}`, { key })).status).toBe(204);
    }
  }
}

describe('cursor pagination under concurrent creates and deletes', () => {
  it('has no duplicates and no gaps', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom('created_at', '-created_at'),
        fc.integer({ min: 1, max: 30 }),
        fc.array(fc.constantFrom('create' as const, 'delete' as const), { minLength: 1, maxLength: 12 }),
        async (sort, limit, operations) => {
          const stable = new Set(alive);
          const created = new Set<string>();
          const deleted = new Set<string>();
          const [seen] = await Promise.all([walk(sort, limit), change(operations, created, deleted)]);
          for (const id of deleted) stable.delete(id);
          expect(new Set(seen).size, 'a code was listed twice').toBe(seen.length);
          expect(
            [...stable].filter((id) => !seen.includes(id)),
            'codes alive for the whole walk were skipped',
          ).toEqual([]);
          expect(
            seen.filter((id) => !stable.has(id) && !created.has(id) && !deleted.has(id)),
            'listed codes that do not exist',
          ).toEqual([]);
        },
      ),
      { numRuns: 12 },
    );
  });
});
