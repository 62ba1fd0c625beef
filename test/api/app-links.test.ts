// App links and UTM fields on url codes, over real HTTP: scans from an iPhone, an Android phone
// and a desktop go to the iOS target, the Android target and the destination; routing rules
// decide first; custom-scheme links go to the store page unless open_custom_scheme; invalid
// targets are a 422 that changes nothing; UTM fields are merged by forward_query's rules; both
// are set, shown and removed through REST and GraphQL, and refused for static codes.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getTestApp, type TestApp } from '../support/app.ts';

const IPHONE =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 ' +
  'Mobile/15E148 Safari/604.1';
const ANDROID =
  'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0 Mobile Safari/537.36';
const DESKTOP = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0 Safari/537.36';

const IOS_STORE = 'https://apps.apple.com/app/id1234567890';
const PLAY_STORE = 'https://play.google.com/store/apps/details?id=com.example.app';

let app: TestApp;
let key: string;
let otherKey: string;

beforeAll(async () => {
  app = await getTestApp({ GEO_COUNTRY_HEADER: 'X-Test-Country' });
  key = await app.newAccountKey('app-links');
  otherKey = await app.newAccountKey('app-links-other');
});
afterAll(() => app.close());

async function createCode(body: Record<string, unknown>) {
  const res = await app.request('POST', '/v1/codes', { key, body: { content: 'https://example.com/app', ...body } });
  expect(res.status, res.text).toBe(201);
  return res.body;
}

/** Where a scan with this User-Agent (and query, and headers) is redirected. */
async function locationFor(scanUrl: string, userAgent: string, query = '', headers: Record<string, string> = {}) {
  const res = await fetch(`${scanUrl}${query}`, {
    redirect: 'manual',
    headers: { 'user-agent': userAgent, ...headers },
  });
  expect(res.status).toBe(302);
  return res.headers.get('location');
}

