// Tags: the /v1/tags resource (create, list with code counts, rename, recolour, delete), names
// unique per account ignoring case, codes naming their tags (created on the fly, matched
// ignoring case, at most 20), the `tag` filter of the code list with its pagination, the
// analytics overview of one tag, bulk JSON and CSV, GraphQL, webhook payloads, and another
// account's tags never seen nor matched.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getTestApp, type TestApp } from '../support/app.ts';
import { inTransaction } from '../../src/db/transaction.ts';
import { createTagsStore } from '../../src/modules/tags/store.ts';
import { createCodeTagging } from '../../src/modules/tags/tagging.ts';
import { accountIdOf, recordScans } from '../support/scans.ts';
import { createTagHistoryMover } from '../../src/modules/scans/index.ts';

let app: TestApp;
let key: string;

beforeAll(async () => {
  app = await getTestApp();
  key = await app.newAccountKey('tags');
});
afterAll(() => app.close());

const createCode = (body: Record<string, unknown> = {}, apiKey = key) =>
  app.request('POST', '/v1/codes', {
    key: apiKey,
    body: { content: `https://example.com/${Math.random().toString(36).slice(2)}`, ...body },
  });
const createTag = (body: Record<string, unknown>, apiKey = key) =>
  app.request('POST', '/v1/tags', { key: apiKey, body });
const allTags = async (apiKey = key) => (await app.request('GET', '/v1/tags?limit=500', { key: apiKey })).body.data;
const paths = (res: { body: any }) => res.body.errors.map((e: { path: string }) => e.path);

/** Every code of a filtered list, page by page, with the ids of each page. */
async function walk(query: string, limit: number, apiKey = key): Promise<string[][]> {
  const pages: string[][] = [];
  let cursor: string | null = null;
  do {
    const res: { status: number; text: string; body: any } = await app.request(
      'GET',
      `/v1/codes?${query}&limit=${limit}${cursor ? `&cursor=${cursor}` : ''}`,
      { key: apiKey },
    );
    expect(res.status, res.text).toBe(200);
    pages.push(res.body.data.map((c: any) => c.id));
    cursor = res.body.next_cursor;
  } while (cursor);
  return pages;
}

