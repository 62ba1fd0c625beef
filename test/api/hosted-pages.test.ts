// Hosted pages on url codes, over real HTTP: each kind renders its fields; a business card's
// vCard parses back (ical.js) with the right fields and is not counted as a scan; an app
// download page sends iPhones and Android phones to their store; edits reach the page; another
// account can neither read nor set a page on my code; bad pages are a 422 naming the field that
// changes nothing; every user field is escaped; the page's scan is recorded as the code's scan.
import ICAL from 'ical.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getTestApp, type TestApp } from '../support/app.ts';
import { APP_PAGE, CARD } from '../fixtures/pages/pages.ts';

const IPHONE =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 ' +
  'Mobile/15E148 Safari/604.1';
const ANDROID =
  'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0 Mobile Safari/537.36';
const DESKTOP = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0 Safari/537.36';
const { app_store_url: APP_STORE, play_store_url: PLAY_STORE } = APP_PAGE;

let app: TestApp;
let key: string;
let otherKey: string;

beforeAll(async () => {
  app = await getTestApp();
  key = await app.newAccountKey('pages');
  otherKey = await app.newAccountKey('pages-other');
});
afterAll(() => app.close());

async function createCode(page: unknown, k = key) {
  const res = await app.request('POST', '/v1/codes', { key: k, body: { content: 'https://example.com/home', page } });
  expect(res.status, res.text).toBe(201);
  return res.body;
}

async function scan(url: string, userAgent = DESKTOP) {
  const res = await fetch(url, { redirect: 'manual', headers: { 'user-agent': userAgent } });
  return { status: res.status, headers: res.headers, text: await res.text() };
}

async function scanCount(codeId: string): Promise<number> {
  await app.services.scans.recorder.flush();
  const res = await app.request('GET', `/v1/codes/${codeId}/scans?include_bots=true`, { key });
  expect(res.status, res.text).toBe(200);
  return res.body.total_scans;
}

