import type { Knex } from 'knex';
import { addToCodeCount } from '../../src/modules/codes/code-counts.ts';
import type { TestApp } from './app.ts';

let counter = 0;

/** A valid create body; override any part. */
export function codeBody(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  counter += 1;
  return { type: 'url', content: `https://example.com/landing/${counter}`, ...overrides };
}

/** Creates a code over HTTP and returns its JSON, failing loudly when creation fails. */
export async function createCode(app: TestApp, key: string, overrides: Record<string, unknown> = {}) {
  const res = await app.request('POST', '/v1/codes', { key, body: codeBody(overrides) });
  if (res.status !== 201) throw new Error(`create failed: ${res.status} ${res.text}`);
  return res.body;
}

/** How many codes the key's account has, walking every page of GET /v1/codes. */
export async function countCodes(app: TestApp, key: string): Promise<number> {
  let total = 0;
  let cursor: string | null = null;
  do {
    const res: any = await app.request('GET', `/v1/codes?limit=500${cursor ? `&cursor=${cursor}` : ''}`, { key });
    total += res.body.data.length;
    cursor = res.body.next_cursor;
  } while (cursor);
  return total;
}

/** Inserts bare URL code rows straight into the database (and counts them), for tests below the HTTP layer. */
export async function insertCodeRows(db: Knex, accountId: string, ids: readonly string[]): Promise<void> {
  const now = Date.now();
  for (let i = 0; i < ids.length; i += 100) {
    await db('codes').insert(
      ids.slice(i, i + 100).map((id) => ({
        id,
        account_id: accountId,
        type: 'url',
        content: `https://example.com/${id}`,
        design: '{}',
        routing_enabled: false,
        slug: null,
        created_at: now,
        updated_at: now,
      })),
    );
  }
  await addToCodeCount(db, accountId, ids.length);
}
