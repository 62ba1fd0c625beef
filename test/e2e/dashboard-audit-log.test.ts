// The dashboard's Audit log page in headless Chromium: a code's update shown with its old and
// new destination and the acting key, the filter by kind of object (the key the CLI path made,
// by cli), Load more, and a key without audit:read told what it needs.
import { join } from 'node:path';
import { mkdirSync } from 'node:fs';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getTestApp, type TestApp } from '../support/app.ts';
import { openDashboardBrowser, requireBuiltDashboard } from '../support/browser.ts';

let app: TestApp;
let browser: Browser;
let page: Page;
const pageErrors: string[] = [];

beforeAll(async () => {
  requireBuiltDashboard();
  app = await getTestApp();
  mkdirSync('test-results', { recursive: true });
  ({ browser, page } = await openDashboardBrowser(pageErrors));
}, 60_000);

afterAll(async () => {
  await browser?.close();
  await app?.close();
});

async function signIn(key: string) {
  await page.goto(`${app.url}/dashboard/`);
  await page.fill('#api-key', key);
  await page.click('#api-key-form button[type=submit]');
  await page.getByRole('link', { name: 'Audit log' }).click();
}

describe('Audit log in Chromium', () => {
  it('shows who changed what, old and new, and filters by object', async () => {
    const owner = await app.services.accounts.issueKey('audit-owner');
    const code = await app.request('POST', '/v1/codes', {
      key: owner.key,
      body: { content: 'https://example.com/before' },
    });
    await app.request('PATCH', `/v1/codes/${code.body.id}`, {
      key: owner.key,
      body: { destination: 'https://example.com/after' },
    });
    await signIn(owner.key);
    const rows = page.locator('tr[data-entry-id]');
    await rows.first().waitFor();
    const first = (await rows.first().locator('td').allInnerTexts()).map((cell) => cell.trim());
    expect(first.slice(1)).toEqual([
      `api key ${owner.keyId}`,
      'code.updated',
      code.body.id,
      'destination: https://example.com/before → https://example.com/after',
    ]);
    expect(await rows.count()).toBe(3);
    await page.screenshot({ path: join('test-results', 'dashboard-audit-log.png'), fullPage: true });

    await page.getByLabel('Show').selectOption('api_key');
    await page.waitForFunction(() => document.querySelectorAll('tr[data-entry-id]').length === 1);
    const keyRow = (await rows.first().locator('td').allInnerTexts()).map((cell) => cell.trim());
    expect(keyRow.slice(1, 4)).toEqual(['cli cli', 'api_key.created', owner.keyId]);
    await page.getByRole('button', { name: 'Sign out' }).click();
    expect(pageErrors).toEqual([]);
  });

  it('shows 50 entries, then the next page with Load more', async () => {
    const owner = await app.services.accounts.issueKey('audit-pages');
    for (let i = 0; i < 51; i++) {
      const tag = await app.request('POST', '/v1/tags', { key: owner.key, body: { name: `tag-${i}` } });
      expect(tag.status, tag.text).toBe(201);
    }
    await signIn(owner.key);
    await page.getByLabel('Show').selectOption('tag');
    const rows = page.locator('tr[data-entry-id]');
    await page.waitForFunction(() => document.querySelectorAll('tr[data-entry-id]').length === 50);
    await page.getByRole('button', { name: 'Load more' }).click();
    await page.waitForFunction(() => document.querySelectorAll('tr[data-entry-id]').length === 51);
    // Newest first: the first tag made is the last row, and no page repeats an entry.
    expect((await rows.last().locator('td').allInnerTexts())[4]).toContain('name: tag-0');
    const ids = await rows.evaluateAll((trs) => trs.map((tr) => tr.getAttribute('data-entry-id')));
    expect(new Set(ids).size).toBe(51);
    await expect(page.getByRole('button', { name: 'Load more' }).count()).resolves.toBe(0);
    await page.getByRole('button', { name: 'Sign out' }).click();
    expect(pageErrors).toEqual([]);
  });

  it('tells a key without audit:read what it needs', async () => {
    const { key } = await app.services.accounts.issueKey('audit-narrow', { scopes: ['codes:read'] });
    await signIn(key);
    await page.getByText('Sign in with a key that has the audit:read scope').waitFor();
    await page.getByRole('button', { name: 'Sign out' }).click();
    expect(pageErrors).toEqual([]);
  });
});