describe('a business card', () => {
  it('renders its fields on a page with a strict CSP, and the page view counts as a scan', async () => {
    const code = await createCode(CARD);
    expect(code.page).toMatchObject({ kind: 'business_card', name: 'Ada Lovelace' });
    // Phones are kept as + and digits, as a static vcard's are.
    expect(code.page.phones[0]).toEqual({ label: 'Work', number: '+442079460000' });
    const page = await scan(code.scan_url);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(page.headers.get('content-security-policy')).toContain("default-src 'none'");
    for (const text of ['<h1>Ada Lovelace</h1>', 'Analyst; engines, Analytical Engines, Ltd.', 'tel:+442079460000'])
      expect(page.text).toContain(text);
    expect(page.text).toContain('href="https://example.com/notes?a=1&amp;b=2"');
    expect(page.text).toContain(`href="${new URL(code.scan_url).pathname}/contact.vcf"`);
    expect(page.text).toContain('12 St James’s Square');
    expect(page.text).not.toMatch(/<script|https?:\/\/[^"]*\.(css|js|png|svg)/);
    expect(await scanCount(code.id)).toBe(1);
  });

  it('downloads a vCard 4.0 that parses back with the right fields, not counted as a scan', async () => {
    const code = await createCode(CARD);
    const res = await scan(`${code.scan_url}/contact.vcf`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/vcard; charset=utf-8');
    expect(res.headers.get('content-disposition')).toBe('attachment; filename="Ada-Lovelace.vcf"');
    const card = new ICAL.Component(ICAL.parse(res.text) as unknown[]);
    expect(card.name).toBe('vcard');
    expect(card.getFirstPropertyValue('version')).toBe('4.0');
    expect(card.getFirstPropertyValue('fn')).toBe('Ada Lovelace');
    expect(card.getFirstPropertyValue('n')).toEqual(['Lovelace', 'Ada', '', '', '']);
    expect(card.getFirstPropertyValue('title')).toBe('Analyst; engines');
    expect(card.getFirstPropertyValue('org')).toBe('Analytical Engines, Ltd.');
    const phones = card.getAllProperties('tel');
    expect(phones.map((p) => p.getFirstValue())).toEqual(['tel:+442079460000', 'tel:+447700900123']);
    expect(phones[0]!.getParameter('type')).toBe('work');
    expect(card.getFirstPropertyValue('email')).toBe('ada@example.com');
    expect(card.getFirstPropertyValue('adr')).toEqual([
      '',
      '',
      '12 St James’s Square',
      'London',
      '',
      'SW1Y 4JH',
      'United Kingdom',
    ]);
    expect(card.getFirstPropertyValue('url')).toBe('https://example.com/notes?a=1&b=2');
    expect(card.getFirstPropertyValue('note')).toBe('First line\nsecond line');
    // Every line at most 75 octets (folded), CRLF line ends.
    for (const line of res.text.split('\r\n')) expect(Buffer.byteLength(line)).toBeLessThanOrEqual(75);
    expect(await scanCount(code.id)).toBe(0);
  });

  it('folds a long line on character boundaries and parses it back whole', async () => {
    const note = 'Grüße aus Köln, '.repeat(20).trim();
    const code = await createCode({ kind: 'business_card', name: 'Jürgen Müller', note });
    const res = await scan(`${code.scan_url}/contact.vcf`);
    const card = new ICAL.Component(ICAL.parse(res.text) as unknown[]);
    expect(card.getFirstPropertyValue('note')).toBe(note);
    expect(res.headers.get('content-disposition')).toBe('attachment; filename="Jurgen-Muller.vcf"');
  });

  it('has no vCard for other pages, other codes or a paused code', async () => {
    const links = await createCode({ kind: 'links', title: 'Mine', links: [{ label: 'A', url: 'https://a.example' }] });
    expect((await scan(`${links.scan_url}/contact.vcf`)).status).toBe(404);
    expect((await scan(`${app.url}/nope123/contact.vcf`)).status).toBe(404);
    const card = await createCode(CARD);
    await app.request('PATCH', `/v1/codes/${card.id}`, { key, body: { status: 'paused' } });
    expect((await scan(`${card.scan_url}/contact.vcf`)).status).toBe(404);
  });

  it('behind a password: the unlock answers the page itself, and the vCard needs the unlock cookie', async () => {
    const res = await app.request('POST', '/v1/codes', {
      key,
      body: { content: 'https://example.com/home', page: CARD, password: 'open sesame' },
    });
    const code = res.body;
    expect((await scan(code.scan_url)).text).toContain('Password required');
    expect((await scan(`${code.scan_url}/contact.vcf`)).status).toBe(404);
    const unlocked = await fetch(code.scan_url, {
      method: 'POST',
      redirect: 'manual',
      headers: { 'content-type': 'application/x-www-form-urlencoded', 'user-agent': DESKTOP },
      body: 'password=open+sesame',
    });
    expect(unlocked.status).toBe(200);
    expect(await unlocked.text()).toContain('<h1>Ada Lovelace</h1>');
    const cookie = unlocked.headers.get('set-cookie')!.split(';')[0]!;
    const vcard = await fetch(`${code.scan_url}/contact.vcf`, { headers: { cookie } });
    expect(vcard.status).toBe(200);
    expect(await vcard.text()).toContain('FN:Ada Lovelace');
    // The locked view is not a scan; the unlocked page view is.
    expect(await scanCount(code.id)).toBe(1);
  });

  it('escapes every user field', async () => {
    const evil = '<script>alert(1)</script>"\'&';
    const code = await createCode({
      kind: 'business_card',
      name: evil,
      title: evil,
      organization: evil,
      links: [{ label: evil, url: 'https://example.com/"><script>x</script>' }],
      note: evil,
      address: { street: evil, city: evil },
    });
    const page = await scan(code.scan_url);
    expect(page.text).not.toContain('<script');
    expect(page.text).toContain('&lt;script&gt;alert(1)&lt;/script&gt;&quot;&#39;&amp;');
  });
});

describe('an app download page', () => {
  it('sends iPhones and Android phones to their store and shows the others both badges', async () => {
    const code = await createCode(APP_PAGE);
    const iphone = await scan(code.scan_url, IPHONE);
    expect(iphone.status).toBe(302);
    expect(iphone.headers.get('location')).toBe(APP_STORE);
    expect((await scan(code.scan_url, ANDROID)).headers.get('location')).toBe(PLAY_STORE);
    const desktop = await scan(code.scan_url);
    expect(desktop.status).toBe(200);
    expect(desktop.text).toContain('<h1>Bakery</h1>');
    expect(desktop.text).toContain('App Store');
    expect(desktop.text).toContain('Google Play');
    expect(desktop.text).toContain(`href="${PLAY_STORE}"`);
    expect(await scanCount(code.id)).toBe(3);
  });

  it('shows the page to an OS whose store is not given', async () => {
    const code = await createCode({ kind: 'app_download', app_name: 'iOnly', app_store_url: APP_STORE });
    const android = await scan(code.scan_url, ANDROID);
    expect(android.status).toBe(200);
    expect(android.text).not.toContain('Google Play');
  });
});

describe('a list of links', () => {
  it('renders the title, the description and the links in order; edits reach the page', async () => {
    const code = await createCode({
      kind: 'links',
      title: 'Ada’s bakery',
      description: 'Fresh every morning',
      links: [
        { label: 'Menu', url: 'https://bakery.example/menu' },
        { label: 'Order', url: 'http://bakery.example/order' },
      ],
    });
    const page = await scan(code.scan_url);
    expect(page.text).toContain('<h1>Ada’s bakery</h1>');
    expect(page.text).toContain('Fresh every morning');
    expect(page.text.indexOf('Menu')).toBeLessThan(page.text.indexOf('Order'));
    const patch = await app.request('PATCH', `/v1/codes/${code.id}`, {
      key,
      body: { page: { kind: 'links', title: 'Renamed', links: [{ label: 'Only', url: 'https://only.example' }] } },
    });
    expect(patch.status, patch.text).toBe(200);
    const after = await scan(code.scan_url);
    expect(after.text).toContain('<h1>Renamed</h1>');
    expect(after.text).not.toContain('Menu');
    // null takes the page off: the scan redirects to the destination again.
    await app.request('PATCH', `/v1/codes/${code.id}`, { key, body: { page: null } });
    const redirect = await scan(code.scan_url);
    expect(redirect.status).toBe(302);
    expect(redirect.headers.get('location')).toBe('https://example.com/home');
  });

  it('lets a matching routing rule redirect before the page', async () => {
    const code = await createCode({ kind: 'links', title: 'T', links: [{ label: 'A', url: 'https://a.example' }] });
    const rules = [{ condition: 'device:ios', destination: 'https://example.com/ios' }];
    const patch = await app.request('PATCH', `/v1/codes/${code.id}`, {
      key,
      body: { routing: { enabled: true, rules } },
    });
    expect(patch.status, patch.text).toBe(200);
    expect((await scan(code.scan_url, IPHONE)).headers.get('location')).toBe('https://example.com/ios');
    expect((await scan(code.scan_url)).status).toBe(200);
  });
});

describe('bad pages', () => {
  const link = (i: number) => ({ label: `L${i}`, url: `https://example.com/${i}` });
  const cases: [string, unknown, string][] = [
    [
      '10,000 links',
      { kind: 'links', title: 'T', links: Array.from({ length: 10_000 }, (_, i) => link(i)) },
      'page.links',
    ],
    [
      'a javascript: link',
      { kind: 'links', title: 'T', links: [{ label: 'x', url: 'javascript:alert(1)' }] },
      'page.links.0.url',
    ],
    [
      'a mailto: link',
      { kind: 'links', title: 'T', links: [{ label: 'x', url: 'mailto:a@example.com' }] },
      'page.links.0.url',
    ],
    ['an oversize name', { ...CARD, name: 'x'.repeat(121) }, 'page.name'],
    ['an oversize note', { ...CARD, note: 'x'.repeat(501) }, 'page.note'],
    ['an unknown kind', { kind: 'poster' }, 'page.kind'],
    ['an unknown field', { ...CARD, photo: 'x' }, 'page'],
    ['no store', { kind: 'app_download', app_name: 'A' }, 'page.app_store_url'],
    [
      'an http store',
      { kind: 'app_download', app_name: 'A', app_store_url: 'http://apps.apple.com/x' },
      'page.app_store_url',
    ],
    ['a bad email', { ...CARD, emails: [{ address: 'nope' }] }, 'page.emails.0.address'],
  ];

  it.each(cases)('refuses %s with a 422 naming the field, creating and changing nothing', async (_name, page, path) => {
    const code = await createCode({ kind: 'links', title: 'Kept', links: [link(1)] });
    const before = await app.request('GET', '/v1/codes?limit=500', { key });
    const created = await app.request('POST', '/v1/codes', { key, body: { content: 'https://example.com', page } });
    expect(created.status, created.text).toBe(422);
    expect(created.headers.get('content-type')).toContain('application/problem+json');
    expect(JSON.stringify(created.body.errors)).toContain(`"${path}`);
    const patched = await app.request('PATCH', `/v1/codes/${code.id}`, { key, body: { page } });
    expect(patched.status).toBe(422);
    expect((await app.request('GET', '/v1/codes?limit=500', { key })).body.data.length).toBe(before.body.data.length);
    expect((await scan(code.scan_url)).text).toContain('<h1>Kept</h1>');
  });

  it('refuses a page on a static code', async () => {
    const res = await app.request('POST', '/v1/codes', {
      key,
      body: { type: 'text', content: { text: 'hi' }, page: CARD },
    });
    expect(res.status).toBe(422);
    expect(JSON.stringify(res.body.errors)).toContain('"page"');
  });
});

describe('account isolation', () => {
  it('another account can neither read nor set a page on my code', async () => {
    const code = await createCode(CARD);
    expect((await app.request('GET', `/v1/codes/${code.id}`, { key: otherKey })).status).toBe(404);
    const page = { kind: 'links', title: 'Hijacked', links: [{ label: 'x', url: 'https://evil.example' }] };
    const patch = await app.request('PATCH', `/v1/codes/${code.id}`, { key: otherKey, body: { page } });
    expect(patch.status).toBe(404);
    const gql = await app.graphql(otherKey, 'query($id: ID!) { code(id: $id) { page } }', { id: code.id });
    expect(gql.body.data.code).toBeNull();
    expect((await scan(code.scan_url)).text).toContain('<h1>Ada Lovelace</h1>');
  });
});

describe('GraphQL', () => {
  it('creates, reads, validates and removes a page in REST’s shape', async () => {
    const page = { kind: 'links', title: 'From GraphQL', links: [{ label: 'A', url: 'https://a.example' }] };
    const created = await app.graphql(
      key,
      'mutation($input: CreateCodeInput!) { createCode(input: $input) { id page } }',
      { input: { content: 'https://example.com', page } },
    );
    expect(created.body.errors).toBeUndefined();
    const id = created.body.data.createCode.id;
    expect(created.body.data.createCode.page).toEqual(page);
    const invalid = await app.graphql(
      key,
      'mutation($id: ID!, $input: UpdateCodeInput!) { updateCode(id: $id, input: $input) { id } }',
      { id, input: { page: { ...page, links: [{ label: 'x', url: 'ftp://a.example' }] } } },
    );
    expect(JSON.stringify(invalid.body.errors)).toContain('page.links.0.url');
    const removed = await app.graphql(
      key,
      'mutation($id: ID!, $input: UpdateCodeInput!) { updateCode(id: $id, input: $input) { page } }',
      { id, input: { page: null } },
    );
    expect(removed.body.data.updateCode.page).toBeNull();
  });
});
