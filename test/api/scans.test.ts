// The public scan route over real HTTP: redirects, routing by request facts, recording.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getTestApp, type TestApp } from '../support/app.ts';
import { createCode } from '../support/factories.ts';

const IPHONE =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 ' +
  'Mobile/15E148 Safari/604.1';
const WINDOWS_CHROME =
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Safari/537.36';
const SLACK_PREVIEW = 'Slackbot-LinkExpanding 1.0 (+https://api.slack.com/robots)';

let app: TestApp;
let key: string;

beforeAll(async () => {
  app = await getTestApp({ TRUST_PROXY: 'true' });
  key = await app.newAccountKey();
});
afterAll(() => app.close());

const pathOf = (code: { scan_url: string }) => new URL(code.scan_url).pathname;
const scan = (code: { scan_url: string }, headers: Record<string, string> = {}, method = 'GET', query = '') =>
  app.request(method, pathOf(code) + query, { headers });

async function storedScans(codeId: string) {
  await app.services.scans.recorder.flush();
  return app.testDb.db('scans').where({ code_id: codeId }).orderBy('id');
}

describe('redirect', () => {
  it('answers 302 to the content URL with Cache-Control private, max-age=0', async () => {
    const code = await createCode(app, key, { content: 'https://example.com/landing?x=1' });
    const res = await scan(code);
    expect(res.status).toBe(302);
    expect(res.headers.get('location')).toBe('https://example.com/landing?x=1');
    expect(res.headers.get('cache-control')).toBe('private, max-age=0');
  });

  it('redirects to non-ASCII destinations in their header-safe form', async () => {
    const code = await createCode(app, key, {
      content: 'https://bücher.example/straße?q=café',
      routing: { rules: [{ condition: 'device:ios', destination: 'https://例え.example/パス' }] },
    });
    expect(code.content).toBe('https://bücher.example/straße?q=café');
    expect((await scan(code)).headers.get('location')).toBe('https://xn--bcher-kva.example/stra%C3%9Fe?q=caf%C3%A9');
    expect((await scan(code, { 'user-agent': IPHONE })).headers.get('location')).toBe(
      new URL('https://例え.example/パス').href,
    );
  });

  it('needs no key, and the scan URL is the short form PUBLIC_BASE_URL/slug', async () => {
    const code = await createCode(app, key);
    expect(code.scan_url).toMatch(new RegExp(`^${app.url}/[0-9A-Za-z]{7}$`));
    expect((await scan(code)).status).toBe(302);
  });

  it('routes by country from X-Forwarded-For behind a trusted proxy (8.8.8.8 is US)', async () => {
    const code = await createCode(app, key, {
      routing: { rules: [{ condition: 'country:US', destination: 'https://example.com/us' }] },
    });
    expect((await scan(code, { 'x-forwarded-for': '8.8.8.8' })).headers.get('location')).toBe('https://example.com/us');
    expect((await scan(code, { 'x-forwarded-for': '81.2.69.142' })).headers.get('location')).toBe(code.content);
  });

  it('routes by device, language and query parameter, first matching rule first', async () => {
    const code = await createCode(app, key, {
      routing: {
        rules: [
          { condition: 'query:src=flyer', destination: 'https://example.com/flyer' },
          { condition: 'device:ios', destination: 'https://apps.apple.com/app' },
          { condition: 'language:de', destination: 'https://example.de/' },
        ],
      },
    });
    const location = async (headers: Record<string, string>, query = '') =>
      (await scan(code, headers, 'GET', query)).headers.get('location');
    expect(await location({ 'user-agent': IPHONE }, '?src=flyer')).toBe('https://example.com/flyer');
    expect(await location({ 'user-agent': IPHONE, 'accept-language': 'de-DE' })).toBe('https://apps.apple.com/app');
    expect(await location({ 'user-agent': WINDOWS_CHROME, 'accept-language': 'de-DE,en;q=0.5' })).toBe(
      'https://example.de/',
    );
    expect(await location({ 'user-agent': WINDOWS_CHROME, 'accept-language': 'en-US,de;q=0.5' })).toBe(code.content);
  });

  it('sends to the content URL when routing is disabled', async () => {
    const code = await createCode(app, key, {
      routing: { enabled: false, rules: [{ condition: 'device:ios', destination: 'https://apps.apple.com/app' }] },
    });
    expect((await scan(code, { 'user-agent': IPHONE })).headers.get('location')).toBe(code.content);
  });

  it('follows a change at once: the cache entry is dropped on update', async () => {
    const code = await createCode(app, key);
    expect((await scan(code)).headers.get('location')).toBe(code.content);
    await app.request('PATCH', `/v1/codes/${code.id}`, { key, body: { destination: 'https://example.com/changed' } });
    expect((await scan(code)).headers.get('location')).toBe('https://example.com/changed');
    await app.request('POST', `/v1/codes/${code.id}/routing/rules`, {
      key,
      body: { type: 'device', conditions: { devices: ['ios'] }, destination: 'https://apps.apple.com/x' },
    });
    expect((await scan(code, { 'user-agent': IPHONE })).headers.get('location')).toBe('https://apps.apple.com/x');
  });
});

