// Accounts' own short domains: registered (hostname checks, unique across accounts, a cap per
// account), verified by a DNS TXT record through the injected resolver (no real lookup is ever
// made) or by the operator's CLI, given a fallback URL, removed while no code uses them. Codes
// on a verified domain have https://<domain>/<slug> scan URLs and images; slugs are unique per
// domain; the scan route answers by the Host header (requests go to 127.0.0.1 with that header,
// never to the names), with the fallback URL for the root and unknown slugs.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decodeQr } from '../../src/modules/images/decode.ts';
import { svgToRgba } from '../../src/modules/images/raster.ts';
import { scanPayload } from '../../src/modules/webhooks/outbox.ts';
import { getTestApp, type TestApp } from '../support/app.ts';
import { fakeDns, getWithHost } from '../support/dns.ts';
import { runCli } from '../support/process.ts';

/** The DNS as the tests want it: TXT records by name, and every name asked for. */
const dns = fakeDns();
const { txt, asked } = dns;

let app: TestApp;
let key: string;
let otherKey: string;

beforeAll(async () => {
  app = await getTestApp({ DOMAINS_PER_ACCOUNT: '25' }, { resolveTxt: dns.resolveTxt });
  key = await app.newAccountKey('domains');
  otherKey = await app.newAccountKey('domains-other');
});
afterAll(() => app.close());

const addDomain = (body: Record<string, unknown>, apiKey = key) =>
  app.request('POST', '/v1/domains', { key: apiKey, body });
const createCode = (body: Record<string, unknown>, apiKey = key) =>
  app.request('POST', '/v1/codes', { key: apiKey, body: { content: 'https://example.com/default', ...body } });

/** Adds and verifies a domain through its TXT record; returns its JSON. */
async function verifiedDomain(hostname: string, apiKey = key, extra: Record<string, unknown> = {}) {
  const added = await addDomain({ hostname, ...extra }, apiKey);
  expect(added.status, added.text).toBe(201);
  txt.set(added.body.verification.name, [[added.body.verification.value]]);
  const verified = await app.request('POST', `/v1/domains/${added.body.id}/verify`, { key: apiKey });
  expect(verified.status, verified.text).toBe(200);
  return verified.body;
}

/** A GET to the test server with this Host header: the name itself is never resolved or connected to. */
const scanAt = (host: string, path: string) => getWithHost(app.url, host, path);

const defaultHost = () => new URL(app.url).host;

