// Password-protected codes over real HTTP: the unlock page (strict CSP, nothing external, a
// plain form), the wrong and the right password, the signed cookie (reused, tampered, expired,
// voided by a new password), the per-code attempt limit, routing after the unlock, locked views
// counted apart from scans, webhooks saying which, and the password never in any answer.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPurgeStore } from '../../src/modules/scans/purge-store.ts';
import { unlockCookie } from '../../src/modules/scans/unlock.ts';
import { getTestApp, type TestApp } from '../support/app.ts';
import { startReceiver, type Receiver } from '../support/webhook-receiver.ts';

const PASSWORD = 'correct horse battery';
const ATTEMPTS = 4;

let app: TestApp;
let key: string;
let receiver: Receiver;

beforeAll(async () => {
  app = await getTestApp({
    GEO_COUNTRY_HEADER: 'X-Test-Country',
    UNLOCK_ATTEMPTS_PER_MINUTE: String(ATTEMPTS),
    UNLOCK_REMEMBER_SECONDS: '3600',
    ALLOW_PRIVATE_NETWORK_TARGETS: 'true',
    WEBHOOK_POLL_INTERVAL_MS: '20',
  });
  app.services.webhookWorker.start();
  key = await app.newAccountKey('password-codes');
  receiver = await startReceiver();
});
afterAll(async () => {
  await app.close();
  await receiver.close();
});

async function protectedCode(body: Record<string, unknown> = {}) {
  const res = await app.request('POST', '/v1/codes', {
    key,
    body: { content: 'https://example.com/members', password: PASSWORD, ...body },
  });
  expect(res.status, res.text).toBe(201);
  return res.body as { id: string; scan_url: string; slug?: string; password_protected: boolean };
}

const pathOf = (scanUrl: string) => new URL(scanUrl).pathname;
const scan = (scanUrl: string, headers: Record<string, string> = {}) => fetch(scanUrl, { redirect: 'manual', headers });
const tryPassword = (scanUrl: string, password: string, headers: Record<string, string> = {}) =>
  fetch(scanUrl, { method: 'POST', redirect: 'manual', headers, body: new URLSearchParams({ password }) });
const cookieOf = (res: Response) => res.headers.get('set-cookie')!.split(';')[0]!;

async function analytics(codeId: string) {
  await app.services.scans.recorder.flush();
  const from = new Date(Date.now() - 86_400_000).toISOString();
  const res = await app.request('GET', `/v1/codes/${codeId}/scans?from=${from}&include_bots=true`, { key });
  expect(res.status, res.text).toBe(200);
  return res.body as { total_scans: number; locked_views: number };
}