describe('unknown and deleted codes', () => {
  it('answers 404 with a small HTML page for browsers and problem+json for JSON clients', async () => {
    const code = await createCode(app, key);
    await app.request('DELETE', `/v1/codes/${code.id}`, { key });
    const html = await scan(code, { accept: 'text/html,application/xhtml+xml' });
    expect(html.status).toBe(404);
    expect(html.headers.get('content-type')).toContain('text/html');
    expect(html.text).toContain('not active');
    expect(html.headers.get('content-security-policy')).toContain("default-src 'none'");
    const json = await scan(code, { accept: 'application/json' });
    expect(json.status).toBe(404);
    expect(json.headers.get('content-type')).toContain('application/problem+json');
    expect(json.body).toMatchObject({ status: 404, title: 'Not found' });
    expect((await scan({ scan_url: `${app.url}/zzzzzzz` })).status).toBe(404);
  });

  it("leaves the server's own paths alone", async () => {
    for (const path of ['/healthz', '/readyz']) expect((await app.request('GET', path)).status).toBe(200);
    expect(
      (await app.request('GET', '/graphql', { headers: { accept: 'text/html' } })).headers.get('content-type'),
    ).toContain('text/html');
    expect((await app.request('GET', '/v1/codes')).status).toBe(401);
  });
});

describe('recording', () => {
  it('stores one row per GET with the visitor facts and no address', async () => {
    const code = await createCode(app, key, {
      routing: { rules: [{ condition: 'country:US', destination: 'https://example.com/us' }] },
    });
    await scan(code, {
      'x-forwarded-for': '8.8.8.8',
      'user-agent': IPHONE,
      'accept-language': 'fr-CA,fr;q=0.9',
      referer: 'https://news.example.org/story',
    });
    const rows = await storedScans(code.id);
    expect(rows).toHaveLength(1);
    const row = rows[0];
    expect(row).toMatchObject({
      account_id: expect.stringMatching(/^acct_/),
      country: 'US',
      device: 'mobile',
      os: 'iOS',
      browser: 'Safari',
      language: 'fr',
      referrer_host: 'news.example.org',
      rule_id: code.routing.rules[0].ruleId,
    });
    expect(Boolean(row.is_bot)).toBe(false);
    expect(row.visitor_hash).toMatch(/^[0-9a-f]{32}$/);
    expect(JSON.stringify(row)).not.toContain('8.8.8.8');
    expect(Math.abs(Number(row.scanned_at) - Date.now())).toBeLessThan(60_000);
  });

  it('gives the same visitor the same hash on the same day and another visitor another', async () => {
    const code = await createCode(app, key);
    await scan(code, { 'x-forwarded-for': '8.8.8.8', 'user-agent': IPHONE });
    await scan(code, { 'x-forwarded-for': '8.8.8.8', 'user-agent': IPHONE });
    await scan(code, { 'x-forwarded-for': '1.1.1.1', 'user-agent': IPHONE });
    const hashes = (await storedScans(code.id)).map((r) => r.visitor_hash);
    expect(hashes[0]).toBe(hashes[1]);
    expect(hashes[2]).not.toBe(hashes[0]);
  });

  it('answers HEAD like GET but records nothing', async () => {
    const code = await createCode(app, key);
    const res = await scan(code, {}, 'HEAD');
    expect(res.status).toBe(302);
    expect(res.headers.get('location')).toBe(code.content);
    expect(await storedScans(code.id)).toHaveLength(0);
  });

  it('redirects bots and link previewers but flags them', async () => {
    const code = await createCode(app, key);
    const res = await scan(code, { 'user-agent': SLACK_PREVIEW });
    expect(res.status).toBe(302);
    const rows = await storedScans(code.id);
    expect(rows).toHaveLength(1);
    expect(Boolean(rows[0].is_bot)).toBe(true);
  });

  it('records nothing for a deleted code', async () => {
    const code = await createCode(app, key);
    await app.request('DELETE', `/v1/codes/${code.id}`, { key });
    await scan(code);
    expect(await storedScans(code.id)).toHaveLength(0);
  });
});