describe('/v1/tags', () => {
  it('creates, reads, lists with code counts, renames, recolours and deletes a tag', async () => {
    const created = await createTag({ name: '  Print ', color: '#E8710A' });
    expect(created.status, created.text).toBe(201);
    expect(created.body).toMatchObject({ object: 'tag', name: 'Print', color: '#e8710a', code_count: 0 });
    expect(created.body.id).toMatch(/^tag_/);
    expect(created.headers.get('location')).toBe(`/v1/tags/${created.body.id}`);
    const tag = created.body;
    await createCode({ tags: ['print'] });
    await createCode({ tags: ['PRINT', 'other'] });
    expect((await app.request('GET', `/v1/tags/${tag.id}`, { key })).body).toMatchObject({
      id: tag.id,
      name: 'Print',
      code_count: 2,
    });
    expect((await allTags()).find((t: any) => t.id === tag.id).code_count).toBe(2);

    const renamed = await app.request('PATCH', `/v1/tags/${tag.id}`, { key, body: { name: 'Printed' } });
    expect(renamed.body).toMatchObject({ name: 'Printed', color: '#e8710a', code_count: 2 });
    const listed = (await app.request('GET', '/v1/codes?tag=printed', { key })).body.data;
    expect(listed.map((c: any) => c.tags)).toEqual([['other', 'Printed'], ['Printed']]);
    expect((await app.request('PATCH', `/v1/tags/${tag.id}`, { key, body: { color: null } })).body.color).toBeNull();
    // Only the case changes: the tag keeps its own name.
    expect((await app.request('PATCH', `/v1/tags/${tag.id}`, { key, body: { name: 'PRINTED' } })).body.name).toBe(
      'PRINTED',
    );

    const deleted = await app.request('DELETE', `/v1/tags/${tag.id}`, { key });
    expect(deleted.status).toBe(204);
    expect((await app.request('GET', `/v1/tags/${tag.id}`, { key })).status).toBe(404);
    expect((await app.request('DELETE', `/v1/tags/${tag.id}`, { key })).status).toBe(404);
    const after = await app.request('GET', `/v1/codes/${listed[0].id}`, { key });
    expect(after.status).toBe(200);
    expect(after.body.tags).toEqual(['other']);
  });

  it('keeps names unique per account in any case: create or rename onto a taken name is a 409 on `name`', async () => {
    const first = (await createTag({ name: 'flyer' })).body;
    const again = await createTag({ name: 'FLYER' });
    expect(again.status).toBe(409);
    expect(paths(again)).toEqual(['name']);
    const second = (await createTag({ name: 'poster' })).body;
    const clash = await app.request('PATCH', `/v1/tags/${second.id}`, { key, body: { name: 'Flyer' } });
    expect(clash.status).toBe(409);
    expect(paths(clash)).toEqual(['name']);
    expect((await app.request('GET', `/v1/tags/${second.id}`, { key })).body.name).toBe('poster');
    // Accents are not case: café and cafe are two tags.
    expect((await createTag({ name: 'café' })).status).toBe(201);
    expect((await createTag({ name: 'cafe' })).status).toBe(201);
    expect((await createTag({ name: 'CAFÉ' })).status).toBe(409);
    expect((await allTags()).filter((t: any) => t.name === 'flyer').map((t: any) => t.id)).toEqual([first.id]);
  });

  it('refuses bad input with a 422 naming the field, changing nothing', async () => {
    const before = await allTags();
    for (const [body, path] of [
      [{}, 'name'],
      [{ name: '   ' }, 'name'],
      [{ name: 'x'.repeat(51) }, 'name'],
      [{ name: 42 }, 'name'],
      [{ name: 'a|b' }, 'name'],
      [{ name: 'tab\there' }, 'name'],
      [{ name: 'ok', color: 'red' }, 'color'],
      [{ name: 'ok', colour: '#ffffff' }, 'colour'],
    ] as const) {
      const res = await createTag(body);
      expect(res.status, JSON.stringify(body)).toBe(422);
      expect(paths(res)).toContain(path);
    }
    expect(await allTags()).toEqual(before);
    const tag = (await createTag({ name: 'stays' })).body;
    const bad = await app.request('PATCH', `/v1/tags/${tag.id}`, { key, body: { name: '', color: '#12345' } });
    expect(bad.status).toBe(422);
    expect(paths(bad).sort()).toEqual(['color', 'name']);
    expect((await app.request('GET', `/v1/tags/${tag.id}`, { key })).body).toMatchObject({
      name: 'stays',
      color: null,
    });
    expect((await app.request('GET', '/v1/tags?limit=0', { key })).status).toBe(422);
    const cursor = await app.request('GET', '/v1/tags?cursor=nonsense', { key });
    expect(cursor.status).toBe(422);
    expect(paths(cursor)).toEqual(['cursor']);
  });

  it('lists every tag once in name order, page by page', async () => {
    const own = await app.newAccountKey('tags-pages');
    const names = ['delta', 'Alpha', 'charlie', 'Bravo', 'echo', 'foxtrot', 'Golf'];
    for (const name of names) expect((await createTag({ name }, own)).status).toBe(201);
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const res: { body: any } = await app.request('GET', `/v1/tags?limit=3${cursor ? `&cursor=${cursor}` : ''}`, {
        key: own,
      });
      expect(res.body.data.length).toBeLessThanOrEqual(3);
      seen.push(...res.body.data.map((t: any) => t.name));
      cursor = res.body.next_cursor;
    } while (cursor);
    expect(seen).toEqual(['Alpha', 'Bravo', 'charlie', 'delta', 'echo', 'foxtrot', 'Golf']);
  });
});