describe('the unlock page', () => {
  it('is a plain form posting back to the scan URL, under a strict CSP, loading nothing', async () => {
    const code = await protectedCode();
    expect(code.password_protected).toBe(true);
    const res = await scan(code.scan_url);
    expect(res.status).toBe(200);
    expect(res.headers.get('location')).toBeNull();
    expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(res.headers.get('cache-control')).toBe('no-store');
    const csp = res.headers.get('content-security-policy')!;
    expect(csp).toContain("default-src 'none'");
    expect(csp).toContain("form-action 'self'");
    expect(csp).toContain("frame-ancestors 'none'");
    const html = await res.text();
    expect(html).toContain(`<form method="post" action="${pathOf(code.scan_url)}">`);
    expect(html).toMatch(/<label for="password"[^>]*>Password<\/label>/);
    expect(html).toContain('<input id="password" name="password" type="password" required');
    expect(html).toContain('<html lang="en">');
    // Nothing to fetch or run: no script, stylesheet, image, frame or absolute URL.
    expect(html).not.toMatch(/<script|<link|<img|<iframe|src=|https?:\/\//i);
    // HEAD answers the same headers and is not a locked view.
    const head = await fetch(code.scan_url, { method: 'HEAD', redirect: 'manual' });
    expect(head.status).toBe(200);
    expect(await analytics(code.id)).toMatchObject({ total_scans: 0, locked_views: 1 });
  });

  it('answers a wrong password with the page and its error: no redirect, no cookie, no scan', async () => {
    const code = await protectedCode();
    const res = await tryPassword(code.scan_url, 'wrong horse');
    expect(res.status).toBe(403);
    expect(res.headers.get('location')).toBeNull();
    expect(res.headers.get('set-cookie')).toBeNull();
    const html = await res.text();
    expect(html).toContain('role="alert"');
    expect(html).toContain('That password is not right');
    expect(html).toContain('aria-invalid="true" aria-describedby="unlock-error"');
    const empty = await tryPassword(code.scan_url, '');
    expect(empty.status).toBe(400);
    expect(await empty.text()).toContain('Please enter the password.');
    expect(await analytics(code.id)).toMatchObject({ total_scans: 0, locked_views: 0 });
  });

  it('redirects on the right password, sets the cookie, and the cookie then skips the page', async () => {
    const code = await protectedCode();
    const res = await tryPassword(code.scan_url, PASSWORD);
    // 303 See Other: the browser follows with a GET, never posting the password on.
    expect(res.status).toBe(303);
    expect(res.headers.get('location')).toBe('https://example.com/members');
    const setCookie = res.headers.get('set-cookie')!;
    expect(setCookie).toMatch(/^qr_unlock=\d+\.[\w-]+; /);
    expect(setCookie).toContain(`Path=${pathOf(code.scan_url)}`);
    expect(setCookie).toContain('Max-Age=3600');
    expect(setCookie).toContain('HttpOnly');
    expect(setCookie).toContain('SameSite=Lax');
    const again = await scan(code.scan_url, { cookie: cookieOf(res) });
    expect(again.status).toBe(302);
    expect(again.headers.get('location')).toBe('https://example.com/members');
    // Without the cookie, the page again.
    expect((await scan(code.scan_url)).status).toBe(200);
    expect(await analytics(code.id)).toMatchObject({ total_scans: 2, locked_views: 1 });
  });

  it('shows the page again for a tampered, an expired, another code’s or an old password’s cookie', async () => {
    const code = await protectedCode();
    const other = await protectedCode();
    const cookie = cookieOf(await tryPassword(code.scan_url, PASSWORD));
    const [name, value] = cookie.split('=') as [string, string];
    const [expires, mac] = value.split('.') as [string, string];
    const flipped = `${mac.slice(0, -2)}${mac.endsWith('AA') ? 'BB' : 'AA'}`;
    for (const tampered of [
      `${name}=${expires}.${flipped}`,
      `${name}=${Number(expires) + 3600}.${mac}`,
      `${name}=${expires}`,
      `${name}=garbage`,
    ])
      expect((await scan(code.scan_url, { cookie: tampered })).status, tampered).toBe(200);
    // Another code's valid cookie does not open this one.
    expect((await scan(other.scan_url, { cookie })).status).toBe(200);
    // Signed right but expired.
    const row = await app.testDb.db('codes').where('id', code.id).first('password_hash');
    const expired = unlockCookie(
      { codeId: code.id, passwordHash: row.password_hash },
      pathOf(code.scan_url),
      Date.now() - 7200_000,
      3600,
      false,
    ).split(';')[0]!;
    expect((await scan(code.scan_url, { cookie: expired })).status).toBe(200);
    // A new password voids the cookies of the old one.
    expect((await scan(code.scan_url, { cookie })).status).toBe(302);
    const patched = await app.request('PATCH', `/v1/codes/${code.id}`, { key, body: { password: 'new secret' } });
    expect(patched.status, patched.text).toBe(200);
    expect((await scan(code.scan_url, { cookie })).status).toBe(200);
    expect((await tryPassword(code.scan_url, PASSWORD)).status).toBe(403);
    expect((await tryPassword(code.scan_url, 'new secret')).status).toBe(303);
  });

  it('limits tries per code and address with a 429 page and Retry-After', async () => {
    const code = await protectedCode();
    for (let i = 0; i < ATTEMPTS; i++) expect((await tryPassword(code.scan_url, `guess ${i}`)).status).toBe(403);
    const refused = await tryPassword(code.scan_url, PASSWORD);
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    expect(refused.headers.get('ratelimit-limit')).toBe(String(ATTEMPTS));
    expect(refused.headers.get('set-cookie')).toBeNull();
    expect(refused.headers.get('content-security-policy')).toContain("default-src 'none'");
    expect(await refused.text()).toMatch(/Too many tries: more than 4 passwords a minute.*Please wait \d+ seconds/);
    // Per code: another protected code still takes its password from the same address.
    const other = await protectedCode();
    expect((await tryPassword(other.scan_url, PASSWORD)).status).toBe(303);
  });

  it('applies routing rules after the unlock, by form and by cookie', async () => {
    const code = await protectedCode({
      routing: { rules: [{ condition: 'country:DE', destination: 'https://example.de/mitglieder' }] },
    });
    const de = { 'x-test-country': 'DE' };
    expect((await scan(code.scan_url, de)).status).toBe(200);
    const unlocked = await tryPassword(code.scan_url, PASSWORD, de);
    expect(unlocked.status).toBe(303);
    expect(unlocked.headers.get('location')).toBe('https://example.de/mitglieder');
    const cookie = cookieOf(unlocked);
    expect((await scan(code.scan_url, { ...de, cookie })).headers.get('location')).toBe(
      'https://example.de/mitglieder',
    );
    expect((await scan(code.scan_url, { cookie })).headers.get('location')).toBe('https://example.com/members');
  });

  it('sends a POST to a code without a password back to its GET, which redirects', async () => {
    const plain = await app.request('POST', '/v1/codes', { key, body: { content: 'https://example.com/open' } });
    expect(plain.body.password_protected).toBe(false);
    const posted = await tryPassword(plain.body.scan_url, 'anything');
    expect(posted.status).toBe(303);
    expect(posted.headers.get('location')).toBe(pathOf(plain.body.scan_url));
    expect((await scan(plain.body.scan_url)).headers.get('location')).toBe('https://example.com/open');
  });
});

describe('locked views', () => {
  it('are in GraphQL’s code analytics too, and the purge of a deleted code takes them', async () => {
    const code = await protectedCode();
    await scan(code.scan_url);
    await scan(code.scan_url);
    await app.services.scans.recorder.flush();
    const from = new Date(Date.now() - 86_400_000).toISOString();
    const gql = await app.graphql(
      key,
      `query ($id: ID!, $from: String) { code(id: $id) { scans(from: $from, includeBots: true) ` +
        `{ totalScans lockedViews } } }`,
      { id: code.id, from },
    );
    expect(gql.body.errors, gql.text).toBeUndefined();
    expect(gql.body.data.code.scans).toEqual({ totalScans: 0, lockedViews: 2 });
    const rows = () => app.testDb.db('code_locked_views').where('code_id', code.id);
    expect(Number((await rows().sum({ n: 'views' }).first())!.n)).toBe(2);
    const viewIds = () => app.testDb.db('locked_view_ids').where('code_id', code.id);
    expect(await viewIds()).toHaveLength(2);
    expect((await app.request('DELETE', `/v1/codes/${code.id}`, { key })).status).toBe(204);
    const store = createPurgeStore(app.testDb.db);
    while ((await store.purgeRollupBatch(code.id, 1)) > 0);
    expect(await rows()).toEqual([]);
    expect(await viewIds()).toEqual([]);
  });
});

describe('setting and removing the password', () => {
  it('never returns the password or its hash (REST, GraphQL, webhooks)', async () => {
    const code = await protectedCode({ name: 'members only' });
    const texts = [
      (await app.request('GET', `/v1/codes/${code.id}`, { key })).text,
      (await app.request('GET', '/v1/codes', { key })).text,
      (await app.request('PATCH', `/v1/codes/${code.id}`, { key, body: { notes: 'n' } })).text,
      (await app.graphql(key, `{ code(id: "${code.id}") { id passwordProtected } }`)).text,
    ];
    for (const text of texts) {
      expect(text).not.toContain(PASSWORD);
      expect(text).not.toContain('argon2');
      expect(text).not.toMatch(/password_hash|passwordHash/);
    }
    expect(JSON.parse(texts[0]!).password_protected).toBe(true);
    expect(JSON.parse(texts[3]!).data.code.passwordProtected).toBe(true);
    const asked = await app.graphql(key, `{ code(id: "${code.id}") { password } }`);
    expect(asked.body.errors[0].message).toMatch(/Cannot query field "password"/);
  });

  it('sets and removes it by PATCH and by GraphQL', async () => {
    const created = await app.request('POST', '/v1/codes', { key, body: { content: 'https://example.com/later' } });
    const { id, scan_url: scanUrl } = created.body;
    const set = await app.request('PATCH', `/v1/codes/${id}`, { key, body: { password: PASSWORD } });
    expect(set.body.password_protected).toBe(true);
    expect((await scan(scanUrl)).status).toBe(200);
    const removed = await app.request('PATCH', `/v1/codes/${id}`, { key, body: { password: null } });
    expect(removed.body.password_protected).toBe(false);
    expect((await scan(scanUrl)).headers.get('location')).toBe('https://example.com/later');
    const viaGraphql = await app.graphql(
      key,
      `mutation ($id: ID!) { updateCode(id: $id, input: { password: "gql secret" }) { passwordProtected } }`,
      { id },
    );
    expect(viaGraphql.body.data.updateCode.passwordProtected).toBe(true);
    expect((await tryPassword(scanUrl, 'gql secret')).status).toBe(303);
    const createdViaGraphql = await app.graphql(
      key,
      `mutation { createCode(input: { content: "https://example.com/g", password: "p" }) { passwordProtected } }`,
    );
    expect(createdViaGraphql.body.data.createCode.passwordProtected).toBe(true);
    const cleared = await app.graphql(
      key,
      `mutation ($id: ID!) { updateCode(id: $id, input: { password: null }) { passwordProtected } }`,
      { id },
    );
    expect(cleared.body.data.updateCode.passwordProtected).toBe(false);
  });

  it('refuses an empty, a too long, a non-string and a static code’s password with 422 problem+json', async () => {
    const bodies: Array<[Record<string, unknown>, RegExp]> = [
      [{ content: 'https://example.com/x', password: '' }, /must not be empty/],
      [{ content: 'https://example.com/x', password: 'x'.repeat(129) }, /at most 128/],
      [{ content: 'https://example.com/x', password: 42 }, /must be a string/],
      [{ type: 'text', content: { text: 'hi' }, password: 'secret' }, /url codes only/],
    ];
    for (const [body, message] of bodies) {
      const res = await app.request('POST', '/v1/codes', { key, body });
      expect(res.status, JSON.stringify(body)).toBe(422);
      expect(res.headers.get('content-type')).toContain('application/problem+json');
      expect(res.body.errors).toContainEqual({ path: 'password', message: expect.stringMatching(message) });
    }
    const code = await protectedCode();
    const patched = await app.request('PATCH', `/v1/codes/${code.id}`, { key, body: { password: '' } });
    expect(patched.status).toBe(422);
    expect(patched.headers.get('content-type')).toContain('application/problem+json');
    const bulk = await app.request('POST', '/v1/codes/bulk', {
      key,
      body: { codes: [{ content: 'https://example.com/b', password: 'secret' }] },
    });
    expect(bulk.status).toBe(422);
    expect(bulk.body.errors).toContainEqual({ path: 'codes.0.password', message: expect.any(String) });
    const gql = await app.graphql(
      key,
      `mutation { createCode(input: { content: "https://example.com/g", password: "" }) { id } }`,
    );
    expect(gql.body.errors[0].extensions.code).toBe('VALIDATION_FAILED');
  });

  it('is invisible and unchangeable from another account', async () => {
    const code = await protectedCode();
    const other = await app.newAccountKey('password-intruder');
    expect((await app.request('GET', `/v1/codes/${code.id}`, { key: other })).status).toBe(404);
    const patched = await app.request('PATCH', `/v1/codes/${code.id}`, { key: other, body: { password: null } });
    expect(patched.status).toBe(404);
    const gql = await app.graphql(
      other,
      `mutation ($id: ID!) { updateCode(id: $id, input: { password: null }) { id } }`,
      { id: code.id },
    );
    expect(gql.body.errors[0].extensions.code).toBe('NOT_FOUND');
    expect((await app.request('GET', `/v1/codes/${code.id}`, { key })).body.password_protected).toBe(true);
    expect((await scan(code.scan_url)).status).toBe(200);
  });
});

/** The first `n` payloads of Subscription.scanCreated for one code, over server-sent events. */
async function liveScans(codeId: string, n: number, trigger: () => Promise<void>): Promise<any[]> {
  const controller = new AbortController();
  const res = await fetch(`${app.url}/graphql`, {
    method: 'POST',
    headers: { accept: 'text/event-stream', 'content-type': 'application/json', authorization: `Bearer ${key}` },
    body: JSON.stringify({
      query: 'subscription ($codeId: ID) { scanCreated(codeId: $codeId) { outcome unlocked destination } }',
      variables: { codeId },
    }),
    signal: controller.signal,
  });
  expect(res.headers.get('content-type')).toContain('text/event-stream');
  const events: any[] = [];
  const reading = (async () => {
    let buffer = '';
    const decoder = new TextDecoder();
    for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
      buffer += decoder.decode(chunk, { stream: true });
      for (const message of buffer.split('\n\n').slice(0, -1)) {
        const data = message.split('\n').find((l) => l.startsWith('data:'));
        if (message.includes('event: next') && data) events.push(JSON.parse(data.slice(5)).data.scanCreated);
      }
      buffer = buffer.slice(buffer.lastIndexOf('\n\n') + 2);
      if (events.length >= n) return;
    }
  })();
  await trigger();
  await Promise.race([reading, new Promise((_, reject) => setTimeout(() => reject(new Error('no events')), 10_000))]);
  controller.abort();
  return events;
}

