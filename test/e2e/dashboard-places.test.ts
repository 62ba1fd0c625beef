// The dashboard's region and city breakdowns in Chromium, with the tiny city database of the
// tests (support/mmdb.ts): labels read "San Jose, California, United States (US)", the DB-IP credit
// link sits beneath them; without GEOIP_CITY_DB they are not shown (dashboard.test.ts).
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getTestApp, type TestApp } from '../support/app.ts';
import { openDashboardBrowser, requireBuiltDashboard } from '../support/browser.ts';
import { createCode } from '../support/factories.ts';
import { writeTestCityDb } from '../support/mmdb.ts';

let app: TestApp;
let key: string;
let browser: Browser;
let page: Page;
const pageErrors: string[] = [];

beforeAll(async () => {
  requireBuiltDashboard();
  app = await getTestApp({ TRUSTED_PROXIES: '127.0.0.1', GEOIP_CITY_DB: writeTestCityDb() });
  key = await app.newAccountKey();
  const code = await createCode(app, key, { content: 'https://example.com/places' });
  for (const [i, ip] of ['192.0.2.1', '192.0.2.2', '198.51.100.200'].entries()) {
    const headers = { 'user-agent': `Mozilla/5.0 (Windows NT 10.0) visitor-${i}`, 'x-forwarded-for': ip };
    expect((await app.request('GET', new URL(code.scan_url).pathname, { headers })).status).toBe(302);
  }
  await app.services.scans.recorder.flush();
  ({ browser, page } = await openDashboardBrowser(pageErrors));
}, 60_000);

afterAll(async () => {
  await browser?.close();
  await app?.close();
});

describe('region and city in the dashboard', () => {
  it('lists them account-wide with readable labels and the DB-IP credit', async () => {
    await page.goto(`${app.url}/dashboard/`);
    await page.fill('#api-key', key);
    await page.click('#api-key-form button[type=submit]');
    await page.getByRole('link', { name: 'Analytics', exact: true }).first().click();
    await page.waitForSelector('[data-dimension="city"] tr');
    const rows = (dimension: string) =>
      page.$$eval(`[data-dimension="${dimension}"] tr`, (trs) =>
        trs.map((r) => [r.querySelector('th')!.textContent, r.lastElementChild!.textContent]),
      );
    expect(await rows('region')).toEqual([['California, United States (US)', '2']]);
    expect(await rows('city')).toEqual([
      ['San Jose, California, United States (US)', '2'],
      ['Singapore, Singapore (SG)', '1'],
    ]);
    const credit = page.locator('[data-dimension="city"] .attribution a');
    expect(await credit.getAttribute('href')).toBe('https://db-ip.com');
    expect(await credit.textContent()).toBe('IP Geolocation by DB-IP');
    expect(pageErrors).toEqual([]);
  });
});