describe('registering domains', () => {
  it('adds a pending domain with the TXT record to create, lists and gets it', async () => {
    const res = await addDomain({ hostname: '  Go.Example.COM. ', fallback_url: 'https://example.com/home' });
    expect(res.status, res.text).toBe(201);
    expect(res.headers.get('location')).toBe(`/v1/domains/${res.body.id}`);
    expect(res.body).toEqual({
      id: expect.stringMatching(/^dom_/),
      object: 'domain',
      hostname: 'go.example.com',
      status: 'pending',
      verification: {
        type: 'dns_txt',
        name: '_qr-verify.go.example.com',
        value: expect.stringMatching(/^qr-verify=[0-9A-Za-z]{32}$/),
      },
      fallback_url: 'https://example.com/home',
      apple_app_site_association: null,
      assetlinks: null,
      verified_at: null,
      created_at: expect.any(String),
    });
    const list = await app.request('GET', '/v1/domains', { key });
    expect(list.body.data.map((d: { hostname: string }) => d.hostname)).toContain('go.example.com');
    expect((await app.request('GET', `/v1/domains/${res.body.id}`, { key })).body).toEqual(res.body);
    // Another version, the same resource.
    expect((await app.request('GET', `/v2/domains/${res.body.id}`, { key })).body).toEqual(res.body);
  });

  it('stores an IDN as punycode', async () => {
    const res = await addDomain({ hostname: 'bücher.example' });
    expect(res.status, res.text).toBe(201);
    expect(res.body.hostname).toBe('xn--bcher-kva.example');
    expect((await addDomain({ hostname: 'XN--BCHER-KVA.example' })).status).toBe(409);
  });

  it('refuses what is not a bare domain name with a 422 naming hostname, adding nothing', async () => {
    const before = (await app.request('GET', '/v1/domains', { key })).body.data.length;
    const bad = [
      '',
      'https://go.example.com',
      'go.example.com:8080',
      'go.example.com/path',
      'user@go.example.com',
      '127.0.0.1',
      '[::1]',
      '::1',
      'localhost',
      'a..example',
      '-a.example',
      'a-.example',
      `${'a'.repeat(64)}.example`,
      `${'a.'.repeat(127)}example`,
      'under_score.example',
      '10.0.0.300',
      42,
      null,
    ];
    for (const hostname of bad) {
      const res = await addDomain({ hostname });
      expect(res.status, String(hostname)).toBe(422);
      expect(
        res.body.errors.map((e: { path: string }) => e.path),
        String(hostname),
      ).toContain('hostname');
    }
    const fallback = await addDomain({ hostname: 'fine.example', fallback_url: 'javascript:alert(1)' });
    expect(fallback.status).toBe(422);
    expect(fallback.body.errors.map((e: { path: string }) => e.path)).toEqual(['fallback_url']);
    const unknown = await addDomain({ hostname: 'fine.example', verified: true });
    expect(unknown.body.errors).toEqual([{ path: 'verified', message: "unknown field 'verified'" }]);
    expect((await app.request('GET', '/v1/domains', { key })).body.data.length).toBe(before);
  });

  it('refuses the service’s own host', async () => {
    const own = await getTestApp({ PUBLIC_BASE_URL: 'https://qr.example.net' }, { resolveTxt: dns.resolveTxt });
    try {
      const ownKey = await own.newAccountKey('own-host');
      const res = await own.request('POST', '/v1/domains', { key: ownKey, body: { hostname: 'QR.example.net' } });
      expect(res.status).toBe(422);
      expect(res.body.errors).toEqual([{ path: 'hostname', message: 'is the service’s own domain' }]);
      expect(
        (await own.request('POST', '/v1/domains', { key: ownKey, body: { hostname: 'links.example.net' } })).status,
      ).toBe(201);
    } finally {
      await own.close();
    }
  });

  it('answers 409 for a hostname registered already, by this account or another', async () => {
    expect((await addDomain({ hostname: 'dup.example' })).status).toBe(201);
    const again = await addDomain({ hostname: 'dup.example' });
    expect(again.status).toBe(409);
    expect(again.body.errors).toEqual([{ path: 'hostname', message: 'is already registered' }]);
    const other = await addDomain({ hostname: 'DUP.example' }, otherKey);
    expect(other.status).toBe(409);
    expect(other.body.detail).toBe(again.body.detail);
  });

  it('lets another account take over a registration unverified for over 7 days, never a verified one', async () => {
    const stale = (await addDomain({ hostname: 'stale.example' })).body;
    await verifiedDomain('kept.example');
    const eightDaysAgo = Date.now() - 8 * 86_400_000;
    await app.testDb
      .db('domains')
      .whereIn('hostname', ['stale.example', 'kept.example'])
      .update({ created_at: eightDaysAgo });
    const taken = await addDomain({ hostname: 'stale.example' }, otherKey);
    expect(taken.status, taken.text).toBe(201);
    expect((await app.request('GET', `/v1/domains/${stale.id}`, { key })).status).toBe(404);
    expect((await addDomain({ hostname: 'kept.example' }, otherKey)).status).toBe(409);
  });

  it('caps the domains of an account (DOMAINS_PER_ACCOUNT)', async () => {
    const capped = await app.newAccountKey('domains-capped');
    for (let i = 0; i < 25; i++) expect((await addDomain({ hostname: `cap${i}.example` }, capped)).status).toBe(201);
    const over = await addDomain({ hostname: 'cap25.example' }, capped);
    expect(over.status).toBe(422);
    expect(over.body.errors[0]).toEqual({
      path: 'hostname',
      message: expect.stringMatching(/has 25 domains.*DOMAINS_PER_ACCOUNT/),
    });
  });
});