describe('proxy and header settings', () => {
  it('ignores X-Forwarded-For without TRUST_PROXY', async () => {
    const own = await getTestApp();
    try {
      const ownKey = await own.newAccountKey();
      const code = await createCode(own, ownKey, {
        routing: { rules: [{ condition: 'country:US', destination: 'https://example.com/us' }] },
      });
      const res = await own.request('GET', pathOf(code), { headers: { 'x-forwarded-for': '8.8.8.8' } });
      expect(res.headers.get('location')).toBe(code.content);
    } finally {
      await own.close();
    }
  });

  it('lets GEO_COUNTRY_HEADER override the lookup, and uses the configured redirect status', async () => {
    const own = await getTestApp({ GEO_COUNTRY_HEADER: 'CF-IPCountry', SCAN_REDIRECT_STATUS: '307' });
    try {
      const ownKey = await own.newAccountKey();
      const code = await createCode(own, ownKey, {
        routing: { rules: [{ condition: 'country:JP', destination: 'https://example.jp/' }] },
      });
      const res = await own.request('GET', pathOf(code), { headers: { 'cf-ipcountry': 'jp' } });
      expect(res.status).toBe(307);
      expect(res.headers.get('location')).toBe('https://example.jp/');
      expect((await own.request('GET', pathOf(code))).headers.get('location')).toBe(code.content);
    } finally {
      await own.close();
    }
  });
});

describe('behind proxies', () => {
  it('a forged leftmost X-Forwarded-For entry changes neither the routing country nor the per-IP limit', async () => {
    const own = await getTestApp({ TRUSTED_PROXIES: '127.0.0.1, 10.0.0.0/8', SCAN_RATE_LIMIT_PER_MINUTE: '3' });
    try {
      const ownKey = await own.newAccountKey();
      const code = await createCode(own, ownKey, {
        content: 'https://example.com/elsewhere',
        routing: { rules: [{ condition: 'country:US', destination: 'https://example.com/us' }] },
      });
      // The client (81.2.69.142, GB) claims to be 8.8.8.8 (US); our proxy 10.0.0.2 appended the real address.
      const forged = (n: number) => ({ 'x-forwarded-for': `8.8.8.${n}, 81.2.69.142, 10.0.0.2` });
      const answers = [];
      for (let n = 0; n < 4; n++) answers.push(await own.request('GET', pathOf(code), { headers: forged(n) }));
      expect(answers.slice(0, 3).map((res) => res.headers.get('location'))).toEqual(
        Array(3).fill('https://example.com/elsewhere'),
      );
      // Another forged entry each time, the same visitor: the fourth scan in the minute is limited.
      expect(answers[3]!.status).toBe(429);
      await own.services.scans.recorder.flush();
      const stored = await own.testDb.db('scans').where({ code_id: code.id });
      expect(stored.map((row) => row.country)).toEqual(['GB', 'GB', 'GB']);
    } finally {
      await own.close();
    }
  });
});