describe('app links', () => {
  it('send iPhone and Android scans to their targets and desktop scans to the destination', async () => {
    const code = await createCode({
      app_links: {
        ios: { link: 'https://app.example.com/item/42', store_url: IOS_STORE },
        android: { link: 'myapp://item/42', store_url: PLAY_STORE },
      },
    });
    expect(code.app_links).toEqual({
      ios: {
        link: 'https://app.example.com/item/42',
        store_url: IOS_STORE,
        open_custom_scheme: false,
        redirect_url: 'https://app.example.com/item/42',
      },
      // A custom scheme opens nothing without the app, which the service cannot see: the store page.
      android: { link: 'myapp://item/42', store_url: PLAY_STORE, open_custom_scheme: false, redirect_url: PLAY_STORE },
    });
    expect(await locationFor(code.scan_url, IPHONE)).toBe('https://app.example.com/item/42');
    expect(await locationFor(code.scan_url, ANDROID)).toBe(PLAY_STORE);
    expect(await locationFor(code.scan_url, DESKTOP)).toBe('https://example.com/app');
  });

  it('redirect to a custom scheme only with open_custom_scheme, and leave an OS without a target alone', async () => {
    const code = await createCode({ app_links: { android: { link: 'myapp://item/7', open_custom_scheme: true } } });
    expect(code.app_links.ios).toBeNull();
    expect(await locationFor(code.scan_url, ANDROID)).toBe('myapp://item/7');
    expect(await locationFor(code.scan_url, IPHONE)).toBe('https://example.com/app');
    const storeOnly = await createCode({ app_links: { ios: { store_url: IOS_STORE } } });
    expect(await locationFor(storeOnly.scan_url, IPHONE)).toBe(IOS_STORE);
  });

  it('come after routing rules: a matching rule wins, app links replace only the fallback destination', async () => {
    const code = await createCode({
      app_links: { ios: { store_url: IOS_STORE }, android: { store_url: PLAY_STORE } },
      routing: {
        rules: [
          { condition: 'country:DE', destination: 'https://example.de/app' },
          { condition: 'device:android & country:FR', destination: 'https://example.fr/android' },
        ],
      },
    });
    expect(await locationFor(code.scan_url, IPHONE, '', { 'x-test-country': 'DE' })).toBe('https://example.de/app');
    expect(await locationFor(code.scan_url, ANDROID, '', { 'x-test-country': 'FR' })).toBe(
      'https://example.fr/android',
    );
    expect(await locationFor(code.scan_url, ANDROID, '', { 'x-test-country': 'US' })).toBe(PLAY_STORE);
    expect(await locationFor(code.scan_url, IPHONE, '', { 'x-test-country': 'US' })).toBe(IOS_STORE);
    expect(await locationFor(code.scan_url, DESKTOP, '', { 'x-test-country': 'US' })).toBe('https://example.com/app');
  });

  it('go as written: neither UTM fields nor a forwarded query is added to an app target', async () => {
    const code = await createCode({
      forward_query: true,
      utm: { utm_source: 'poster' },
      app_links: { ios: { link: 'https://app.example.com/item/1' } },
    });
    expect(await locationFor(code.scan_url, IPHONE, '?ref=wall')).toBe('https://app.example.com/item/1');
    expect(await locationFor(code.scan_url, DESKTOP, '?ref=wall')).toBe(
      'https://example.com/app?utm_source=poster&ref=wall',
    );
  });

  it('refuse invalid targets with a 422 naming each, creating and changing nothing', async () => {
    const before = await app.testDb.db('codes').count({ n: '*' }).first();
    const bad: [unknown, string][] = [
      [{ ios: { link: 'javascript:alert(1)', store_url: IOS_STORE } }, 'app_links.ios.link'],
      [{ ios: { link: 'data:text/html,hi', store_url: IOS_STORE } }, 'app_links.ios.link'],
      [{ android: { link: 'file:///etc/passwd', store_url: PLAY_STORE } }, 'app_links.android.link'],
      [{ android: { link: 'not a url', store_url: PLAY_STORE } }, 'app_links.android.link'],
      [
        { ios: { link: 'https://app.example.com/', store_url: 'http://apps.apple.com/app/id1' } },
        'app_links.ios.store_url',
      ],
      [{ ios: { link: 'myapp://x' } }, 'app_links.ios.store_url'],
      [{ ios: { link: 'https://app.example.com/', open_custom_scheme: true } }, 'app_links.ios.open_custom_scheme'],
      [{ ios: {} }, 'app_links.ios.link'],
      [{}, 'app_links'],
      [{ ios: { link: 'https://app.example.com/', extra: 1 } }, 'app_links.ios.extra'],
      [{ windows: { link: 'https://app.example.com/' } }, 'app_links.windows'],
    ];
    for (const [appLinks, path] of bad) {
      const res = await app.request('POST', '/v1/codes', {
        key,
        body: { content: 'https://example.com/', app_links: appLinks },
      });
      expect(res.status, JSON.stringify(appLinks)).toBe(422);
      expect(res.headers.get('content-type')).toContain('application/problem+json');
      expect(
        res.body.errors.map((e: { path: string }) => e.path),
        JSON.stringify(appLinks),
      ).toContain(path);
    }
    expect(await app.testDb.db('codes').count({ n: '*' }).first()).toEqual(before);

    const code = await createCode({ app_links: { ios: { store_url: IOS_STORE } } });
    const patch = await app.request('PATCH', `/v1/codes/${code.id}`, {
      key,
      body: { name: 'renamed', app_links: { ios: { link: 'javascript:alert(1)', store_url: IOS_STORE } } },
    });
    expect(patch.status).toBe(422);
    const after = await app.request('GET', `/v1/codes/${code.id}`, { key });
    expect(after.body.name).toBeNull();
    expect(after.body.app_links).toEqual(code.app_links);
    expect(await locationFor(code.scan_url, IPHONE)).toBe(IOS_STORE);
  });

  it('are replaced whole and removed by PATCH, and the next scan follows at once', async () => {
    const code = await createCode({ app_links: { ios: { store_url: IOS_STORE } } });
    const replaced = await app.request('PATCH', `/v1/codes/${code.id}`, {
      key,
      body: { app_links: { android: { store_url: PLAY_STORE } } },
    });
    expect(replaced.status, replaced.text).toBe(200);
    expect(replaced.body.app_links.ios).toBeNull();
    expect(await locationFor(code.scan_url, IPHONE)).toBe('https://example.com/app');
    expect(await locationFor(code.scan_url, ANDROID)).toBe(PLAY_STORE);
    const removed = await app.request('PATCH', `/v1/codes/${code.id}`, { key, body: { app_links: null } });
    expect(removed.body.app_links).toBeNull();
    expect(await locationFor(code.scan_url, ANDROID)).toBe('https://example.com/app');
  });

  it('are url codes’ only, and another account cannot change them', async () => {
    const text = await app.request('POST', '/v1/codes', {
      key,
      body: {
        type: 'text',
        content: { text: 'hi' },
        app_links: { ios: { store_url: IOS_STORE } },
        utm: { utm_source: 'x' },
      },
    });
    expect(text.status).toBe(422);
    expect(text.body.errors.map((e: { path: string }) => e.path)).toEqual(expect.arrayContaining(['app_links', 'utm']));
    const code = await createCode({ app_links: { ios: { store_url: IOS_STORE } } });
    const other = await app.request('PATCH', `/v1/codes/${code.id}`, { key: otherKey, body: { app_links: null } });
    expect(other.status).toBe(404);
    expect(await locationFor(code.scan_url, IPHONE)).toBe(IOS_STORE);
  });
});