describe('verification', () => {
  it('answers 422 naming the record expected while it is missing or wrong, and verifies once it is there', async () => {
    const domain = (await addDomain({ hostname: 'verify.example' })).body;
    const verify = () => app.request('POST', `/v1/domains/${domain.id}/verify`, { key });
    const missing = await verify();
    expect(missing.status).toBe(422);
    expect(missing.body.detail).toContain('_qr-verify.verify.example');
    expect(missing.body.detail).toContain(domain.verification.value);
    expect(missing.body.errors[0].path).toBe('verification');
    txt.set('_qr-verify.verify.example', [['qr-verify=someone-else'], ['v=spf1 -all']]);
    const wrong = await verify();
    expect(wrong.status).toBe(422);
    expect(wrong.body.detail).toContain('"qr-verify=someone-else"');
    expect((await app.request('GET', `/v1/domains/${domain.id}`, { key })).body.status).toBe('pending');

    // A long value arrives in 255-byte character-strings; they are joined.
    const value: string = domain.verification.value;
    txt.set('_qr-verify.verify.example', [['v=spf1 -all'], [value.slice(0, 10), value.slice(10)]]);
    const ok = await verify();
    expect(ok.status, ok.text).toBe(200);
    expect(ok.body).toMatchObject({ status: 'verified', verified_at: expect.any(String) });
    // Every lookup went through the injected resolver, for the record's name.
    expect(asked.filter((name) => name === '_qr-verify.verify.example')).toHaveLength(3);
    // Verified stays verified: no further lookup.
    expect((await verify()).body.status).toBe('verified');
    expect(asked.filter((name) => name === '_qr-verify.verify.example')).toHaveLength(3);
  });

  it('reports a failing lookup as such', async () => {
    const domain = (await addDomain({ hostname: 'servfail.example' })).body;
    txt.set(domain.verification.name, [[domain.verification.value]]);
    dns.failWith = 'ESERVFAIL';
    try {
      const res = await app.request('POST', `/v1/domains/${domain.id}/verify`, { key });
      expect(res.status).toBe(422);
      expect(res.body.detail).toMatch(/lookup of _qr-verify\.servfail\.example failed \(ESERVFAIL\)/);
    } finally {
      dns.failWith = null;
    }
    expect((await app.request('POST', `/v1/domains/${domain.id}/verify`, { key })).body.status).toBe('verified');
  });

  it('is done by the operator with `cli domains verify <hostname>`, without DNS', async () => {
    const domain = (await addDomain({ hostname: 'Operator.example' })).body;
    const lookups = asked.length;
    const res = await runCli(['domains', 'verify', 'OPERATOR.example.'], { DATABASE_URL: app.testDb.url });
    expect(res.code, res.stderr).toBe(0);
    expect(res.stdout).toContain(`Domain operator.example (${domain.id}) is verified`);
    expect((await app.request('GET', `/v1/domains/${domain.id}`, { key })).body.status).toBe('verified');
    expect(asked.length).toBe(lookups);
    const unknown = await runCli(['domains', 'verify', 'nobody.example'], { DATABASE_URL: app.testDb.url });
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain("No account has registered the domain 'nobody.example'");
    expect((await runCli(['domains', 'verify', 'http://bad'], { DATABASE_URL: app.testDb.url })).code).toBe(2);
    // The running server reads the verified set again every CODE_CACHE_TTL_MS; here at once.
    await app.services.verifiedHosts.reload();
    const code = await createCode({
      domain: 'operator.example',
      slug: 'by-operator',
      content: 'https://example.com/operator',
    });
    expect(code.status, code.text).toBe(201);
    expect(await scanAt('operator.example', '/by-operator')).toMatchObject({
      status: 302,
      location: 'https://example.com/operator',
    });
  });
});

