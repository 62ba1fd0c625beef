// Contract: the public scan redirect at the server root, its redirect, its pages and problems,
// validated against the served document, HEAD's answers too.
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { getTestApp, type TestApp } from '../support/app.ts';
import { contractClient, loadContract, type Contract } from '../support/contract.ts';
import { fakeDns, requestWithHost } from '../support/dns.ts';
import { createCode } from '../support/factories.ts';

const SCANS_PER_MINUTE = 3;

const dns = fakeDns();

let app: TestApp;
let contract: Contract;
let call: ReturnType<typeof contractClient>;
let key: string;

beforeAll(async () => {
  app = await getTestApp({ TRUST_PROXY: 'true', SCAN_RATE_LIMIT_PER_MINUTE: String(SCANS_PER_MINUTE) }, dns);
  contract = await loadContract(app);
  call = contractClient(app, contract);
  key = await app.newAccountKey();
});
afterAll(() => app.close());

let visitor = 0;
/** A new visitor address per call site, so the per-address limit only trips where meant to. */
const from = (accept = 'text/html') => ({ 'x-forwarded-for': `198.51.100.${++visitor}`, accept });
const pathOf = (code: { scan_url: string }) => new URL(code.scan_url).pathname;

describe('scans', () => {
  it('302 to the destination routing picks, with Location and Cache-Control; HEAD alike', async () => {
    const code = await createCode(app, key, {
      routing: { rules: [{ condition: 'query:src=flyer', destination: 'https://example.com/flyer' }] },
    });
    const plain = await call('GET', pathOf(code), { headers: from() });
    expect(plain.status).toBe(302);
    expect(plain.headers.get('location')).toBe(code.content);
    expect(plain.headers.get('cache-control')).toBe('private, max-age=0');
    const routed = await call('GET', `${pathOf(code)}?src=flyer`, { headers: from() });
    expect(routed.headers.get('location')).toBe('https://example.com/flyer');

    const head = await call('HEAD', pathOf(code), { headers: from() });
    expect(head.status).toBe(302);
    expect(head.headers.get('location')).toBe(code.content);
    expect(head.text).toBe('');
  });

  it('302 for custom slugs of every allowed shape: 3 to 64 characters with _ and -', async () => {
    for (const slug of ['ab1', 'spring_sale-2026', `a-${'b'.repeat(61)}_`]) {
      const code = await createCode(app, key, { slug });
      expect(pathOf(code)).toBe(`/${slug}`);
      expect((await call('GET', pathOf(code), { headers: from() })).status).toBe(302);
      expect((await call('HEAD', pathOf(code), { headers: from() })).status).toBe(302);
    }
  });

  it('the root: 302 to the dashboard on the service’s own host, to an own domain’s fallback, 404 without', async () => {
    const verifiedDomain = async (hostname: string, extra: Record<string, string> = {}) => {
      const added = await app.request('POST', '/v1/domains', { key, body: { hostname, ...extra } });
      dns.txt.set(added.body.verification.name, [[added.body.verification.value]]);
      expect((await app.request('POST', `/v1/domains/${added.body.id}/verify`, { key })).body.status).toBe('verified');
    };
    await verifiedDomain('root.example', { fallback_url: 'https://example.com/home' });
    await verifiedDomain('bare.example');
    for (const method of ['GET', 'HEAD']) {
      const atRoot = async (host: string) => {
        const res = await requestWithHost(app.url, host, method, '/', from());
        contract.check(method, '/', res);
        return res;
      };
      const fallback = await atRoot('root.example');
      expect(fallback.status).toBe(302);
      expect(fallback.headers.get('location')).toBe('https://example.com/home');
      expect((await atRoot('bare.example')).status).toBe(404);
      const own = await call(method, '/', { headers: from() });
      expect([own.status, own.headers.get('location')]).toEqual([302, '/dashboard']);
    }
  });

  it('404 as a page or a problem for an unknown slug and a deleted code', async () => {
    const page = await call('GET', '/Zz9Zz9Zz9', { headers: from() });
    expect(page.status).toBe(404);
    expect(page.headers.get('content-type')).toContain('text/html');
    const problem = await call('GET', '/Zz9Zz9Zz9', { headers: from('application/json') });
    expect(problem.status).toBe(404);
    expect(problem.body).toMatchObject({ type: '/problems/not-found', status: 404, instance: '/Zz9Zz9Zz9' });

    const code = await createCode(app, key);
    expect((await app.request('DELETE', `/v1/codes/${code.id}`, { key })).status).toBe(204);
    expect((await call('GET', pathOf(code), { headers: from('application/problem+json') })).status).toBe(404);
    expect((await call('HEAD', pathOf(code), { headers: from() })).status).toBe(404);
  });

  it('429 as a page or a problem, with Retry-After and RateLimit headers, past the per-address limit', async () => {
    const code = await createCode(app, key);
    const headers = from();
    for (let i = 0; i < SCANS_PER_MINUTE; i++) expect((await call('GET', pathOf(code), { headers })).status).toBe(302);
    const page = await call('GET', pathOf(code), { headers });
    expect(page.status).toBe(429);
    expect(page.headers.get('content-type')).toContain('text/html');
    expect(Number(page.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    const problem = await call('GET', pathOf(code), { headers: { ...headers, accept: 'application/json' } });
    expect(problem.status).toBe(429);
    expect(problem.body).toMatchObject({ type: '/problems/rate-limited', status: 429 });
  });

  it('503 with a problem when the code cannot be looked up', async () => {
    const load = vi.spyOn(app.services.scans.targets, 'load').mockRejectedValueOnce(new Error('database down'));
    try {
      const res = await call('GET', '/Qq1Qq1Qq1', { headers: from() });
      expect(res.status).toBe(503);
      expect(res.body).toMatchObject({ type: '/problems/unavailable', status: 503 });
    } finally {
      load.mockRestore();
    }
  });

  it('uses the configured redirect status (SCAN_REDIRECT_STATUS=307)', async () => {
    const own = await getTestApp({ SCAN_REDIRECT_STATUS: '307' });
    try {
      const code = await createCode(own, await own.newAccountKey());
      const res = await own.request('GET', pathOf(code));
      contract.check('GET', pathOf(code), res);
      expect(res.status).toBe(307);
      expect(res.headers.get('location')).toBe(code.content);
    } finally {
      await own.close();
    }
  });

  it('a password-protected code: 200 unlock page, 400, 403 and 303 from its form; 303 to GET without one', async () => {
    const code = await createCode(app, key, { password: 'open sesame' });
    const page = await call('GET', pathOf(code), { headers: from() });
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toContain('text/html');
    expect((await call('HEAD', pathOf(code), { headers: from() })).status).toBe(200);
    const form = (password: string) => ({
      headers: { ...from(), 'content-type': 'application/x-www-form-urlencoded' },
      rawBody: new URLSearchParams({ password }).toString(),
    });
    expect((await call('POST', pathOf(code), form(''))).status).toBe(400);
    expect((await call('POST', pathOf(code), form('wrong'))).status).toBe(403);
    const unlocked = await call('POST', pathOf(code), form('open sesame'));
    expect(unlocked.status).toBe(303);
    expect(unlocked.headers.get('location')).toBe(code.content);
    expect(unlocked.headers.get('set-cookie')).toMatch(/^qr_unlock=/);
    const open = await createCode(app, key);
    const toGet = await call('POST', pathOf(open), form('anything'));
    expect([toGet.status, toGet.headers.get('location')]).toEqual([303, pathOf(open)]);
    expect((await call('POST', '/Zz9Zz9Zz8', form('anything'))).status).toBe(404);
  });

  it('a hosted page: 200 page (HEAD alike), its vCard 200 and 404, the page after the unlock form', async () => {
    const card = { kind: 'business_card', name: 'Ada Lovelace' };
    const code = await createCode(app, key, { page: card });
    const page = await call('GET', pathOf(code), { headers: from() });
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toContain('text/html');
    expect((await call('HEAD', pathOf(code), { headers: from() })).status).toBe(200);
    const vcard = await call('GET', `${pathOf(code)}/contact.vcf`, { headers: from() });
    expect(vcard.status).toBe(200);
    expect(vcard.headers.get('content-type')).toBe('text/vcard; charset=utf-8');
    expect((await call('HEAD', `${pathOf(code)}/contact.vcf`, { headers: from() })).status).toBe(200);
    expect((await call('GET', '/Zz9Zz9Zz7/contact.vcf', { headers: from() })).status).toBe(404);
    expect((await call('HEAD', '/Zz9Zz9Zz7/contact.vcf', { headers: from() })).status).toBe(404);
    const locked = await createCode(app, key, { page: card, password: 'open sesame' });
    const unlocked = await call('POST', pathOf(locked), {
      headers: { ...from(), 'content-type': 'application/x-www-form-urlencoded' },
      rawBody: 'password=open+sesame',
    });
    expect(unlocked.status).toBe(200);
    expect(unlocked.headers.get('set-cookie')).toMatch(/^qr_unlock=/);
  });

  it('walked every scans operation', () => contract.expectTagCovered('Scans'));
});
