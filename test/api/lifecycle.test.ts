// A code's lifecycle: paused and archived codes, expiry and max_scans, through the
// real scan route. Fallback destinations get a 302 (no rules, forward_query kept); without one a
// paused code answers 404 and an expired or used-up one 410, as HTML or problem+json. Every scan
// is recorded with its outcome; bots never count toward max_scans. Archived codes leave lists
// unless asked for. Bad input is a 422 naming the field, another account's codes stay unseen.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getTestApp, type TestApp } from '../support/app.ts';

let app: TestApp;
let key: string;
let otherKey: string;

beforeAll(async () => {
  app = await getTestApp({ GEO_COUNTRY_HEADER: 'X-Test-Country' });
  key = await app.newAccountKey('lifecycle');
  otherKey = await app.newAccountKey('lifecycle-other');
});
afterAll(() => app.close());

const BROWSER =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 ' +
  'Mobile/15E148 Safari/604.1';
const BOT = 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)';

async function scan(url: string, headers: Record<string, string> = {}) {
  const res = await fetch(url, { redirect: 'manual', headers: { 'user-agent': BROWSER, ...headers } });
  return {
    status: res.status,
    location: res.headers.get('location'),
    type: res.headers.get('content-type'),
    headers: res.headers,
    text: await res.text(),
  };
}

async function create(body: Record<string, unknown>, k = key) {
  const res = await app.request('POST', '/v1/codes', { key: k, body });
  expect(res.status, res.text).toBe(201);
  return res.body;
}

const patch = (id: string, body: Record<string, unknown>, k = key) =>
  app.request('PATCH', `/v1/codes/${id}`, { key: k, body });

async function rawOutcomes(id: string): Promise<{ outcome: string; is_bot: boolean }[]> {
  await app.services.scans.recorder.flush();
  const res = await app.request('GET', `/v1/codes/${id}/scans/raw?limit=500`, { key });
  expect(res.status, res.text).toBe(200);
  return res.body.data.map((s: any) => ({ outcome: s.outcome, is_bot: s.is_bot }));
}

describe('defaults', () => {
  it('a new code is active with no fallbacks, expiry or limit, and scans redirect', async () => {
    const code = await create({ content: 'https://example.com/plain' });
    expect(code).toMatchObject({
      status: 'active',
      state: 'active',
      paused_destination: null,
      expires_at: null,
      expired_destination: null,
      max_scans: null,
    });
    expect((await scan(code.scan_url)).location).toBe('https://example.com/plain');
    expect(await rawOutcomes(code.id)).toEqual([{ outcome: 'redirect', is_bot: false }]);
  });
});