describe('codes on a domain', () => {
  let d2: { id: string; hostname: string };
  beforeAll(async () => {
    await verifiedDomain('one.example', key, { fallback_url: 'https://example.com/one-home' });
    d2 = await verifiedDomain('two.example');
  });

  it('scans at https://<domain>/<slug>, and its image encodes that URL', async () => {
    const res = await createCode({ domain: 'ONE.example', slug: 'hello', content: 'https://example.com/hello' });
    expect(res.status, res.text).toBe(201);
    expect(res.body).toMatchObject({
      domain: 'one.example',
      scan_url: 'https://one.example/hello',
      payload: 'https://one.example/hello',
    });
    expect((await app.request('GET', `/v1/codes/${res.body.id}`, { key })).body.scan_url).toBe(
      'https://one.example/hello',
    );
    const svg = await app.request('GET', `/v1/codes/${res.body.id}/image?format=svg`, { key });
    expect(decodeQr(svgToRgba(svg.text, 400))).toBe('https://one.example/hello');
    expect(await scanAt('one.example', '/hello')).toMatchObject({ status: 302, location: 'https://example.com/hello' });
    // The Host header as browsers send it: any case, with a port.
    expect(await scanAt('One.Example:8443', '/hello')).toMatchObject({
      status: 302,
      location: 'https://example.com/hello',
    });
    // Not on the service's own domain, nor on another account domain.
    expect((await scanAt(defaultHost(), '/hello')).status).toBe(404);
    expect((await scanAt('two.example', '/hello')).status).toBe(404);
    // A random slug works on a domain too.
    const random = await createCode({ domain: 'two.example' });
    expect(random.body.scan_url).toMatch(/^https:\/\/two\.example\/[0-9A-Za-z]{7}$/);
    expect((await scanAt('two.example', new URL(random.body.scan_url).pathname)).status).toBe(302);
  });

  it('keeps codes without a domain exactly as before', async () => {
    const res = await createCode({ slug: 'plain-one', content: 'https://example.com/plain' });
    expect(res.body).toMatchObject({ domain: null, scan_url: `${app.url}/plain-one` });
    expect(await scanAt(defaultHost(), '/plain-one')).toMatchObject({
      status: 302,
      location: 'https://example.com/plain',
    });
    // A Host that is no verified domain is the service's own: deployments behind any name keep working.
    expect(await scanAt('anything.example', '/plain-one')).toMatchObject({
      status: 302,
      location: 'https://example.com/plain',
    });
    expect(await scanAt('pending-only.example', '/plain-one')).toMatchObject({ status: 302 });
  });

  it('lets one slug live on each domain, and retires it per domain', async () => {
    const onDefault = await createCode({ slug: 'promo', content: 'https://example.com/promo-default' });
    const onOne = await createCode({ slug: 'promo', domain: 'one.example', content: 'https://example.com/promo-one' });
    const onTwo = await createCode({ slug: 'promo', domain: 'two.example', content: 'https://example.com/promo-two' });
    for (const res of [onDefault, onOne, onTwo]) expect(res.status, res.text).toBe(201);
    expect((await scanAt(defaultHost(), '/promo')).location).toBe('https://example.com/promo-default');
    expect((await scanAt('one.example', '/promo')).location).toBe('https://example.com/promo-one');
    expect((await scanAt('two.example', '/promo')).location).toBe('https://example.com/promo-two');
    expect((await createCode({ slug: 'promo', domain: 'one.example' })).status).toBe(409);

    // Deleted on one domain: retired there for good, and only there.
    const gone = await createCode({ slug: 'gone-soon', domain: 'one.example' });
    expect((await app.request('DELETE', `/v1/codes/${gone.body.id}`, { key })).status).toBe(204);
    const again = await createCode({ slug: 'gone-soon', domain: 'one.example' });
    expect(again.status).toBe(409);
    expect(again.body.detail).toContain('on one.example');
    expect((await createCode({ slug: 'gone-soon', domain: 'two.example' })).status).toBe(201);
    expect((await createCode({ slug: 'gone-soon' })).status).toBe(201);
  });

  it('refuses a domain unknown, pending, of another account, or on a static code: one 422 naming domain', async () => {
    await addDomain({ hostname: 'pending-only.example' });
    await verifiedDomain('theirs.example', otherKey);
    const answers = [];
    for (const domain of ['unknown.example', 'pending-only.example', 'theirs.example']) {
      const res = await createCode({ domain });
      expect(res.status, domain).toBe(422);
      answers.push(res.body.errors);
    }
    expect(answers[0]).toEqual([{ path: 'domain', message: 'is not a verified domain of this account' }]);
    expect(answers[1]).toEqual(answers[0]);
    expect(answers[2]).toEqual(answers[0]);
    for (const domain of ['', 42, 'x'.repeat(254)])
      expect((await createCode({ domain })).body.errors.map((e: { path: string }) => e.path)).toContain('domain');
    const text = await app.request('POST', '/v1/codes', {
      key,
      body: { type: 'text', content: { text: 'hi' }, domain: 'one.example' },
    });
    expect(text.status).toBe(422);
    expect(text.body.errors).toContainEqual({ path: 'domain', message: expect.stringMatching(/url codes only/) });
  });

  it('moves a code to another domain on update: new scan URL and image, the old address retired', async () => {
    const code = (await createCode({ slug: 'mover', content: 'https://example.com/mover' })).body;
    const moved = await app.request('PATCH', `/v1/codes/${code.id}`, { key, body: { domain: 'two.example' } });
    expect(moved.status, moved.text).toBe(200);
    expect(moved.body).toMatchObject({
      domain: 'two.example',
      scan_url: 'https://two.example/mover',
      payload: 'https://two.example/mover',
    });
    const svg = await app.request('GET', `/v1/codes/${code.id}/image?format=svg`, { key });
    expect(decodeQr(svgToRgba(svg.text, 400))).toBe('https://two.example/mover');
    expect(await scanAt('two.example', '/mover')).toMatchObject({ status: 302, location: 'https://example.com/mover' });
    expect((await scanAt(defaultHost(), '/mover')).status).toBe(404);
    // Its slug on the service's domain stays retired: moving back is a 409, a new slug is fine.
    expect((await app.request('PATCH', `/v1/codes/${code.id}`, { key, body: { domain: null } })).status).toBe(409);
    const back = await app.request('PATCH', `/v1/codes/${code.id}`, {
      key,
      body: { domain: null, slug: 'mover-back' },
    });
    expect(back.body).toMatchObject({ domain: null, scan_url: `${app.url}/mover-back` });
    expect(
      (await app.request('PATCH', `/v1/codes/${code.id}`, { key, body: { domain: 'theirs.example' } })).status,
    ).toBe(422);
  });

  it('sends the root and unknown slugs of a domain to its fallback URL, else answers 404', async () => {
    expect(await scanAt('one.example', '/')).toMatchObject({ status: 302, location: 'https://example.com/one-home' });
    expect(await scanAt('one.example', '/?utm=x')).toMatchObject({
      status: 302,
      location: 'https://example.com/one-home',
    });
    expect(await scanAt('one.example', '/no-such-slug')).toMatchObject({
      status: 302,
      location: 'https://example.com/one-home',
    });
    // Without a fallback URL: the same answers as the service's own domain gives.
    const unknownHere = await scanAt('two.example', '/no-such-slug');
    const unknownDefault = await scanAt(defaultHost(), '/no-such-slug');
    expect(unknownHere.status).toBe(404);
    expect(unknownHere.body).toBe(unknownDefault.body);
    // Its root is not the service's (which leads to the dashboard): the account chose no page for it.
    const rootHere = await scanAt('two.example', '/');
    expect([rootHere.status, JSON.parse(rootHere.body).type]).toEqual([404, '/problems/not-found']);
    expect(await scanAt(defaultHost(), '/')).toMatchObject({ status: 302, location: '/dashboard' });
    // The fallback is changed (and removed) with PATCH, at once.
    expect(
      (
        await app.request('PATCH', `/v1/domains/${d2.id}`, {
          key,
          body: { fallback_url: 'https://example.com/two-home' },
        })
      ).body.fallback_url,
    ).toBe('https://example.com/two-home');
    expect(await scanAt('two.example', '/')).toMatchObject({ status: 302, location: 'https://example.com/two-home' });
    expect(
      (await app.request('PATCH', `/v1/domains/${d2.id}`, { key, body: { fallback_url: null } })).body.fallback_url,
    ).toBeNull();
    expect((await scanAt('two.example', '/')).status).toBe(404);
    const bad = await app.request('PATCH', `/v1/domains/${d2.id}`, {
      key,
      body: { fallback_url: 'ftp://x', hostname: 'x.example' },
    });
    expect(bad.status).toBe(422);
    expect(bad.body.errors.map((e: { path: string }) => e.path).sort()).toEqual(['fallback_url', 'hostname']);
  });

  it('records scans on a domain (not the fallback redirects), named by their domain’s scan URL', async () => {
    const code = (await createCode({ slug: 'counted', domain: 'one.example' })).body;
    await scanAt('one.example', '/counted');
    await scanAt('one.example', '/no-such-slug');
    await app.services.scans.recorder.flush();
    const raw = await app.request('GET', `/v1/codes/${code.id}/scans/raw`, { key });
    expect(raw.status, raw.text).toBe(200);
    expect(raw.body.data).toHaveLength(1);
    const event = {
      codeId: code.id,
      slug: 'counted',
      domain: 'one.example',
      accountId: 'acct',
      at: 0,
      ruleId: null,
      destination: 'https://example.com/default',
    };
    expect(
      scanPayload(
        {
          ...event,
          country: null,
          device: null,
          os: null,
          browser: null,
          referrerHost: null,
          language: null,
          isBot: false,
          ip: null,
          userAgent: undefined,
        },
        app.url,
      ).scan_url,
    ).toBe('https://one.example/counted');
  });

  it('creates codes on domains in bulk (JSON and CSV), slugs per domain, naming each refused item', async () => {
    const ok = await app.request('POST', '/v1/codes/bulk', {
      key,
      body: {
        codes: [
          { content: 'https://example.com/b1', slug: 'bulk-same', domain: 'one.example' },
          { content: 'https://example.com/b2', slug: 'bulk-same', domain: 'two.example' },
          { content: 'https://example.com/b3', domain: 'two.example' },
          { content: 'https://example.com/b4' },
        ],
      },
    });
    expect(ok.status, ok.text).toBe(201);
    expect(ok.body.data.map((c: { scan_url: string }) => c.scan_url.replace(/[0-9A-Za-z]{7}$/, '*'))).toEqual([
      'https://one.example/bulk-same',
      'https://two.example/bulk-same',
      'https://two.example/*',
      `${app.url}/*`,
    ]);
    expect((await scanAt('two.example', '/bulk-same')).location).toBe('https://example.com/b2');
    const bad = await app.request('POST', '/v1/codes/bulk', {
      key,
      body: {
        codes: [
          { content: 'https://example.com/x', domain: 'one.example' },
          { content: 'https://example.com/x', domain: 'theirs.example' },
          { content: 'https://example.com/x', slug: 'dupe', domain: 'two.example' },
          { content: 'https://example.com/x', slug: 'dupe', domain: 'two.example' },
        ],
      },
    });
    expect(bad.status).toBe(422);
    expect(bad.body.errors).toEqual([{ path: 'codes.1.domain', message: 'is not a verified domain of this account' }]);
    const taken = await app.request('POST', '/v1/codes/bulk', {
      key,
      body: {
        codes: [
          { content: 'https://example.com/x', slug: 'bulk-same', domain: 'two.example' },
          { content: 'https://example.com/x', slug: 'bulk-same' },
        ],
      },
    });
    expect(taken.status).toBe(409);
    expect(taken.body.errors).toEqual([{ path: 'codes.0.slug', message: 'is taken' }]);

    const csv = await app.request('POST', '/v1/codes/bulk', {
      key,
      headers: { 'content-type': 'text/csv' },
      rawBody:
        'content,slug,domain\n' +
        'https://example.com/c1,csv-one,one.example\n' +
        'https://example.com/c2,csv-one,\n' +
        'https://example.com/c3,,nope.example\n',
    });
    expect(csv.status).toBe(422);
    expect(csv.body.errors).toEqual([{ path: 'row 4.domain', message: 'is not a verified domain of this account' }]);
    const csvOk = await app.request('POST', '/v1/codes/bulk', {
      key,
      headers: { 'content-type': 'text/csv' },
      rawBody: 'content,slug,domain\nhttps://example.com/c1,csv-one,one.example\nhttps://example.com/c2,csv-one,\n',
    });
    expect(csvOk.status, csvOk.text).toBe(201);
    expect(csvOk.body.data.map((c: { scan_url: string }) => c.scan_url)).toEqual([
      'https://one.example/csv-one',
      `${app.url}/csv-one`,
    ]);
  });
});

