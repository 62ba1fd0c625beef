// Tags in the dashboard, in headless Chromium: a code tagged in the editor (an existing tag
// matched ignoring case, a new one created), its labels in the list, the list filtered by a tag,
// the tags cleared again; each step checked through REST.
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getTestApp, type TestApp } from '../support/app.ts';
import { openDashboardBrowser, requireBuiltDashboard, signIn } from '../support/browser.ts';

let app: TestApp;
let key: string;
let browser: Browser;
let page: Page;
const pageErrors: string[] = [];

beforeAll(async () => {
  requireBuiltDashboard();
  app = await getTestApp();
  key = await app.newAccountKey('dashboard-tags');
  ({ browser, page } = await openDashboardBrowser(pageErrors));
}, 60_000);

afterAll(async () => {
  await browser?.close();
  await app?.close();
});

const rest = async (path: string) => (await app.request('GET', path, { key })).body;

describe('tags in the dashboard', () => {
  it('tags a code in the editor, shows and filters by its tags in the list, and clears them', async () => {
    const window = (await app.request('POST', '/v1/tags', { key, body: { name: 'Window', color: '#e8710a' } })).body;
    const other = (
      await app.request('POST', '/v1/codes', {
        key,
        body: { content: 'https://example.com/other', name: 'Other code', tags: ['flyer'] },
      })
    ).body;

    await signIn(page, app.url, key);
    await page.locator(`tr[data-code-id="${other.id}"]`).waitFor();

    await page.getByRole('link', { name: 'New code' }).click();
    await page.fill('#code-name', 'Shop window');
    await page.fill('#code-content', 'https://example.com/window');
    // The account's tags are offered as the field's suggestions.
    await page.locator('#code-tags-known option[value="Window"]').waitFor({ state: 'attached' });
    await page.fill('#code-tags', 'window, Spring 2026, ');
    await page.click('text=Create code');
    await page.waitForURL(/\/dashboard\/codes\/qr_\w+$/);
    const id = new URL(page.url()).pathname.split('/').pop()!;
    await page.getByText('Created “Shop window”.').waitFor();
    expect(await page.inputValue('#code-tags')).toBe('Spring 2026, Window');
    expect((await rest(`/v1/codes/${id}`)).tags).toEqual(['Spring 2026', 'Window']);
    expect((await rest(`/v1/tags/${window.id}`)).code_count).toBe(1);

    await page.getByRole('link', { name: 'Codes', exact: true }).click();
    const row = page.locator(`tr[data-code-id="${id}"]`);
    await row.waitFor();
    expect(await row.locator('.tag').allInnerTexts()).toEqual(['Spring 2026', 'Window']);
    expect(await page.locator(`tr[data-code-id="${other.id}"] .tag`).allInnerTexts()).toEqual(['flyer']);

    await page.selectOption('#tag-filter', 'Spring 2026');
    await page.locator(`tr[data-code-id="${other.id}"]`).waitFor({ state: 'detached' });
    expect(
      await page.locator('tr[data-code-id]').evaluateAll((rows) => rows.map((r) => r.getAttribute('data-code-id'))),
    ).toEqual([id]);
    expect((await rest('/v1/codes?tag=spring%202026')).data.map((c: { id: string }) => c.id)).toEqual([id]);
    await page.selectOption('#tag-filter', 'flyer');
    await page.locator(`tr[data-code-id="${other.id}"]`).waitFor();
    expect(await page.locator('tr[data-code-id]').count()).toBe(1);
    await page.selectOption('#tag-filter', '');
    await row.waitFor();

    // Cleared in the editor: the code has no tags, the tags stay in the account.
    await row.getByRole('link', { name: 'Shop window' }).click();
    await page.fill('#code-tags', '');
    await page.click('text=Save changes');
    await page.getByText('Saved.').waitFor();
    expect((await rest(`/v1/codes/${id}`)).tags).toEqual([]);
    expect((await rest(`/v1/tags/${window.id}`)).code_count).toBe(0);
    expect(pageErrors).toEqual([]);
  });
});