describe('paused and archived', () => {
  it(
    'a paused code without a fallback answers 404: an HTML page for browsers, a problem for JSON clients, never ' +
      'cached',
    async () => {
      const code = await create({
        content: 'https://example.com/live',
        routing: { rules: [{ condition: 'country:DE', destination: 'https://example.de/' }] },
      });
      const paused = await patch(code.id, { status: 'paused' });
      expect(paused.status, paused.text).toBe(200);
      expect(paused.body).toMatchObject({ status: 'paused', state: 'paused' });

      const html = await scan(code.scan_url, { accept: 'text/html,application/xhtml+xml', 'x-test-country': 'DE' });
      expect(html.status).toBe(404);
      expect(html.type).toMatch(/^text\/html/);
      expect(html.text).toContain('This code is paused');
      expect(html.headers.get('cache-control')).toBe('no-store');
      expect(html.headers.get('content-security-policy')).toContain("default-src 'none'");
      expect(html.text).not.toMatch(/https?:\/\//);

      const json = await scan(code.scan_url, { accept: 'application/json' });
      expect(json.status).toBe(404);
      expect(json.type).toBe('application/problem+json');
      expect(JSON.parse(json.text)).toMatchObject({ type: '/problems/code-paused', status: 404 });

      // Resumed: the next scan goes to the destination again (the cache was told).
      expect((await patch(code.id, { status: 'active' })).body.state).toBe('active');
      expect((await scan(code.scan_url)).location).toBe('https://example.com/live');
      expect((await rawOutcomes(code.id)).map((s) => s.outcome)).toEqual(['paused', 'paused', 'redirect']);
    },
  );

  it('a paused code with paused_destination sends scans there, rules left aside and forward_query kept', async () => {
    const code = await create({
      content: 'https://example.com/main',
      forward_query: true,
      status: 'paused',
      paused_destination: 'https://example.com/back-soon',
      routing: { rules: [{ condition: 'country:DE', destination: 'https://example.de/' }] },
    });
    expect(code).toMatchObject({
      status: 'paused',
      state: 'paused',
      paused_destination: 'https://example.com/back-soon',
    });
    const res = await scan(`${code.scan_url}?utm_source=flyer`, { 'x-test-country': 'DE' });
    expect(res.status).toBe(302);
    expect(res.location).toBe('https://example.com/back-soon?utm_source=flyer');
    expect(await rawOutcomes(code.id)).toEqual([{ outcome: 'paused', is_bot: false }]);
  });

  it('an archived code scans like a paused one, answers GET by id, and leaves lists unless asked for', async () => {
    const k = await app.newAccountKey('lifecycle-lists');
    const ids: Record<string, string> = {};
    for (const status of ['active', 'paused', 'archived'] as const) {
      ids[status] = (await create({ content: `https://example.com/${status}`, status }, k)).id;
    }
    const archivedScan = await scan((await app.request('GET', `/v1/codes/${ids.archived}`, { key: k })).body.scan_url);
    expect(archivedScan.status).toBe(404);

    const list = async (query: string) =>
      (await app.request('GET', `/v1/codes${query}`, { key: k })).body.data.map((c: any) => c.id).sort();
    expect(await list('')).toEqual([ids.active, ids.paused].sort());
    expect(await list('?status=archived')).toEqual([ids.archived]);
    expect(await list('?status=active,archived')).toEqual([ids.active, ids.archived].sort());
    expect(await list('?status=paused&status=archived')).toEqual([ids.paused, ids.archived].sort());
    expect((await app.request('GET', '/v1/codes?status=deleted', { key: k })).body.errors).toEqual([
      { path: 'status.0', message: 'must be one of active, paused, archived' },
    ]);

    // GraphQL: the same default and filter.
    const gql = async (filter: string) =>
      (await app.graphql(k, `{ codes${filter} { edges { node { id status state } } } }`)).body.data.codes.edges
        .map((e: any) => e.node.id)
        .sort();
    expect(await gql('')).toEqual([ids.active, ids.paused].sort());
    expect(await gql('(filter: { status: [ARCHIVED] })')).toEqual([ids.archived]);

    // Archived codes do not count: the overview's total leaves them out.
    const overview = await app.request('GET', '/v1/analytics/overview', { key: k });
    expect(overview.status, overview.text).toBe(200);
    expect(overview.body.total_codes).toBe(2);
  });

  it('pages through archived codes with a cursor, and the default list skips them across pages', async () => {
    const k = await app.newAccountKey('lifecycle-pages');
    const archived: string[] = [];
    const active: string[] = [];
    for (let i = 0; i < 5; i++) {
      archived.push((await create({ content: `https://example.com/a${i}`, status: 'archived' }, k)).id);
      active.push((await create({ content: `https://example.com/b${i}` }, k)).id);
    }
    async function walk(query: string): Promise<string[]> {
      const seen: string[] = [];
      let cursor: string | null = null;
      do {
        const res: any = await app.request(
          'GET',
          `/v1/codes?limit=2${query}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`,
          { key: k },
        );
        expect(res.status, res.text).toBe(200);
        seen.push(...res.body.data.map((c: any) => c.id));
        cursor = res.body.next_cursor ?? null;
      } while (cursor);
      return seen.sort();
    }
    expect(await walk('&status=archived')).toEqual([...archived].sort());
    expect(await walk('')).toEqual([...active].sort());
  });
});

describe('expiry', () => {
  it('redirects until expires_at, not a moment after, even when cached; then the fallback or a 410', async () => {
    // Created first (drawing and checking the image can take a while on a busy machine), then
    // given an expiry two seconds ahead: one PATCH and one scan fit well within that.
    const code = await create({ content: 'https://example.com/until' });
    const expiresAt = new Date(Date.now() + 2000);
    const set = await patch(code.id, { expires_at: expiresAt.toISOString() });
    expect(set.body).toMatchObject({ state: 'active', expires_at: expiresAt.toISOString() });
    code.expires_at = set.body.expires_at;
    // Scanned before: the code is in the scan cache, which carries the instant.
    expect((await scan(code.scan_url)).location).toBe('https://example.com/until');
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, expiresAt.getTime() - Date.now()) + 5));

    const html = await scan(code.scan_url, { accept: 'text/html' });
    expect(html.status).toBe(410);
    expect(html.text).toContain('This code has expired');
    expect(html.headers.get('cache-control')).toBe('no-store');
    const json = await scan(code.scan_url, { accept: 'application/json' });
    expect(json.status).toBe(410);
    expect(JSON.parse(json.text)).toMatchObject({ type: '/problems/code-expired', status: 410 });
    expect((await app.request('GET', `/v1/codes/${code.id}`, { key })).body.state).toBe('expired');
    // An editor saving the whole form may send the passed instant back unchanged; another past one is refused.
    expect((await patch(code.id, { expires_at: code.expires_at, name: 'Ended' })).status).toBe(200);
    const earlier = await patch(code.id, { expires_at: new Date(expiresAt.getTime() - 1000).toISOString() });
    expect(earlier.status).toBe(422);
    expect(earlier.body.errors).toEqual([{ path: 'expires_at', message: 'must be in the future' }]);

    expect((await patch(code.id, { expired_destination: 'https://example.com/over' })).status).toBe(200);
    expect((await scan(code.scan_url)).location).toBe('https://example.com/over');
    expect((await rawOutcomes(code.id)).map((s) => s.outcome)).toEqual(['redirect', 'expired', 'expired', 'expired']);

    // A new instant in the future brings it back; null removes the expiry.
    const later = new Date(Date.now() + 3_600_000).toISOString();
    expect((await patch(code.id, { expires_at: later })).body).toMatchObject({ state: 'active', expires_at: later });
    expect((await scan(code.scan_url)).location).toBe('https://example.com/until');
    expect((await patch(code.id, { expires_at: null })).body.expires_at).toBeNull();
  });
});