describe('tags on codes', () => {
  it('creates missing tags on the fly, matches existing ones ignoring case, dedupes, sorts by name', async () => {
    const own = await app.newAccountKey('tags-on-codes');
    await createTag({ name: 'Spring', color: '#00ff00' }, own);
    const code = await createCode({ tags: ['spring', 'zeta', 'Autumn', 'ZETA', ' autumn '] }, own);
    expect(code.status, code.text).toBe(201);
    expect(code.body.tags).toEqual(['Autumn', 'Spring', 'zeta']);
    expect((await app.request('GET', `/v1/codes/${code.body.id}`, { key: own })).body.tags).toEqual([
      'Autumn',
      'Spring',
      'zeta',
    ]);
    const tags = await allTags(own);
    expect(tags.map((t: any) => [t.name, t.color, t.code_count])).toEqual([
      ['Autumn', null, 1],
      ['Spring', '#00ff00', 1],
      ['zeta', null, 1],
    ]);
    expect((await createCode({}, own)).body.tags).toEqual([]);
  });

  it('codes created at once with the same new tag share one tag', async () => {
    const own = await app.newAccountKey('tags-race');
    const made = await Promise.all(
      Array.from({ length: 6 }, (_, i) => createCode({ tags: [i % 2 ? 'Rush' : 'rush', `own-${i}`] }, own)),
    );
    expect(made.map((r) => r.status)).toEqual(Array(6).fill(201));
    const rush = (await allTags(own)).filter((t: any) => t.name.toLowerCase() === 'rush');
    expect(rush).toHaveLength(1);
    expect(rush[0].code_count).toBe(6);
  });

  it('concurrent taggings with the same new tags make each tag once (no deadlock on MariaDB)', async () => {
    const own = await app.newAccountKey('tags-race-db');
    const accountId = await accountIdOf(app, own);
    const codes = await Promise.all(Array.from({ length: 8 }, () => createCode({}, own)));
    const tagging = createCodeTagging(
      createTagsStore(app.testDb.db),
      1000,
      createTagHistoryMover(app.testDb.db, app.testDb.db),
    );
    await Promise.all(
      codes.map((code, i) =>
        inTransaction(app.testDb.db, (trx) =>
          tagging.set(
            accountId,
            [{ codeId: code.body.id, names: i % 2 ? ['Zulu', 'alpha', `own-${i}`] : ['alpha', 'zulu'] }],
            trx,
          ),
        ),
      ),
    );
    const tags = await allTags(own);
    expect(
      tags.filter((t: any) => !t.name.startsWith('own-')).map((t: any) => [t.name.toLowerCase(), t.code_count]),
    ).toEqual([
      ['alpha', 8],
      ['zulu', 8],
    ]);
  });

  it('PATCH replaces the set, [] clears it, and leaving tags out keeps them', async () => {
    const code = (await createCode({ tags: ['keep-a', 'keep-b'] })).body;
    expect((await app.request('PATCH', `/v1/codes/${code.id}`, { key, body: { name: 'renamed' } })).body.tags).toEqual([
      'keep-a',
      'keep-b',
    ]);
    expect(
      (await app.request('PATCH', `/v1/codes/${code.id}`, { key, body: { tags: ['keep-b', 'new-c'] } })).body.tags,
    ).toEqual(['keep-b', 'new-c']);
    expect((await app.request('PATCH', `/v1/codes/${code.id}`, { key, body: { tags: [] } })).body.tags).toEqual([]);
    expect((await app.request('GET', `/v1/codes/${code.id}`, { key })).body.tags).toEqual([]);
    // The tags stay in the account without codes.
    expect((await allTags()).find((t: any) => t.name === 'new-c').code_count).toBe(0);
  });

  it('a code has at most 20 tags (422 naming `tags`), counted after duplicates collapse', async () => {
    const twenty = Array.from({ length: 20 }, (_, i) => `cap-${i}`);
    const before = (await app.request('GET', '/v1/codes?limit=500', { key })).body.data.length;
    const tooMany = await createCode({ tags: [...twenty, 'cap-20'] });
    expect(tooMany.status).toBe(422);
    expect(paths(tooMany)).toEqual(['tags']);
    expect((await app.request('GET', '/v1/codes?limit=500', { key })).body.data.length).toBe(before);
    expect((await allTags()).some((t: any) => t.name === 'cap-0')).toBe(false);
    const collapsing = await createCode({ tags: [...twenty, 'CAP-0', 'cap-19 '] });
    expect(collapsing.status, collapsing.text).toBe(201);
    expect(collapsing.body.tags).toHaveLength(20);
    const patch = await app.request('PATCH', `/v1/codes/${collapsing.body.id}`, {
      key,
      body: { tags: [...twenty, 'one-more'] },
    });
    expect(patch.status).toBe(422);
    expect((await app.request('GET', `/v1/codes/${collapsing.body.id}`, { key })).body.tags).toHaveLength(20);
  });

  it('refuses tags that are not a list of names, naming the field', async () => {
    for (const tags of ['print', [42], [''], ['a|b'], ['x'.repeat(51)], null]) {
      const res = await createCode({ tags });
      expect(res.status, JSON.stringify(tags)).toBe(422);
      expect(paths(res)[0]).toMatch(/^tags/);
    }
  });

  it('carries tags in webhook payloads of code events', async () => {
    const own = await app.newAccountKey('tags-hooks');
    const endpoint = await app.request('POST', '/v1/webhooks', {
      key: own,
      body: { url: 'https://hooks.example.com/tags', events: ['code.created', 'code.updated'] },
    });
    expect(endpoint.status, endpoint.text).toBe(201);
    const code = (await createCode({ tags: ['hooked'] }, own)).body;
    await app.request('PATCH', `/v1/codes/${code.id}`, { key: own, body: { tags: ['Hooked', 'again'] } });
    const deliveries = (await app.request('GET', `/v1/webhooks/${endpoint.body.id}/deliveries`, { key: own })).body
      .data;
    const events = await Promise.all(
      deliveries.map(
        async (d: any) =>
          (await app.request('GET', `/v1/webhooks/${endpoint.body.id}/deliveries/${d.id}`, { key: own })).body.event,
      ),
    );
    expect(Object.fromEntries(events.map((e: any) => [e.type, e.data.tags]))).toEqual({
      'code.created': ['hooked'],
      'code.updated': ['again', 'hooked'],
    });
  });
});

