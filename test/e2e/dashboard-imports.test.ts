// The Import page, in headless Chromium against the real app: a YOURLS export checked (nothing
// written, the bad rows named), imported (the codes made, linked), and imported again (nothing new).
import { readFileSync } from 'node:fs';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getTestApp, type TestApp } from '../support/app.ts';
import { openDashboardBrowser, requireBuiltDashboard } from '../support/browser.ts';
import { countCodes } from '../support/factories.ts';

let app: TestApp;
let key: string;
let browser: Browser;
let page: Page;
const pageErrors: string[] = [];
const yourls = readFileSync(new URL('../fixtures/imports/yourls.csv', import.meta.url));

// The browser starts while the app migrates its database.
beforeAll(async () => {
  requireBuiltDashboard();
  [app, { browser, page }] = await Promise.all([getTestApp(), openDashboardBrowser(pageErrors)]);
  key = await app.newAccountKey();
}, 60_000);
afterAll(() => Promise.all([browser?.close(), app?.close()]));

const rows = () =>
  page
    .locator('.import-rows tbody tr')
    .evaluateAll((trs) =>
      trs.map((tr) => [...tr.querySelectorAll('td')].map((td) => (td as HTMLElement).innerText.trim())),
    );

describe('imports in the dashboard', () => {
  it('checks an export, imports it, and a second import creates nothing', async () => {
    await page.goto(`${app.url}/dashboard/`);
    await page.fill('#api-key', key);
    await page.click('#api-key-form button[type=submit]');
    await page.getByRole('link', { name: 'Import' }).click();
    await page.selectOption('#import-format', 'yourls_csv');
    await page.setInputFiles('#import-file', { name: 'yourls.csv', mimeType: 'text/csv', buffer: yourls });

    await page.getByRole('button', { name: 'Check' }).click();
    await page.getByText(/^Dry run, nothing written: 4 links: 2 would be created/).waitFor();
    expect(await rows()).toEqual([
      ['2', '/menu', 'would be created'],
      ['3', '/wifi', 'would be created'],
      ['4', '/x', expect.stringMatching(/^cannot be created: slug must be 3-64 characters/)],
      ['5', '/promo', "cannot be created: timestamp 'not a date' is not a date"],
    ]);
    expect(await countCodes(app, key)).toBe(0);

    await page.getByRole('button', { name: 'Import' }).click();
    await page.getByText(/^4 links: 2 created, 0 already here, 2 cannot be created/).waitFor();
    await page.locator('.import-rows a', { hasText: '/menu' }).waitFor();
    expect(await countCodes(app, key)).toBe(2);

    await page.getByRole('button', { name: 'Import' }).click();
    await page.getByText(/^4 links: 0 created, 2 already here/).waitFor();
    expect(await countCodes(app, key)).toBe(2);
    expect(pageErrors).toEqual([]);
  });
});