describe('UTM fields', () => {
  it('are merged into the destination by forward_query’s rules: the destination’s own parameters win', async () => {
    const code = await createCode({
      content: 'https://example.com/spring?ref=poster&utm_medium=web#offer',
      utm: { utm_source: 'poster', utm_medium: 'print', utm_campaign: 'spring 2026' },
    });
    expect(code.utm).toEqual({
      utm_source: 'poster',
      utm_medium: 'print',
      utm_campaign: 'spring 2026',
      utm_term: null,
      utm_content: null,
    });
    expect(await locationFor(code.scan_url, DESKTOP)).toBe(
      'https://example.com/spring?ref=poster&utm_medium=web&utm_source=poster&utm_campaign=spring+2026#offer',
    );
    // Without forward_query the scan's own query is not carried on.
    expect(await locationFor(code.scan_url, DESKTOP, '?utm_source=flyer')).toBe(
      'https://example.com/spring?ref=poster&utm_medium=web&utm_source=poster&utm_campaign=spring+2026#offer',
    );
  });

  it('with forward_query count as the destination’s own: the scan’s parameters follow, not replace', async () => {
    const code = await createCode({
      forward_query: true,
      utm: { utm_source: 'poster', utm_content: 'a' },
      routing: { rules: [{ condition: 'country:DE', destination: 'https://example.de/?utm_source=de' }] },
    });
    expect(await locationFor(code.scan_url, DESKTOP, '?utm_source=flyer&utm_term=x&gclid=1')).toBe(
      'https://example.com/app?utm_source=poster&utm_content=a&utm_term=x&gclid=1',
    );
    // A rule's destination gets them too, and keeps its own utm_source.
    expect(await locationFor(code.scan_url, DESKTOP, '?utm_term=x', { 'x-test-country': 'DE' })).toBe(
      'https://example.de/?utm_source=de&utm_content=a&utm_term=x',
    );
  });

  it('reach a paused code’s fallback destination too, as forward_query does', async () => {
    const code = await createCode({
      utm: { utm_source: 'poster' },
      status: 'paused',
      paused_destination: 'https://example.com/back-soon',
      app_links: { ios: { store_url: IOS_STORE } },
    });
    expect(await locationFor(code.scan_url, DESKTOP)).toBe('https://example.com/back-soon?utm_source=poster');
    // A paused code's scans do not go to app targets either: the lifecycle answers first.
    expect(await locationFor(code.scan_url, IPHONE)).toBe('https://example.com/back-soon?utm_source=poster');
  });

  it('refuse empty and unknown fields with a 422, and are removed by null', async () => {
    for (const [utm, path] of [
      [{}, 'utm'],
      [{ utm_source: '' }, 'utm.utm_source'],
      [{ utm_source: 'x'.repeat(201) }, 'utm.utm_source'],
      [{ utm_id: 'x' }, 'utm'],
      [{ utm_source: 3 }, 'utm.utm_source'],
    ] as const) {
      const res = await app.request('POST', '/v1/codes', { key, body: { content: 'https://example.com/', utm } });
      expect(res.status, JSON.stringify(utm)).toBe(422);
      expect(
        res.body.errors.map((e: { path: string }) => e.path),
        JSON.stringify(utm),
      ).toContain(path);
    }
    const code = await createCode({ utm: { utm_source: 'poster' } });
    const removed = await app.request('PATCH', `/v1/codes/${code.id}`, { key, body: { utm: null } });
    expect(removed.status).toBe(200);
    expect(removed.body.utm).toBeNull();
    expect(await locationFor(code.scan_url, DESKTOP)).toBe('https://example.com/app');
  });
});

describe('GraphQL', () => {
  const FIELDS =
    'id scanUrl appLinks { ios { link storeUrl openCustomScheme redirectUrl } android { redirectUrl } } ' +
    'utm { utmSource utmMedium utmCampaign utmTerm utmContent }';

  it('sets, shows and removes app links and UTM fields with the same rules', async () => {
    const created = await app.graphql(
      key,
      `mutation($input: CreateCodeInput!) { createCode(input: $input) { ${FIELDS} } }`,
      {
        input: {
          content: 'https://example.com/gql',
          appLinks: { ios: { link: 'myapp://x', storeUrl: IOS_STORE }, android: null },
          utm: { utmSource: 'gql', utmCampaign: 'c' },
        },
      },
    );
    expect(created.body.errors).toBeUndefined();
    const code = created.body.data.createCode;
    expect(code.appLinks).toEqual({
      ios: { link: 'myapp://x', storeUrl: IOS_STORE, openCustomScheme: false, redirectUrl: IOS_STORE },
      android: null,
    });
    expect(code.utm).toEqual({ utmSource: 'gql', utmMedium: null, utmCampaign: 'c', utmTerm: null, utmContent: null });
    expect(await locationFor(code.scanUrl, IPHONE)).toBe(IOS_STORE);
    expect(await locationFor(code.scanUrl, DESKTOP)).toBe('https://example.com/gql?utm_source=gql&utm_campaign=c');

    const invalid = await app.graphql(
      key,
      `mutation($id: ID!) { updateCode(id: $id, input: { appLinks: { ios: { link: "javascript:1" } } }) { id } }`,
      { id: code.id },
    );
    expect(invalid.body.errors[0].extensions.code).toBe('VALIDATION_FAILED');

    const removed = await app.graphql(
      key,
      `mutation($id: ID!) { updateCode(id: $id, input: { appLinks: null, utm: null }) { ${FIELDS} } }`,
      { id: code.id },
    );
    expect(removed.body.errors).toBeUndefined();
    expect(removed.body.data.updateCode.appLinks).toBeNull();
    expect(removed.body.data.updateCode.utm).toBeNull();
    expect(await locationFor(code.scanUrl, IPHONE)).toBe('https://example.com/gql');
  });
});