describe('a per-account cap on tags (TAGS_PER_ACCOUNT)', () => {
  let capped: TestApp;
  let own: string;
  beforeAll(async () => {
    capped = await getTestApp({ TAGS_PER_ACCOUNT: '3' });
    own = await capped.newAccountKey('capped');
  });
  afterAll(() => capped.close());

  it('refuses a tag past the cap with a 422 naming the setting, whether made directly or on the fly', async () => {
    expect((await capped.request('POST', '/v1/tags', { key: own, body: { name: 'one' } })).status).toBe(201);
    const code = await capped.request('POST', '/v1/codes', {
      key: own,
      body: { content: 'https://example.com/capped', tags: ['two', 'three'] },
    });
    expect(code.status, code.text).toBe(201);
    const direct = await capped.request('POST', '/v1/tags', { key: own, body: { name: 'four' } });
    expect(direct.status).toBe(422);
    expect(direct.body.detail).toContain('TAGS_PER_ACCOUNT');
    const onTheFly = await capped.request('POST', '/v1/codes', {
      key: own,
      body: { content: 'https://example.com/capped-2', tags: ['one', 'four'] },
    });
    expect(onTheFly.status).toBe(422);
    expect(paths(onTheFly)).toEqual(['tags']);
    expect(onTheFly.body.detail).toContain('TAGS_PER_ACCOUNT');
    const bulk = await capped.request('POST', '/v1/codes/bulk', {
      key: own,
      body: { codes: [{ content: 'https://example.com/b', tags: ['five'] }] },
    });
    expect(bulk.status).toBe(422);
    expect((await capped.request('GET', '/v1/codes', { key: own })).body.data).toHaveLength(1);
    expect((await capped.request('GET', '/v1/tags', { key: own })).body.data.map((t: any) => t.name)).toEqual([
      'one',
      'three',
      'two',
    ]);
    // Existing tags are still free to use, and another account has its own allowance.
    expect(
      (
        await capped.request('POST', '/v1/codes', {
          key: own,
          body: { content: 'https://example.com/capped-3', tags: ['ONE', 'two'] },
        })
      ).status,
    ).toBe(201);
    const other = await capped.newAccountKey('capped-other');
    expect((await capped.request('POST', '/v1/tags', { key: other, body: { name: 'four' } })).status).toBe(201);
  });
});

