// Social previews on url codes, over real HTTP: every link-preview crawler gets an Open Graph /
// Twitter card page (escaped, loading nothing, counted as a bot scan), a phone gets the redirect
// as before; a password code's card never shows its destination; routing rules and app links are
// not applied to crawlers; paused codes answer crawlers as before; bad input is a 422 that changes
// nothing; another account can neither see nor change a code's preview.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getTestApp, type TestApp } from '../support/app.ts';

const CRAWLERS = {
  facebook: 'facebookexternalhit/1.1 (+http://www.facebook.com/externalhit_uatext.php)',
  twitter: 'Twitterbot/1.0',
  slack: 'Slackbot-LinkExpanding 1.0 (+https://api.slack.com/robots)',
  linkedin: 'LinkedInBot/1.0 (compatible; Mozilla/5.0; Apache-HttpClient +http://www.linkedin.com)',
  whatsapp: 'WhatsApp/2.23.20.0 A',
  discord:
    'Mozilla/5.0 (Macintosh; Intel Mac OS X 11.6; rv:92.0) Gecko/20100101 Firefox/92.0 (compatible; ' +
    'Discordbot/2.0; +https://discordapp.com)',
  telegram: 'TelegramBot (like TwitterBot)',
  skype: 'Mozilla/5.0 (Windows NT 6.1; WOW64) SkypeUriPreview Preview/0.5 skype-url-preview@microsoft.com',
  apple:
    'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_5) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/13.1.1 ' +
    'Safari/605.1.15 (Applebot/0.1; +http://www.apple.com/go/applebot)',
  pinterest: 'Pinterest/0.2 (+https://www.pinterest.com/bot.html)',
  reddit: 'Mozilla/5.0 (compatible; redditbot/1.0; +http://www.reddit.com/feedback)',
  embedly: 'Mozilla/5.0 (compatible; Embedly/0.2; +http://support.embed.ly/)',
};
const IPHONE =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 ' +
  'Mobile/15E148 Safari/604.1';
const PREVIEW = {
  title: 'Spring sale',
  description: '20% off everything until May.',
  image_url: 'https://cdn.example.com/spring.png',
};

let app: TestApp;
let key: string;
let otherKey: string;

beforeAll(async () => {
  app = await getTestApp({ GEO_COUNTRY_HEADER: 'X-Test-Country' });
  key = await app.newAccountKey('previews');
  otherKey = await app.newAccountKey('previews-other');
});
afterAll(() => app.close());

async function createCode(body: Record<string, unknown>) {
  const res = await app.request('POST', '/v1/codes', { key, body: { content: 'https://example.com/sale', ...body } });
  expect(res.status, res.text).toBe(201);
  return res.body;
}

const scan = (url: string, userAgent: string, method = 'GET', headers: Record<string, string> = {}) =>
  fetch(url, { method, redirect: 'manual', headers: { 'user-agent': userAgent, ...headers } });

/** The content of `<meta property|name="key">`, unescaped only of what the page escapes. */
function metaOf(html: string, key: string): string | null {
  const match = new RegExp(`<meta (?:property|name)="${key}" content="([^"]*)">`).exec(html);
  return match ? match[1]! : null;
}

async function rawScans(id: string) {
  await app.services.scans.recorder.flush();
  const res = await app.request('GET', `/v1/codes/${id}/scans/raw?limit=500`, { key });
  expect(res.status, res.text).toBe(200);
  return res.body.data as { is_bot: boolean; outcome: string }[];
}