describe('removing domains, and other accounts', () => {
  it('refuses to remove a domain codes use (409 naming how many), and removes it once none do', async () => {
    const domain = await verifiedDomain('busy.example');
    const a = (await createCode({ domain: 'busy.example' })).body;
    const b = (await createCode({ domain: 'busy.example' })).body;
    const refused = await app.request('DELETE', `/v1/domains/${domain.id}`, { key });
    expect(refused.status).toBe(409);
    expect(refused.body.detail).toMatch(/^2 codes use the domain 'busy\.example'/);
    await app.request('DELETE', `/v1/codes/${a.id}`, { key });
    await app.request('DELETE', `/v1/codes/${b.id}`, { key });
    expect((await app.request('DELETE', `/v1/domains/${domain.id}`, { key })).status).toBe(204);
    expect((await app.request('GET', `/v1/domains/${domain.id}`, { key })).status).toBe(404);
    // Its host is the service's own domain again.
    await createCode({ slug: 'after-busy', content: 'https://example.com/after' });
    expect((await scanAt('busy.example', '/after-busy')).location).toBe('https://example.com/after');
    expect((await createCode({ domain: 'busy.example' })).status).toBe(422);
  });

  it('shows an account nothing of another’s domains', async () => {
    const mine = (await addDomain({ hostname: 'private.example' })).body;
    const theirs = await app.request('GET', '/v1/domains', { key: otherKey });
    expect(theirs.body.data.map((d: { hostname: string }) => d.hostname)).not.toContain('private.example');
    for (const [method, path, body] of [
      ['GET', `/v1/domains/${mine.id}`],
      ['PATCH', `/v1/domains/${mine.id}`, { fallback_url: 'https://evil.example/' }],
      ['POST', `/v1/domains/${mine.id}/verify`],
      ['DELETE', `/v1/domains/${mine.id}`],
    ] as const) {
      const res = await app.request(method, path, { key: otherKey, body });
      expect(res.status, `${method} ${path}`).toBe(404);
    }
    expect((await app.request('GET', `/v1/domains/${mine.id}`, { key })).body).toEqual(mine);
  });

  it('needs codes:read to read domains and codes:write to change them', async () => {
    const reader = await app.newAccountKey('domains-reader', { scopes: ['codes:read'] });
    expect((await app.request('GET', '/v1/domains', { key: reader })).status).toBe(200);
    expect((await addDomain({ hostname: 'reader.example' }, reader)).status).toBe(403);
    const none = await app.newAccountKey('domains-none', { scopes: ['analytics:read'] });
    expect((await app.request('GET', '/v1/domains', { key: none })).status).toBe(403);
    expect((await app.request('GET', '/v1/domains')).status).toBe(401);
  });
});