describe('filtering codes by tag', () => {
  it('lists codes with any of the named tags (any case), each once, across pages with no gap or repeat', async () => {
    const own = await app.newAccountKey('tags-filter');
    const ids = { a: [] as string[], b: [] as string[], both: [] as string[], none: [] as string[] };
    for (let i = 0; i < 4; i++) {
      ids.a.push((await createCode({ tags: ['Red'] }, own)).body.id);
      ids.b.push((await createCode({ tags: ['blue'] }, own)).body.id);
      ids.both.push((await createCode({ tags: ['red', 'Blue', 'green'] }, own)).body.id);
      ids.none.push((await createCode({ tags: ['green'] }, own)).body.id);
    }
    const red = (await walk('tag=RED', 50, own)).flat();
    expect(red.sort()).toEqual([...ids.a, ...ids.both].sort());
    for (const limit of [1, 3, 5]) {
      const pages = await walk('tag=red&tag=BLUE', limit, own);
      const seen = pages.flat();
      expect(new Set(seen).size).toBe(seen.length);
      expect(seen.sort()).toEqual([...ids.a, ...ids.b, ...ids.both].sort());
      expect(pages.slice(0, -1).every((p) => p.length === limit)).toBe(true);
    }
    // Newest first, as without a filter.
    const ordered = (await walk('tag=blue&sort=created_at', 50, own)).flat();
    const everything = (await walk('sort=created_at', 50, own)).flat();
    expect(ordered).toEqual(everything.filter((id) => ids.b.includes(id) || ids.both.includes(id)));
    const unknown = await app.request('GET', '/v1/codes?tag=purple', { key: own });
    expect(unknown.status).toBe(200);
    expect(unknown.body).toMatchObject({ data: [], next_cursor: null });
    const combined = (await walk('tag=green&q=example', 50, own)).flat();
    expect(combined.sort()).toEqual([...ids.both, ...ids.none].sort());
  });

  it('refuses a bad tag parameter with a 422 naming `tag`', async () => {
    const res = await app.request('GET', `/v1/codes?tag=${'x'.repeat(300)}`, { key });
    expect(res.status).toBe(422);
    expect(paths(res)).toContain('tag');
  });
});

describe('analytics overview by tag', () => {
  it('counts totals, trend and top codes of the codes carrying the tag now', async () => {
    const own = await app.newAccountKey('tags-analytics');
    const tagged = (await createCode({ tags: ['Campaign'] }, own)).body;
    const alsoTagged = (await createCode({ tags: ['campaign', 'x'] }, own)).body;
    const untagged = (await createCode({ tags: ['x'] }, own)).body;
    await recordScans(app, own, tagged, [
      { at: '2026-03-02T10:00:00Z', visitor: 'a', country: 'DE' },
      { at: '2026-03-02T11:00:00Z', visitor: 'a', country: 'DE' },
      { at: '2026-03-03T09:30:00Z', visitor: 'b', country: 'FR' },
    ]);
    await recordScans(app, own, alsoTagged, [{ at: '2026-03-02T12:00:00Z', visitor: 'a', country: 'US' }]);
    await recordScans(app, own, untagged, [
      { at: '2026-03-02T12:00:00Z', visitor: 'c', country: 'JP' },
      { at: '2026-03-02T13:00:00Z', visitor: 'd', country: 'JP' },
      { at: '2026-03-02T14:00:00Z', visitor: 'e', country: 'JP' },
      { at: '2026-03-02T15:00:00Z', visitor: 'f', country: 'JP' },
    ]);
    const range = 'from=2026-03-01&to=2026-03-03';
    // Daily rollups (UTC) and quarter-hour ones (a half-hour zone) must agree.
    for (const zone of ['UTC', 'Asia/Kolkata']) {
      const all = (await app.request('GET', `/v1/analytics/overview?${range}&timezone=${zone}`, { key: own })).body;
      const res = await app.request('GET', `/v1/analytics/overview?${range}&timezone=${zone}&tag=CAMPAIGN`, {
        key: own,
      });
      expect(res.status, res.text).toBe(200);
      const body = res.body;
      expect(all.total_scans).toBe(8);
      expect(body.total_scans).toBe(4);
      // A visitor counts once per code: a on two codes, b once.
      expect(body.unique_scans).toBe(3);
      expect(body.total_codes).toBe(2);
      expect(body.active_codes).toBe(2);
      expect(body.top_codes.map((c: any) => [c.id, c.scans])).toEqual([
        [tagged.id, 3],
        [alsoTagged.id, 1],
      ]);
      expect(body.trend.reduce((sum: number, p: any) => sum + p.scans, 0)).toBe(4);
      expect(Object.fromEntries(body.breakdowns.country.map((c: any) => [c.value, c.scans]))).toEqual({
        DE: 2,
        FR: 1,
        US: 1,
      });
    }
    // At query time: untagging a code takes its scans out.
    await app.request('PATCH', `/v1/codes/${alsoTagged.id}`, { key: own, body: { tags: [] } });
    expect((await app.request('GET', `/v1/analytics/overview?${range}&tag=campaign`, { key: own })).body).toMatchObject(
      { total_scans: 3, total_codes: 1 },
    );
    const none = (await app.request('GET', `/v1/analytics/overview?${range}&tag=nothing`, { key: own })).body;
    expect(none).toMatchObject({ total_scans: 0, unique_scans: 0, total_codes: 0, active_codes: 0, top_codes: [] });
    const bad = await app.request('GET', `/v1/analytics/overview?${range}&tag=`, { key: own });
    expect(bad.status).toBe(422);
    expect(paths(bad)).toContain('tag');
  });
});

