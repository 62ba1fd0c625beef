// The code editor's app links and UTM fields in headless Chromium: an invalid store page is
// refused by name and nothing is saved; targets and UTM fields typed in are saved (REST agrees
// and scans follow them), shown again on reload, and emptied fields remove them.
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getTestApp, type TestApp } from '../support/app.ts';
import { openDashboardBrowser, requireBuiltDashboard } from '../support/browser.ts';

const IPHONE = 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 Mobile/15E148';
const IOS_STORE = 'https://apps.apple.com/app/id1234567890';

let app: TestApp;
let key: string;
let browser: Browser;
let page: Page;
const pageErrors: string[] = [];

beforeAll(async () => {
  requireBuiltDashboard();
  app = await getTestApp();
  key = await app.newAccountKey('dashboard-app-links');
  ({ browser, page } = await openDashboardBrowser(pageErrors));
}, 60_000);

afterAll(async () => {
  await browser?.close();
  await app?.close();
});

const locationFor = async (scanUrl: string, userAgent: string) =>
  (await fetch(scanUrl, { redirect: 'manual', headers: { 'user-agent': userAgent } })).headers.get('location');

describe('app links and UTM fields in the code editor', () => {
  it('saves, shows and removes them, refusing an invalid target by name', async () => {
    const code = (await app.request('POST', '/v1/codes', { key, body: { content: 'https://example.com/app' } })).body;
    await page.goto(`${app.url}/dashboard/`);
    await page.fill('#api-key', key);
    await page.click('#api-key-form button[type=submit]');
    await page.locator(`tr[data-code-id="${code.id}"]`).waitFor();

    await page.goto(`${app.url}/dashboard/codes/${code.id}`);
    await page.locator('#code-ios-link').waitFor();
    await page.fill('#code-ios-link', 'myapp://item/1');
    await page.fill('#code-ios-store', 'http://apps.apple.com/app/id1');
    await page.click('button[type=submit]');
    await page.locator('.field:has(#code-ios-store) .field-messages', { hasText: 'https://' }).waitFor();
    expect((await app.request('GET', `/v1/codes/${code.id}`, { key })).body.app_links).toBeNull();

    await page.fill('#code-ios-store', IOS_STORE);
    await page.fill('#code-utmSource', 'poster');
    await page.fill('#code-utmCampaign', 'spring');
    await page.click('button[type=submit]');
    await page.getByText('Saved.').waitFor();
    const saved = (await app.request('GET', `/v1/codes/${code.id}`, { key })).body;
    expect(saved.app_links.ios).toMatchObject({ link: 'myapp://item/1', store_url: IOS_STORE });
    expect(saved.app_links.android).toBeNull();
    expect(saved.utm).toMatchObject({ utm_source: 'poster', utm_campaign: 'spring', utm_medium: null });
    expect(await locationFor(saved.scan_url, IPHONE)).toBe(IOS_STORE);

    await page.reload();
    await page.locator('#code-ios-link').waitFor();
    expect(await page.inputValue('#code-ios-store')).toBe(IOS_STORE);
    expect(await page.inputValue('#code-utmCampaign')).toBe('spring');

    for (const id of ['#code-ios-link', '#code-ios-store', '#code-utmSource', '#code-utmCampaign'])
      await page.fill(id, '');
    await page.click('button[type=submit]');
    await page.getByText('Saved.').waitFor();
    const cleared = (await app.request('GET', `/v1/codes/${code.id}`, { key })).body;
    expect([cleared.app_links, cleared.utm]).toEqual([null, null]);
    expect(pageErrors).toEqual([]);
  });
});