describe('max_scans', () => {
  it('the first max_scans non-bot scans redirect, bots and HEAD do not count, the next gets the fallback', async () => {
    const code = await create({
      content: 'https://example.com/limited',
      max_scans: 3,
      expired_destination: 'https://example.com/sold-out',
    });
    expect(code).toMatchObject({ max_scans: 3, state: 'active' });
    expect((await scan(code.scan_url)).location).toBe('https://example.com/limited');
    expect((await scan(code.scan_url, { 'user-agent': BOT })).location).toBe('https://example.com/limited');
    expect((await fetch(code.scan_url, { method: 'HEAD', redirect: 'manual' })).headers.get('location')).toBe(
      'https://example.com/limited',
    );
    expect((await scan(code.scan_url)).location).toBe('https://example.com/limited');
    await app.services.scans.recorder.flush();
    // Each use was claimed in the database as it was answered: the third still goes through.
    expect((await scan(code.scan_url)).location).toBe('https://example.com/limited');
    expect((await scan(code.scan_url)).location).toBe('https://example.com/sold-out');
    expect((await scan(code.scan_url, { 'user-agent': BOT })).location).toBe('https://example.com/sold-out');
    expect(await rawOutcomes(code.id)).toEqual([
      { outcome: 'redirect', is_bot: false },
      { outcome: 'redirect', is_bot: true },
      { outcome: 'redirect', is_bot: false },
      { outcome: 'redirect', is_bot: false },
      { outcome: 'limit_reached', is_bot: false },
      { outcome: 'limit_reached', is_bot: true },
    ]);
    expect((await app.request('GET', `/v1/codes/${code.id}`, { key })).body.state).toBe('limit_reached');
    // Totals still count every scan received.
    const analytics = await app.request('GET', `/v1/codes/${code.id}/scans?include_bots=true`, { key });
    expect(analytics.status, analytics.text).toBe(200);
    expect(analytics.body.total_scans).toBe(6);

    // Raising the limit lets scans through again; without a fallback, the used-up code is a 410.
    expect((await patch(code.id, { max_scans: 4 })).body.state).toBe('active');
    expect((await scan(code.scan_url)).location).toBe('https://example.com/limited');
    expect((await patch(code.id, { expired_destination: null })).body.state).toBe('limit_reached');
    const gone = await scan(code.scan_url, { accept: 'application/json' });
    expect(gone.status).toBe(410);
    expect(JSON.parse(gone.text).detail).toMatch(/scan limit/);
  });

  it('exactly max_scans of many concurrent scans redirect', async () => {
    const code = await create({ content: 'https://example.com/burst', max_scans: 10 });
    const answers = await Promise.all(
      Array.from({ length: 25 }, () => scan(code.scan_url, { accept: 'application/json' })),
    );
    expect(answers.filter((a) => a.status === 302)).toHaveLength(10);
    expect(answers.filter((a) => a.status === 410)).toHaveLength(15);
  });

  it('a limit removed and set again counts every scan that went to the destination, those in between too', async () => {
    const code = await create({ content: 'https://example.com/again', max_scans: 2 });
    expect((await scan(code.scan_url)).status).toBe(302);
    expect((await scan(code.scan_url)).status).toBe(302);
    expect((await scan(code.scan_url)).status).toBe(410);
    expect((await patch(code.id, { max_scans: null })).body.state).toBe('active');
    expect((await scan(code.scan_url)).status).toBe(302);
    await app.services.scans.recorder.flush();
    // Three went to the destination, so a limit of 4 leaves one.
    expect((await patch(code.id, { max_scans: 4 })).body.state).toBe('active');
    expect((await scan(code.scan_url)).status).toBe(302);
    expect((await scan(code.scan_url)).status).toBe(410);
    expect((await app.request('GET', `/v1/codes/${code.id}`, { key })).body.state).toBe('limit_reached');
  });

  it('a paused scan does not use up the limit', async () => {
    const code = await create({ content: 'https://example.com/p', max_scans: 1, status: 'paused' });
    expect((await scan(code.scan_url)).status).toBe(404);
    await patch(code.id, { status: 'active' });
    expect((await scan(code.scan_url)).location).toBe('https://example.com/p');
    expect((await scan(code.scan_url)).status).toBe(410);
  });
});