describe('bulk and CSV', () => {
  it('bulk JSON items carry tags, the missing ones made once for the call', async () => {
    const own = await app.newAccountKey('tags-bulk');
    await createTag({ name: 'Shelf' }, own);
    const res = await app.request('POST', '/v1/codes/bulk', {
      key: own,
      body: {
        codes: [
          { content: 'https://example.com/b1', tags: ['shelf', 'aisle-4'] },
          { content: 'https://example.com/b2', tags: ['Aisle-4'] },
          { content: 'https://example.com/b3' },
        ],
      },
    });
    expect(res.status, res.text).toBe(201);
    expect(res.body.data.map((c: any) => c.tags)).toEqual([['aisle-4', 'Shelf'], ['aisle-4'], []]);
    expect((await allTags(own)).map((t: any) => [t.name, t.code_count])).toEqual([
      ['aisle-4', 2],
      ['Shelf', 1],
    ]);
    const bad = await app.request('POST', '/v1/codes/bulk', {
      key: own,
      body: { codes: [{ content: 'https://example.com/b4' }, { content: 'https://example.com/b5', tags: [''] }] },
    });
    expect(bad.status).toBe(422);
    expect(paths(bad)).toEqual(['codes.1.tags.0']);
  });

  it('a CSV `tags` column holds names separated by |', async () => {
    const own = await app.newAccountKey('tags-csv');
    const csv =
      'content,tags,name\nhttps://example.com/c1,"Window | door, ' +
      'front",one\nhttps://example.com/c2,,two\nhttps://example.com/c3,window,three\n';
    const res = await app.request('POST', '/v1/codes/bulk', {
      key: own,
      rawBody: csv,
      headers: { 'content-type': 'text/csv' },
    });
    expect(res.status, res.text).toBe(201);
    expect(res.body.data.map((c: any) => c.tags)).toEqual([['door, front', 'Window'], [], ['Window']]);
    const tooLong = await app.request('POST', '/v1/codes/bulk', {
      key: own,
      rawBody: `content,tags\nhttps://example.com/c4,ok|${'x'.repeat(51)}\n`,
      headers: { 'content-type': 'text/csv' },
    });
    expect(tooLong.status).toBe(422);
    expect(paths(tooLong)).toEqual(['row 2.tags.1']);
  });
});

