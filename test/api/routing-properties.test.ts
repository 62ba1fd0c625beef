// Property: the explainer (POST /routing/resolve) sends a simulated scan where the redirect
// sends the same real scan, for generated rule sets and requests. Rules cover geo, device,
// language, ip, query and schedule, alone and combined (AND), with tied priorities; split and
// time-of-day rules are left out because they depend on the visitor hash and the clock.
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getTestApp, type TestApp } from '../support/app.ts';
import { createCode } from '../support/factories.ts';

let app: TestApp;
let key: string;

beforeAll(async () => {
  app = await getTestApp({ TRUST_PROXY: 'true', RATE_LIMIT_PER_MINUTE: '0', SCAN_RATE_LIMIT_PER_MINUTE: '0' });
  key = await app.newAccountKey('routing-properties');
});
afterAll(() => app.close());

// Header values only: no traffic goes to these addresses.
const IPS = ['81.2.69.142', '8.8.8.8', '1.1.1.1', '91.198.174.192', '203.0.113.7', '2a00:1450:4001::1', '::1'];
const USER_AGENTS = [
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 ' +
    'Mobile/15E148 Safari/604.1',
  'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Mobile ' +
    'Safari/537.36',
  'Mozilla/5.0 (iPad; CPU OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 ' +
    'Mobile/15E148 Safari/604.1',
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Safari/537.36',
  'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)',
  '',
];
const LANGUAGES = ['de-DE,de;q=0.9,en;q=0.8', 'en-US', 'fr', 'es;q=0.5,de', ''];
const QUERIES: Record<string, string>[] = [{}, { src: 'flyer' }, { src: 'poster', lang: 'de' }];

const DIMENSIONS = {
  countries: fc.subarray(['GB', 'US', 'DE', 'NL', 'AU'], { minLength: 1 }),
  devices: fc.subarray(['ios', 'android', 'desktop', 'mobile', 'tablet'], { minLength: 1 }),
  languages: fc.subarray(['de', 'en', 'fr', 'es'], { minLength: 1 }),
  cidrs: fc.subarray(['81.2.0.0/16', '8.8.8.0/24', '1.0.0.0/8', '2a00::/16', '::1'], { minLength: 1 }),
  params: fc.constantFrom({ src: 'flyer' }, { src: 'poster' }, { lang: 'de' }),
  after: fc.constantFrom('2020-01-01T00:00:00Z', '2099-01-01T00:00:00Z'),
};
const TYPE_OF: Record<string, string> = {
  countries: 'geo',
  devices: 'device',
  languages: 'language',
  cidrs: 'ip',
  params: 'query',
  after: 'schedule',
};
type Dimension = keyof typeof DIMENSIONS;

/** A rule's conditions: its own dimension, and sometimes a second one that must match too. */
const conditions = fc
  .tuple(
    fc.constantFrom(...(Object.keys(DIMENSIONS) as Dimension[])),
    fc.option(fc.constantFrom(...(Object.keys(DIMENSIONS) as Dimension[])), { freq: 3 }),
  )
  .chain(([first, second]) =>
    fc
      .record(Object.fromEntries([first, second ?? first].map((d) => [d, DIMENSIONS[d]])))
      .map((c) => ({ type: TYPE_OF[first]!, conditions: c })),
  );

const rules = fc
  .array(fc.tuple(conditions, fc.integer({ min: 1, max: 3 })), { maxLength: 5 })
  .map((list) =>
    list.map(([rule, priority], i) => ({ ...rule, priority, destination: `https://example.com/rule-${i}` })),
  );

const scanRequest = fc.record({
  ip: fc.constantFrom(...IPS),
  userAgent: fc.constantFrom(...USER_AGENTS),
  language: fc.constantFrom(...LANGUAGES),
  query: fc.constantFrom(...QUERIES),
});

describe('routing: explain agrees with the redirect', () => {
  it('for generated rule sets and scans', async () => {
    const code = await createCode(app, key, { content: 'https://example.com/fallback' });
    const slug = new URL(code.scan_url).pathname;
    const outcomes = { rule: 0, fallback: 0 };
    await fc.assert(
      fc.asyncProperty(rules, fc.array(scanRequest, { minLength: 1, maxLength: 4 }), async (ruleSet, scans) => {
        const put = await app.request('PUT', `/v1/codes/${code.id}/routing`, {
          key,
          body: { enabled: true, rules: ruleSet },
        });
        expect(put.status, put.text).toBe(200);
        for (const scan of scans) {
          const explained = await app.request('POST', `/v1/codes/${code.id}/routing/resolve`, {
            key,
            body: { ip: scan.ip, user_agent: scan.userAgent, accept_language: scan.language, query: scan.query },
          });
          expect(explained.status, explained.text).toBe(200);
          const headers: Record<string, string> = { 'x-forwarded-for': scan.ip, 'user-agent': scan.userAgent };
          if (scan.language) headers['accept-language'] = scan.language;
          const search = new URLSearchParams(scan.query).toString();
          const redirected = await app.request('GET', `${slug}${search ? `?${search}` : ''}`, { headers });
          expect(redirected.status).toBe(302);
          expect(redirected.headers.get('location'), JSON.stringify({ ruleSet, scan, explained: explained.body })).toBe(
            explained.body.destination,
          );
          outcomes[explained.body.ruleId ? 'rule' : 'fallback']++;
        }
      }),
      { numRuns: 40 },
    );
    // The generators reach both outcomes, so the agreement above is about rules, not only fallbacks.
    expect(outcomes.rule).toBeGreaterThan(5);
    expect(outcomes.fallback).toBeGreaterThan(5);
  });
});