describe('GraphQL', () => {
  it('sets and reads the fields, and clears them with null', async () => {
    const expires = new Date(Date.now() + 86_400_000).toISOString();
    const created = await app.graphql(
      key,
      `mutation { createCode(input: { content: "https://example.com/g", status: PAUSED, pausedDestination: ` +
        `"https://example.com/gp", expiresAt: "${expires}", expiredDestination: "https://example.com/ge", ` +
        `maxScans: 5 }) { id status state pausedDestination expiresAt expiredDestination maxScans } }`,
    );
    expect(created.body.errors).toBeUndefined();
    const code = created.body.data.createCode;
    expect(code).toMatchObject({
      status: 'PAUSED',
      state: 'PAUSED',
      pausedDestination: 'https://example.com/gp',
      expiredDestination: 'https://example.com/ge',
      maxScans: 5,
    });
    expect(new Date(code.expiresAt).toISOString()).toBe(expires);
    const updated = await app.graphql(
      key,
      `mutation { updateCode(id: "${code.id}", input: { status: ACTIVE, maxScans: null, expiresAt: null, ` +
        `pausedDestination: null }) { status state maxScans expiresAt pausedDestination expiredDestination } }`,
    );
    expect(updated.body.data.updateCode).toEqual({
      status: 'ACTIVE',
      state: 'ACTIVE',
      maxScans: null,
      expiresAt: null,
      pausedDestination: null,
      expiredDestination: 'https://example.com/ge',
    });
    const bad = await app.graphql(key, `mutation { updateCode(id: "${code.id}", input: { maxScans: 0 }) { id } }`);
    expect(bad.body.errors?.[0]?.extensions?.errors ?? bad.body.errors).toBeTruthy();
  });
});

