// `/` on the service's own host: where someone who types in the service's address lands. The
// dashboard by default; ROOT_REDIRECT_URL for another page (Shlink's base URL redirect). An
// own domain's root keeps its fallback (test/contract/scans.test.ts, test/api/domains.test.ts).
import { afterEach, describe, expect, it } from 'vitest';
import { getTestApp, type TestApp } from '../support/app.ts';

let app: TestApp | undefined;
afterEach(async () => {
  await app?.close();
  app = undefined;
});

describe('the root of the service', () => {
  it('leads to the dashboard: 302 to /dashboard (GET, HEAD, with a query string), which serves its page', async () => {
    app = await getTestApp();
    for (const [method, path] of [
      ['GET', '/'],
      ['HEAD', '/'],
      ['GET', '/?utm_source=flyer'],
    ] as const) {
      const res = await fetch(app.url + path, { method, redirect: 'manual' });
      expect([res.status, res.headers.get('location')], `${method} ${path}`).toEqual([302, '/dashboard']);
    }
    const landed = await fetch(`${app.url}/`);
    expect([landed.status, landed.url]).toEqual([200, `${app.url}/dashboard`]);
    expect(landed.headers.get('content-type')).toContain('text/html');
    // Other methods on / are not a page to lead to.
    expect((await fetch(`${app.url}/`, { method: 'POST', redirect: 'manual' })).status).toBe(404);
  });

  it('goes where ROOT_REDIRECT_URL says, and records no scan', async () => {
    // Scans are written every millisecond here, so one the visit recorded would be stored after the pause.
    app = await getTestApp({ ROOT_REDIRECT_URL: 'https://example.com/about-our-codes', SCAN_FLUSH_INTERVAL_MS: '1' });
    const res = await fetch(`${app.url}/`, { redirect: 'manual' });
    expect([res.status, res.headers.get('location')]).toEqual([302, 'https://example.com/about-our-codes']);
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(await app.testDb.db('scans').select('id')).toEqual([]);
  });
});
