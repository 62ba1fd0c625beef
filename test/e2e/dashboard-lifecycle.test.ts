// The dashboard's lifecycle controls in headless Chromium: a code paused with a scan limit and an
// expiry in the editor shows a "paused" badge in the list (REST agrees, and its scan gets the
// paused page); the list hides archived codes until the status filter asks for them.
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getTestApp, type TestApp } from '../support/app.ts';
import { openDashboardBrowser, requireBuiltDashboard } from '../support/browser.ts';

let app: TestApp;
let key: string;
let browser: Browser;
let page: Page;
const pageErrors: string[] = [];

beforeAll(async () => {
  requireBuiltDashboard();
  app = await getTestApp();
  key = await app.newAccountKey('dashboard-lifecycle');
  ({ browser, page } = await openDashboardBrowser(pageErrors));
}, 60_000);

afterAll(async () => {
  await browser?.close();
  await app?.close();
});

const badgeOf = (id: string) => page.locator(`tr[data-code-id="${id}"] .badge`).innerText();

describe('lifecycle in the dashboard', () => {
  it('pauses a code with an expiry and a limit in the editor, shows the badge, filters archived codes', async () => {
    const code = (
      await app.request('POST', '/v1/codes', { key, body: { content: 'https://example.com/poster', name: 'Poster' } })
    ).body;
    const archived = (
      await app.request('POST', '/v1/codes', {
        key,
        body: { content: 'https://example.com/old', name: 'Old poster', status: 'archived' },
      })
    ).body;

    await page.goto(`${app.url}/dashboard/`);
    await page.fill('#api-key', key);
    await page.click('#api-key-form button[type=submit]');
    await page.locator(`tr[data-code-id="${code.id}"]`).waitFor();
    expect(await badgeOf(code.id)).toBe('active');
    expect(await page.locator(`tr[data-code-id="${archived.id}"]`).count()).toBe(0);

    await page.goto(`${app.url}/dashboard/codes/${code.id}`);
    await page.locator('#code-status').waitFor();
    // A scan limit below 1 is refused by name, and nothing is saved.
    await page.fill('#code-max-scans', '0');
    await page.click('button[type=submit]');
    await page.locator('.field:has(#code-max-scans) .field-messages', { hasText: 'must be at least 1' }).waitFor();
    expect((await app.request('GET', `/v1/codes/${code.id}`, { key })).body.max_scans).toBeNull();

    const expires = new Date(Date.now() + 7 * 86_400_000);
    expires.setMilliseconds(0);
    await page.selectOption('#code-status', 'paused');
    await page.fill('#code-paused-destination', 'https://example.com/back-soon');
    await page.fill('#code-max-scans', '250');
    // datetime-local takes the browser's local time; the page converts it to an instant.
    const local = await page.evaluate((iso) => {
      const d = new Date(iso);
      const p = (n: number) => String(n).padStart(2, '0');
      const date = `${d.getFullYear()}-${p(d.getMonth() + 1)}-${p(d.getDate())}`;
      return `${date}T${p(d.getHours())}:${p(d.getMinutes())}:${p(d.getSeconds())}`;
    }, expires.toISOString());
    await page.fill('#code-expires-at', local);
    await page.click('button[type=submit]');
    await page.getByText('Saved.').waitFor();

    const saved = (await app.request('GET', `/v1/codes/${code.id}`, { key })).body;
    expect(saved).toMatchObject({
      status: 'paused',
      state: 'paused',
      paused_destination: 'https://example.com/back-soon',
      max_scans: 250,
      expires_at: expires.toISOString(),
    });
    expect((await fetch(saved.scan_url, { redirect: 'manual' })).headers.get('location')).toBe(
      'https://example.com/back-soon',
    );

    // Saving again leaves the expiry exactly as it was.
    await page.click('button[type=submit]');
    await page.getByText('Saved.').waitFor();
    expect((await app.request('GET', `/v1/codes/${code.id}`, { key })).body.expires_at).toBe(expires.toISOString());

    await page.goto(`${app.url}/dashboard/codes`);
    await page.locator(`tr[data-code-id="${code.id}"]`).waitFor();
    expect(await badgeOf(code.id)).toBe('paused');
    await page.selectOption('#status-filter', 'archived');
    await page.locator(`tr[data-code-id="${archived.id}"]`).waitFor();
    expect(await badgeOf(archived.id)).toBe('archived');
    expect(await page.locator(`tr[data-code-id="${code.id}"]`).count()).toBe(0);
    expect(pageErrors).toEqual([]);
  });
});