describe('bad input', () => {
  const cases: [string, Record<string, unknown>, string][] = [
    ['an unknown status', { status: 'deleted' }, 'status'],
    ['a past expires_at', { expires_at: '2020-01-01T00:00:00Z' }, 'expires_at'],
    ['a garbled expires_at', { expires_at: 'next tuesday' }, 'expires_at'],
    ['an expires_at without an offset', { expires_at: '2099-01-01T00:00:00' }, 'expires_at'],
    ['max_scans 0', { max_scans: 0 }, 'max_scans'],
    ['max_scans -3', { max_scans: -3 }, 'max_scans'],
    ['a fractional max_scans', { max_scans: 2.5 }, 'max_scans'],
    ['a string max_scans', { max_scans: '10' }, 'max_scans'],
    ['a javascript: paused_destination', { paused_destination: 'javascript:alert(1)' }, 'paused_destination'],
    ['a relative expired_destination', { expired_destination: '/over' }, 'expired_destination'],
  ];
  it.each(cases)(
    'refuses %s on create and update with a 422 naming the field, changing nothing',
    async (_what, fields, path) => {
      const before = (await app.request('GET', '/v1/codes?limit=500&status=active,paused,archived', { key })).body.data
        .length;
      const created = await app.request('POST', '/v1/codes', {
        key,
        body: { content: 'https://example.com/bad', ...fields },
      });
      expect(created.status).toBe(422);
      expect(created.body.errors.map((e: any) => e.path)).toContain(path);
      expect(
        (await app.request('GET', '/v1/codes?limit=500&status=active,paused,archived', { key })).body.data.length,
      ).toBe(before);

      const code = await create({ content: 'https://example.com/unchanged' });
      const updated = await patch(code.id, fields);
      expect(updated.status).toBe(422);
      expect(updated.body.errors.map((e: any) => e.path)).toContain(path);
      expect((await app.request('GET', `/v1/codes/${code.id}`, { key })).body).toMatchObject({
        status: 'active',
        paused_destination: null,
        expires_at: null,
        expired_destination: null,
        max_scans: null,
        updated_at: code.updated_at,
      });
    },
  );

  it('a static code takes a status but none of the url-only fields', async () => {
    const text = await create({ type: 'text', content: { text: 'hello' }, status: 'archived' });
    expect(text).toMatchObject({ status: 'archived', state: 'paused', max_scans: null });
    for (const field of ['paused_destination', 'expires_at', 'expired_destination', 'max_scans']) {
      const value =
        field === 'max_scans' ? 5 : field === 'expires_at' ? '2099-01-01T00:00:00Z' : 'https://example.com/x';
      const created = await app.request('POST', '/v1/codes', {
        key,
        body: { type: 'text', content: { text: 'x' }, [field]: value },
      });
      expect(created.status).toBe(422);
      expect(created.body.errors).toContainEqual({ path: field, message: expect.stringMatching(/url codes only/) });
      expect((await patch(text.id, { [field]: value })).status).toBe(422);
    }
    expect((await patch(text.id, { status: 'active' })).body.status).toBe('active');
  });
});

