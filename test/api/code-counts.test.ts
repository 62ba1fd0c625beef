// The overview's `total_codes` is a running count (codes/code-counts.ts), not a COUNT of the codes:
// it must follow every change that adds, archives, restores or deletes a code, through the API,
// and stay exact when such changes of the same code race. Each step checks it against a COUNT of
// the codes table itself.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { getTestApp, type TestApp } from '../support/app.ts';

let app: TestApp;
let key: string;
let accountId: string;

beforeAll(async () => {
  app = await getTestApp();
  key = await app.newAccountKey('code-counts');
  // The account's id, which the API does not show, from its first code's row.
  const first = await create();
  accountId = (await app.testDb.db('codes').where('id', first).first('account_id')).account_id;
});
afterAll(() => app.close());

const totalCodes = async (k = key) => {
  const res = await app.request('GET', '/v1/analytics/overview', { key: k });
  expect(res.status, res.text).toBe(200);
  return res.body.total_codes as number;
};

/** What the count must say: the account's codes that are not archived, counted in the table. */
const countedInTable = async () =>
  Number(
    (await app.testDb.db('codes').where('account_id', accountId).whereNot('status', 'archived').count({ n: '*' }))[0]!
      .n,
  );

const create = async (body: Record<string, unknown> = {}) => {
  const res = await app.request('POST', '/v1/codes', { key, body: { content: 'https://example.com/c', ...body } });
  expect(res.status, res.text).toBe(201);
  return res.body.id as string;
};

const setStatus = (id: string, status: string) => app.request('PATCH', `/v1/codes/${id}`, { key, body: { status } });

it('follows creation, bulk creation, archiving, restoring, pausing and deletion', async () => {
  const steps: [string, number][] = [];
  const step = async (name: string) => steps.push([name, await totalCodes()]);
  const expected: [string, number][] = [];
  const expect_ = async (name: string) => expected.push([name, await countedInTable()]);
  const both = async (name: string) => {
    await step(name);
    await expect_(name);
  };

  await both('the first code');
  const a = await create();
  const archivedAtBirth = await create({ status: 'archived' });
  await both('one created, one created archived');
  const bulk = await app.request('POST', '/v1/codes/bulk', {
    key,
    body: {
      codes: [
        { content: 'https://example.com/b1' },
        { content: 'https://example.com/b2', status: 'paused' },
        { content: 'https://example.com/b3', status: 'archived' },
      ],
    },
  });
  expect(bulk.status, bulk.text).toBe(201);
  await both('bulk of three, one archived');
  expect((await setStatus(a, 'archived')).status).toBe(200);
  expect((await setStatus(a, 'archived')).status).toBe(200);
  await both('archived twice');
  expect((await setStatus(a, 'paused')).status).toBe(200);
  await both('restored as paused');
  expect((await setStatus(a, 'active')).status).toBe(200);
  await both('paused to active');
  expect((await app.request('PATCH', `/v1/codes/${a}`, { key, body: { name: 'renamed' } })).status).toBe(200);
  await both('renamed');
  expect((await app.request('DELETE', `/v1/codes/${archivedAtBirth}`, { key })).status).toBe(204);
  await both('archived one deleted');
  expect((await app.request('DELETE', `/v1/codes/${a}`, { key })).status).toBe(204);
  expect((await app.request('DELETE', `/v1/codes/${a}`, { key })).status).toBe(404);
  await both('counted one deleted, then again');
  const refused = await app.request('PATCH', `/v1/codes/${bulk.body.data[0].id}`, { key, body: { status: 'gone' } });
  expect(refused.status).toBe(422);
  await both('a refused status');

  expect(steps).toEqual(expected);
  expect(steps.map(([, n]) => n)).toEqual([1, 2, 4, 3, 4, 4, 4, 4, 3, 3]);
});

it('moves once however many archive and restore requests of one code race', async () => {
  const ids = [await create(), await create(), await create()];
  for (const status of ['archived', 'active', 'archived', 'paused']) {
    const answers = await Promise.all(ids.flatMap((id) => Array.from({ length: 4 }, () => setStatus(id, status))));
    expect(answers.map((r) => r.status)).toEqual(answers.map(() => 200));
    expect(await totalCodes()).toBe(await countedInTable());
  }
  const deletions = await Promise.all(
    ids.flatMap((id) => [1, 2].map(() => app.request('DELETE', `/v1/codes/${id}`, { key }))),
  );
  expect(deletions.map((r) => r.status).sort()).toEqual([204, 204, 204, 404, 404, 404]);
  expect(await totalCodes()).toBe(await countedInTable());
});

it('counts codes created at once, one by one and in bulk', async () => {
  const before = await totalCodes();
  const bulk = (n: number) =>
    app.request('POST', '/v1/codes/bulk', {
      key,
      body: { codes: Array.from({ length: n }, (_, i) => ({ content: `https://example.com/p${i}` })) },
    });
  const answers = await Promise.all([
    ...Array.from({ length: 12 }, () =>
      app.request('POST', '/v1/codes', { key, body: { content: 'https://example.com/p' } }),
    ),
    bulk(50),
    bulk(30),
  ]);
  expect(answers.map((r) => r.status)).toEqual(answers.map(() => 201));
  expect(await totalCodes()).toBe(before + 12 + 80);
  expect(await totalCodes()).toBe(await countedInTable());
});

it("counts only the account's own codes", async () => {
  const other = await app.newAccountKey('code-counts-other');
  expect(await totalCodes(other)).toBe(0);
  await app.request('POST', '/v1/codes', { key: other, body: { content: 'https://example.com/o' } });
  expect(await totalCodes(other)).toBe(1);
  expect(await totalCodes()).toBe(await countedInTable());
});