describe('crawlers', () => {
  it('each get the Open Graph and Twitter card page; a phone gets the redirect; all are recorded', async () => {
    const code = await createCode({ preview: PREVIEW, utm: { utm_source: 'share' } });
    expect(code.preview).toEqual(PREVIEW);
    for (const [name, ua] of Object.entries(CRAWLERS)) {
      const res = await scan(code.scan_url, ua);
      expect(res.status, name).toBe(200);
      expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8');
      expect(res.headers.get('content-security-policy')).toMatch(/^default-src 'none'/);
      const html = await res.text();
      expect(metaOf(html, 'og:title'), name).toBe('Spring sale');
      expect(metaOf(html, 'og:description')).toBe('20% off everything until May.');
      expect(metaOf(html, 'og:image')).toBe('https://cdn.example.com/spring.png');
      expect(metaOf(html, 'og:url')).toBe(code.scan_url);
      expect(metaOf(html, 'twitter:card')).toBe('summary_large_image');
      // The plain link goes where a person would, UTM fields included.
      expect(html).toContain('<a href="https://example.com/sale?utm_source=share">');
      // Nothing to load: no image, script, stylesheet or refresh.
      expect(html).not.toMatch(/<img|<script|<link|http-equiv/i);
    }
    const phone = await scan(code.scan_url, IPHONE);
    expect(phone.status).toBe(302);
    expect(phone.headers.get('location')).toBe('https://example.com/sale?utm_source=share');
    const head = await scan(code.scan_url, CRAWLERS.slack, 'HEAD');
    expect(head.status).toBe(200);
    const scans = await rawScans(code.id);
    expect(scans).toHaveLength(Object.keys(CRAWLERS).length + 1); // HEAD is not a scan
    expect(scans.filter((s) => s.is_bot)).toHaveLength(Object.keys(CRAWLERS).length);
    expect(scans.every((s) => s.outcome === 'redirect')).toBe(true);
  });

  it('get the summary card without an image, and codes without a preview redirect them as before', async () => {
    const titled = await createCode({ preview: { title: 'Menu' } });
    const html = await (await scan(titled.scan_url, CRAWLERS.twitter)).text();
    expect(metaOf(html, 'twitter:card')).toBe('summary');
    expect(metaOf(html, 'og:image')).toBeNull();
    const plain = await createCode({});
    expect(plain.preview).toBeNull();
    const res = await scan(plain.scan_url, CRAWLERS.facebook);
    expect(res.status).toBe(302);
    expect(res.headers.get('location')).toBe('https://example.com/sale');
  });

  it('see every field escaped', async () => {
    const code = await createCode({
      preview: { title: '<script>alert(1)</script>"x', description: `it's <b>&amp;</b>` },
    });
    const html = await (await scan(code.scan_url, CRAWLERS.slack)).text();
    expect(html).not.toContain('<script>');
    expect(html).not.toContain('<b>');
    expect(metaOf(html, 'og:title')).toBe('&lt;script&gt;alert(1)&lt;/script&gt;&quot;x');
    expect(metaOf(html, 'og:description')).toBe('it&#39;s &lt;b&gt;&amp;amp;&lt;/b&gt;');
    expect(html).toContain('<title>&lt;script&gt;alert(1)&lt;/script&gt;&quot;x</title>');
  });

  it('never learn a password code’s destination: the card links to the scan URL', async () => {
    const code = await createCode({
      content: 'https://secret.example.com/members',
      password: 'hunter22',
      preview: PREVIEW,
    });
    for (const ua of Object.values(CRAWLERS)) {
      const res = await scan(code.scan_url, ua);
      expect(res.status).toBe(200);
      const html = await res.text();
      expect(html).not.toContain('secret.example.com');
      expect(metaOf(html, 'og:title')).toBe('Spring sale');
      expect(html).toContain(`<a href="${code.scan_url}">`);
    }
    // People still get the unlock page.
    const person = await (await scan(code.scan_url, IPHONE)).text();
    expect(person).toContain('password protected');
    expect(person).not.toContain('og:title');
  });

  it('get the card rather than a routing rule’s or an app link’s target', async () => {
    const code = await createCode({
      preview: PREVIEW,
      routing: { enabled: true, rules: [{ condition: 'country:FR', destination: 'https://fr.example.com/' }] },
      app_links: { ios: { store_url: 'https://apps.apple.com/app/id1234567890' } },
    });
    const FR = { 'X-Test-Country': 'FR' };
    const person = await scan(code.scan_url, IPHONE, 'GET', FR);
    expect(person.headers.get('location')).toBe('https://fr.example.com/');
    const html = await (await scan(code.scan_url, CRAWLERS.apple, 'GET', FR)).text();
    expect(metaOf(html, 'og:title')).toBe('Spring sale');
    expect(html).toContain('<a href="https://example.com/sale">');
    expect(html).not.toMatch(/fr\.example\.com|apps\.apple\.com/);
  });

  it('of a code with a hosted page get the card linking to the scan URL, where people see the page', async () => {
    const code = await createCode({
      content: 'https://example.com/behind-the-page',
      preview: PREVIEW,
      page: { kind: 'links', title: 'Ada’s bakery', links: [{ label: 'Menu', url: 'https://menu.example/' }] },
    });
    const html = await (await scan(code.scan_url, CRAWLERS.facebook)).text();
    expect(metaOf(html, 'og:title')).toBe('Spring sale');
    expect(html).toContain(`<a href="${code.scan_url}">`);
    expect(html).not.toContain('behind-the-page');
    const person = await scan(code.scan_url, IPHONE);
    expect(person.status).toBe(200);
    expect(await person.text()).toContain('Ada’s bakery');
  });

  it('at a paused code get what everyone gets: its fallback, no card', async () => {
    const code = await createCode({
      preview: PREVIEW,
      status: 'paused',
      paused_destination: 'https://example.com/soon',
    });
    const res = await scan(code.scan_url, CRAWLERS.facebook);
    expect(res.status).toBe(302);
    expect(res.headers.get('location')).toBe('https://example.com/soon');
  });
});