describe('bulk', () => {
  it('takes the fields in JSON and in CSV columns, and names a bad row’s cell', async () => {
    const expires = new Date(Date.now() + 86_400_000).toISOString();
    const json = await app.request('POST', '/v1/codes/bulk', {
      key,
      body: {
        codes: [
          { content: 'https://example.com/j1', status: 'paused', paused_destination: 'https://example.com/jp' },
          { content: 'https://example.com/j2', max_scans: 7, expires_at: expires },
        ],
      },
    });
    expect(json.status, json.text).toBe(201);
    expect(json.body.data.map((c: any) => [c.status, c.paused_destination, c.max_scans, c.expires_at])).toEqual([
      ['paused', 'https://example.com/jp', null, null],
      ['active', null, 7, expires],
    ]);
    const csv = await app.request('POST', '/v1/codes/bulk', {
      key,
      rawBody:
        'content,status,paused_destination,expires_at,expired_destination,max_scans\n' +
        'https://example.com/c1,archived,,,,\n' +
        `https://example.com/c2,,,${expires},https://example.com/over,100\n`,
      headers: { 'content-type': 'text/csv' },
    });
    expect(csv.status, csv.text).toBe(201);
    expect(csv.body.data.map((c: any) => [c.status, c.expires_at, c.expired_destination, c.max_scans])).toEqual([
      ['archived', null, null, null],
      ['active', expires, 'https://example.com/over', 100],
    ]);
    const bad = await app.request('POST', '/v1/codes/bulk', {
      key,
      rawBody: 'content,max_scans,status\nhttps://example.com/c3,0,on\n',
      headers: { 'content-type': 'text/csv' },
    });
    expect(bad.status).toBe(422);
    expect(bad.body.errors).toEqual([
      { path: 'row 2.status', message: 'must be one of active, paused, archived' },
      { path: 'row 2.max_scans', message: 'must be at least 1' },
    ]);
  });
});

describe('webhooks', () => {
  it('code.updated carries the new status, and scan.created the outcome (null destination for a page)', async () => {
    const k = await app.newAccountKey('lifecycle-hooks');
    const endpoint = await app.request('POST', '/v1/webhooks', {
      key: k,
      body: { url: 'https://hooks.example.com/lifecycle', events: ['code.updated', 'scan.created'] },
    });
    expect(endpoint.status, endpoint.text).toBe(201);
    const code = await create({ content: 'https://example.com/hooked' }, k);
    expect((await patch(code.id, { status: 'paused' }, k)).status).toBe(200);
    expect((await scan(code.scan_url)).status).toBe(404);
    await app.services.scans.recorder.flush();
    const deliveries = (await app.request('GET', `/v1/webhooks/${endpoint.body.id}/deliveries`, { key: k })).body.data;
    const events = await Promise.all(
      deliveries.map(
        async (d: any) =>
          (await app.request('GET', `/v1/webhooks/${endpoint.body.id}/deliveries/${d.id}`, { key: k })).body.event,
      ),
    );
    const byType = Object.fromEntries(events.map((event: any) => [event.type, event.data]));
    expect(byType['code.updated']).toMatchObject({ id: code.id, status: 'paused', state: 'paused' });
    expect(byType['scan.created']).toMatchObject({ code_id: code.id, outcome: 'paused', destination: null });
  });
});

describe('isolation', () => {
  it('another account can neither see nor change a code’s lifecycle, nor find it by status', async () => {
    const code = await create({ content: 'https://example.com/mine', status: 'archived' });
    expect((await patch(code.id, { status: 'active' }, otherKey)).status).toBe(404);
    expect(
      (await app.request('GET', '/v1/codes?status=archived', { key: otherKey })).body.data.map((c: any) => c.id),
    ).not.toContain(code.id);
    const gql = await app.graphql(
      otherKey,
      '{ codes(filter: { status: [ARCHIVED, ACTIVE, PAUSED] }) { edges { node { id } } } }',
    );
    expect(gql.body.data.codes.edges.map((e: any) => e.node.id)).not.toContain(code.id);
    expect((await app.request('GET', `/v1/codes/${code.id}`, { key })).body.status).toBe('archived');
  });
});