describe('GraphQL', () => {
  it('creates, lists, renames and deletes tags; codes carry, change and filter by them', async () => {
    const own = await app.newAccountKey('tags-gql');
    const created = await app.graphql(
      own,
      'mutation { createTag(input: { name: "Menu", color: "#123ABC" }) { id name color codeCount } }',
    );
    const tag = created.body.data.createTag;
    expect(tag).toMatchObject({ name: 'Menu', color: '#123abc', codeCount: 0 });
    const code = (
      await app.graphql(
        own,
        'mutation { createCode(input: { content: "https://example.com/g1", tags: ["menu", "table"] }) { id tags } }',
      )
    ).body.data.createCode;
    expect(code.tags).toEqual(['Menu', 'table']);
    await app.graphql(own, 'mutation { createCode(input: { content: "https://example.com/g2" }) { id } }');
    const filtered = await app.graphql(
      own,
      '{ codes(first: 10, filter: { tags: ["TABLE", "nothing"] }) { edges { node { id tags } } } }',
    );
    expect(filtered.body.data.codes.edges.map((e: any) => e.node.id)).toEqual([code.id]);
    const listed = await app.graphql(
      own,
      '{ tags(first: 1) { edges { node { name codeCount } } pageInfo { hasNextPage endCursor } } }',
    );
    expect(listed.body.data.tags.edges.map((e: any) => e.node)).toEqual([{ name: 'Menu', codeCount: 1 }]);
    const next = await app.graphql(
      own,
      `{ tags(first: 5, after: "${listed.body.data.tags.pageInfo.endCursor}") { edges { node { name } } pageInfo { ` +
        `hasNextPage } } }`,
    );
    expect(next.body.data.tags).toEqual({ edges: [{ node: { name: 'table' } }], pageInfo: { hasNextPage: false } });
    const renamed = await app.graphql(
      own,
      `mutation { updateTag(id: "${tag.id}", input: { name: "Menus", color: null }) { name color } }`,
    );
    expect(renamed.body.data.updateTag).toEqual({ name: 'Menus', color: null });
    const clash = await app.graphql(own, `mutation { updateTag(id: "${tag.id}", input: { name: "TABLE" }) { name } }`);
    expect(clash.body.errors[0].extensions.code).toBe('CONFLICT');
    const retagged = await app.graphql(own, `mutation { updateCode(id: "${code.id}", input: { tags: [] }) { tags } }`);
    expect(retagged.body.data.updateCode.tags).toEqual([]);
    expect(
      (await app.graphql(own, `mutation { deleteTag(id: "${tag.id}") { deletedId } }`)).body.data.deleteTag.deletedId,
    ).toBe(tag.id);
    expect((await app.graphql(own, `{ tag(id: "${tag.id}") { id } }`)).body.data.tag).toBeNull();
    const overview = await app.graphql(own, '{ analyticsOverview(tag: "table") { totalCodes } }');
    expect(overview.body.errors).toBeUndefined();
    expect(overview.body.data.analyticsOverview.totalCodes).toBe(0);
  });
});

describe('isolation', () => {
  it('another account’s tags are never seen, changed or matched', async () => {
    const mine = await app.newAccountKey('tags-mine');
    const theirs = await app.newAccountKey('tags-theirs');
    const myCode = (await createCode({ tags: ['shared-name'] }, mine)).body;
    const theirTag = (await createTag({ name: 'secret' }, theirs)).body;
    const theirCode = (await createCode({ tags: ['secret', 'shared-name'] }, theirs)).body;
    // The same name in two accounts is two tags.
    expect((await createTag({ name: 'Secret' }, mine)).status).toBe(201);
    for (const [method, body] of [
      ['GET', undefined],
      ['PATCH', { name: 'mine now' }],
      ['DELETE', undefined],
    ] as const) {
      expect((await app.request(method, `/v1/tags/${theirTag.id}`, { key: mine, body })).status).toBe(404);
    }
    expect((await app.request('GET', `/v1/tags/${theirTag.id}`, { key: theirs })).body).toMatchObject({
      name: 'secret',
      code_count: 1,
    });
    expect((await allTags(mine)).map((t: any) => t.name)).toEqual(['Secret', 'shared-name']);
    expect((await allTags(mine)).find((t: any) => t.name === 'shared-name').code_count).toBe(1);
    expect(
      (await app.request('GET', '/v1/codes?tag=shared-name', { key: mine })).body.data.map((c: any) => c.id),
    ).toEqual([myCode.id]);
    expect((await app.request('GET', '/v1/codes?tag=secret', { key: mine })).body.data).toEqual([]);
    expect((await app.request('GET', '/v1/codes?tag=secret', { key: theirs })).body.data.map((c: any) => c.id)).toEqual(
      [theirCode.id],
    );
    expect((await app.graphql(mine, `{ tag(id: "${theirTag.id}") { id } }`)).body.data.tag).toBeNull();
    expect(
      (await app.graphql(mine, `mutation { deleteTag(id: "${theirTag.id}") { deletedId } }`)).body.errors[0].extensions
        .code,
    ).toBe('NOT_FOUND');
    const overview = (await app.request('GET', '/v1/analytics/overview?tag=secret', { key: mine })).body;
    expect(overview.total_codes).toBe(0);
  });

  it('tag routes need the codes scopes: read to list, write to change', async () => {
    const reader = await app.newAccountKey('tags-reader', { scopes: ['codes:read'] });
    expect((await app.request('GET', '/v1/tags', { key: reader })).status).toBe(200);
    expect((await createTag({ name: 'nope' }, reader)).status).toBe(403);
    expect((await app.request('GET', '/v1/tags')).status).toBe(401);
  });
});
