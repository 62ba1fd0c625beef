// The code editor's hosted page in headless Chromium: a template fills the page's JSON, a bad
// link is refused by name and nothing is saved, the page saved is what the scan shows, it is
// shown again on reload, and an emptied field takes the page off (the scan redirects again).
import { describe, expect, it } from 'vitest';
import { dashboardSuite, signIn } from '../support/browser.ts';

const suite = dashboardSuite('dashboard-pages');

describe('a hosted page in the code editor', () => {
  it('starts from a template, refuses a bad link by name, saves, shows and removes the page', async () => {
    const { app, key, page, errors: pageErrors } = suite;
    const code = (await app.request('POST', '/v1/codes', { key, body: { content: 'https://example.com/home' } })).body;
    await signIn(page, app.url, key);
    await page.locator(`tr[data-code-id="${code.id}"]`).waitFor();

    await page.goto(`${app.url}/dashboard/codes/${code.id}`);
    await page.locator('#code-page').waitFor();
    await page.selectOption('#code-page-template', 'links');
    const template = JSON.parse(await page.inputValue('#code-page'));
    expect(template.kind).toBe('links');

    await page.fill('#code-page', JSON.stringify({ ...template, links: [{ label: 'x', url: 'javascript:alert(1)' }] }));
    await page.click('button[type=submit]');
    await page.locator('.field:has(#code-page) .field-messages', { hasText: 'http' }).waitFor();
    expect((await app.request('GET', `/v1/codes/${code.id}`, { key })).body.page).toBeNull();

    await page.fill('#code-page', JSON.stringify({ ...template, title: 'From the editor' }));
    await page.click('button[type=submit]');
    await page.getByText('Saved.').waitFor();
    const scanned = await fetch(code.scan_url);
    expect(await scanned.text()).toContain('<h1>From the editor</h1>');

    await page.reload();
    await page.locator('#code-page').waitFor();
    expect(JSON.parse(await page.inputValue('#code-page')).title).toBe('From the editor');

    await page.fill('#code-page', '');
    await page.click('button[type=submit]');
    await page.getByText('Saved.').waitFor();
    expect((await app.request('GET', `/v1/codes/${code.id}`, { key })).body.page).toBeNull();
    expect((await fetch(code.scan_url, { redirect: 'manual' })).status).toBe(302);
    expect(pageErrors).toEqual([]);
  });
});