describe('GraphQL', () => {
  const FIELDS = 'id hostname status verification { type name value } fallbackUrl verifiedAt createdAt';

  it('adds, verifies, lists, changes and removes domains, and puts codes on them, as REST does', async () => {
    const added = await app.graphql(
      key,
      `mutation($input: AddDomainInput!) { addDomain(input: $input) { ${FIELDS} } }`,
      { input: { hostname: 'GQL.example', fallbackUrl: 'https://example.com/gql' } },
    );
    expect(added.body.errors).toBeUndefined();
    const domain = added.body.data.addDomain;
    expect(domain).toMatchObject({
      hostname: 'gql.example',
      status: 'pending',
      fallbackUrl: 'https://example.com/gql',
      verifiedAt: null,
      verification: { type: 'dns_txt', name: '_qr-verify.gql.example' },
    });
    const rest = (await app.request('GET', `/v1/domains/${domain.id}`, { key })).body;
    expect([domain.hostname, domain.verification, domain.createdAt]).toEqual([
      rest.hostname,
      rest.verification,
      rest.created_at,
    ]);

    const verify = () => app.graphql(key, `mutation($id: ID!) { verifyDomain(id: $id) { status } }`, { id: domain.id });
    const missing = await verify();
    expect(missing.body.errors[0].extensions.code).toBe('VALIDATION_FAILED');
    expect(missing.body.errors[0].message).toContain(domain.verification.value);
    txt.set(domain.verification.name, [[domain.verification.value]]);
    expect((await verify()).body.data.verifyDomain.status).toBe('verified');

    const listed = await app.graphql(key, `{ domains { hostname status } domain(id: "${domain.id}") { hostname } }`);
    expect(listed.body.data.domains).toContainEqual({ hostname: 'gql.example', status: 'verified' });
    expect(listed.body.data.domain).toEqual({ hostname: 'gql.example' });
    expect((await app.graphql(otherKey, `{ domains { id } domain(id: "${domain.id}") { id } }`)).body.data).toEqual({
      domains: expect.not.arrayContaining([{ id: domain.id }]),
      domain: null,
    });

    const code = await app.graphql(
      key,
      `mutation($input: CreateCodeInput!) { createCode(input: $input) { id domain scanUrl payload } }`,
      { input: { content: 'https://example.com/g', slug: 'gql-code', domain: 'gql.example' } },
    );
    expect(code.body.data.createCode).toMatchObject({
      domain: 'gql.example',
      scanUrl: 'https://gql.example/gql-code',
      payload: 'https://gql.example/gql-code',
    });
    const refused = await app.graphql(key, `mutation($input: CreateCodeInput!) { createCode(input: $input) { id } }`, {
      input: { content: 'https://example.com/g', domain: 'theirs.example' },
    });
    expect(refused.body.errors[0].extensions).toMatchObject({ code: 'VALIDATION_FAILED' });

    const remove = () =>
      app.graphql(key, `mutation($id: ID!) { removeDomain(id: $id) { deletedId } }`, { id: domain.id });
    expect((await remove()).body.errors[0].extensions.code).toBe('CONFLICT');
    const moved = await app.graphql(
      key,
      `mutation($id: ID!) { updateCode(id: $id, input: { domain: null, slug: "gql-moved" }) { domain scanUrl } }`,
      { id: code.body.data.createCode.id },
    );
    expect(moved.body.data.updateCode).toEqual({ domain: null, scanUrl: `${app.url}/gql-moved` });
    const cleared = await app.graphql(
      key,
      `mutation($id: ID!) { updateDomain(id: $id, input: { fallbackUrl: null }) { fallbackUrl } }`,
      { id: domain.id },
    );
    expect(cleared.body.data.updateDomain.fallbackUrl).toBeNull();
    expect((await remove()).body.data.removeDomain).toEqual({ deletedId: domain.id });
  });
});