describe('the preview field', () => {
  it('is replaced whole and removed with null, over REST and GraphQL', async () => {
    const code = await createCode({ preview: PREVIEW });
    let res = await app.request('PATCH', `/v1/codes/${code.id}`, { key, body: { preview: { title: 'New' } } });
    expect(res.status, res.text).toBe(200);
    expect(res.body.preview).toEqual({ title: 'New', description: null, image_url: null });
    const gql = await app.graphql(
      key,
      `mutation($id: ID!, $input: UpdateCodeInput!) {
        updateCode(id: $id, input: $input) { preview { title description imageUrl } }
      }`,
      { id: code.id, input: { preview: { description: 'From GraphQL', imageUrl: 'https://cdn.example.com/a.png' } } },
    );
    expect(gql.body.errors).toBeUndefined();
    expect(gql.body.data.updateCode.preview).toEqual({
      title: null,
      description: 'From GraphQL',
      imageUrl: 'https://cdn.example.com/a.png',
    });
    const cleared = await app.graphql(
      key,
      `mutation($id: ID!) { updateCode(id: $id, input: { preview: null }) { preview { title } } }`,
      { id: code.id },
    );
    expect(cleared.body.data.updateCode.preview).toBeNull();
    res = await app.request('GET', `/v1/codes/${code.id}`, { key });
    expect(res.body.preview).toBeNull();
    expect((await scan(code.scan_url, CRAWLERS.slack)).status).toBe(302);
  });

  it('is set by GraphQL createCode, and a bad one there is a validation error that creates nothing', async () => {
    const created = await app.graphql(
      key,
      `mutation($input: CreateCodeInput!) { createCode(input: $input) { id preview { title imageUrl } } }`,
      { input: { content: 'https://example.com/gql', preview: { title: 'GQL', imageUrl: PREVIEW.image_url } } },
    );
    expect(created.body.errors).toBeUndefined();
    expect(created.body.data.createCode.preview).toEqual({ title: 'GQL', imageUrl: PREVIEW.image_url });
    const before = (await app.request('GET', '/v1/codes?limit=100', { key })).body.data.length;
    const refused = await app.graphql(key, `mutation($input: CreateCodeInput!) { createCode(input: $input) { id } }`, {
      input: { content: 'https://example.com/gql', preview: { imageUrl: 'http://cdn.example.com/a.png' } },
    });
    expect(refused.body.errors[0].extensions.code).toBe('VALIDATION_FAILED');
    expect((await app.request('GET', '/v1/codes?limit=100', { key })).body.data.length).toBe(before);
  });

  it('refuses bad input with a 422 that changes nothing', async () => {
    const code = await createCode({ preview: PREVIEW });
    const bad = [
      { preview: { image_url: 'http://cdn.example.com/a.png' } },
      { preview: { image_url: 'javascript:alert(1)' } },
      { preview: { title: 'x'.repeat(121) } },
      { preview: { description: 'x'.repeat(301) } },
      { preview: { title: '   ' } },
      { preview: {} },
      { preview: { title: 'ok', colour: 'red' } },
    ];
    for (const body of bad) {
      const res = await app.request('PATCH', `/v1/codes/${code.id}`, { key, body });
      expect(res.status, JSON.stringify(body)).toBe(422);
      expect(res.headers.get('content-type')).toMatch(/application\/problem\+json/);
    }
    const create = await app.request('POST', '/v1/codes', {
      key,
      body: { type: 'text', content: { text: 'hello' }, preview: { title: 'x' } },
    });
    expect(create.status).toBe(422);
    const after = await app.request('GET', `/v1/codes/${code.id}`, { key });
    expect(after.body.preview).toEqual(PREVIEW);
  });

  it('is neither visible to nor changeable by another account', async () => {
    const code = await createCode({ preview: PREVIEW });
    const read = await app.request('GET', `/v1/codes/${code.id}`, { key: otherKey });
    expect(read.status).toBe(404);
    const write = await app.request('PATCH', `/v1/codes/${code.id}`, { key: otherKey, body: { preview: null } });
    expect(write.status).toBe(404);
    const gql = await app.graphql(otherKey, `query($id: ID!) { code(id: $id) { preview { title } } }`, { id: code.id });
    expect(gql.body.data?.code ?? null).toBeNull();
    expect((await app.request('GET', `/v1/codes/${code.id}`, { key })).body.preview).toEqual(PREVIEW);
  });
});