describe('events', () => {
  it('the live stream says which: locked for the page, unlocked for the scan after it', async () => {
    const code = await protectedCode();
    const events = await liveScans(code.id, 2, async () => {
      await scan(code.scan_url);
      await tryPassword(code.scan_url, PASSWORD);
      await app.services.scans.recorder.flush();
    });
    expect(events).toEqual([
      { outcome: 'locked', unlocked: false, destination: null },
      { outcome: 'redirect', unlocked: true, destination: 'https://example.com/members' },
    ]);
  });

  it('webhooks say which: a locked view (outcome locked) and the unlocked scan (unlocked: true)', async () => {
    const code = await protectedCode();
    const hook = await app.request('POST', '/v1/webhooks', {
      key,
      body: { url: receiver.url('/locked'), events: ['scan.created'], code_ids: [code.id] },
    });
    expect(hook.status, hook.text).toBe(201);
    await scan(code.scan_url);
    await tryPassword(code.scan_url, PASSWORD);
    await app.services.scans.recorder.flush();
    const received = await receiver.waitFor((r) => r.filter((x) => x.path === '/locked').length >= 2, 10_000);
    const data = received
      .filter((x) => x.path === '/locked')
      .map((x) => JSON.parse(x.body).data)
      .sort((a, b) => a.scanned_at.localeCompare(b.scanned_at));
    expect(data[0]).toMatchObject({ code_id: code.id, outcome: 'locked', destination: null, unlocked: false });
    expect(data[1]).toMatchObject({
      code_id: code.id,
      outcome: 'redirect',
      destination: 'https://example.com/members',
      unlocked: true,
    });
  });
});
