// Two instances on one database, each caching sessions and memberships (SESSION_CACHE_TTL_MS),
// told of changes through Redis: a role change, a removal and a sign-out made through one apply
// to the other's next requests within moments, not when its cache entries age out.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getTestApp, type TestApp } from '../support/app.ts';
import { asUser, newUser, type TestUser } from '../support/users.ts';

const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
// Long enough that only an invalidation can explain a change seen within the test.
const env = { REDIS_URL, SESSION_CACHE_TTL_MS: '600000' };

let a: TestApp;
let b: TestApp;
let owner: TestUser;

beforeAll(async () => {
  a = await getTestApp(env);
  // The same database, another process's caches and bus subscription.
  b = await getTestApp(env, { testDb: { ...a.testDb, destroy: async () => {} } });
  owner = await newUser(a);
});
afterAll(async () => {
  await b?.close();
  await a?.close();
});

/** Polls `check` until it is true, for up to two seconds. */
async function eventually(check: () => Promise<boolean>): Promise<void> {
  const until = Date.now() + 2000;
  while (!(await check())) {
    if (Date.now() > until) throw new Error('not within 2 s');
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

describe('another instance', { timeout: 60_000 }, () => {
  it('applies a role change and a removal made elsewhere on its next requests', async () => {
    const editor = await newUser(a, { accountId: owner.workspaceId, role: 'editor' });
    const onB = asUser(b, editor.token, editor.csrf);
    const write = () => onB('POST', '/v1/codes', { body: { content: 'https://example.com/b' } });
    expect((await write()).status).toBe(201);
    const demoted = await owner.request('PATCH', `/v1/workspaces/${owner.workspaceId}/members/${editor.id}`, {
      body: { role: 'viewer' },
    });
    expect(demoted.status).toBe(200);
    await eventually(async () => (await write()).status === 403);
    expect((await owner.request('DELETE', `/v1/workspaces/${owner.workspaceId}/members/${editor.id}`)).status).toBe(
      204,
    );
    await eventually(async () => (await onB('GET', '/v1/codes')).status === 403);
  });

  it('ends a session signed out elsewhere', async () => {
    const person = await newUser(a);
    const onB = asUser(b, person.token, person.csrf);
    expect((await onB('GET', '/v1/users/me')).status).toBe(200);
    expect((await person.request('DELETE', '/v1/session')).status).toBe(204);
    await eventually(async () => (await onB('GET', '/v1/users/me')).status === 401);
  });
});
