// The Domains page and the code editor's domain picker, in headless Chromium against the real
// app: a domain is added, its TXT record shown, verified through the test server's resolver
// (answers from a map; no DNS lookup is made), picked for a new code (whose scan URL and scans
// then use it), given a fallback URL, and removed once no code uses it.
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getTestApp, type TestApp } from '../support/app.ts';
import { openDashboardBrowser, requireBuiltDashboard } from '../support/browser.ts';
import { fakeDns, getWithHost } from '../support/dns.ts';

const dns = fakeDns();
const { txt, asked } = dns;

let app: TestApp;
let key: string;
let browser: Browser;
let page: Page;
const pageErrors: string[] = [];

beforeAll(async () => {
  requireBuiltDashboard();
  app = await getTestApp({}, { resolveTxt: dns.resolveTxt });
  key = await app.newAccountKey();
  ({ browser, page } = await openDashboardBrowser(pageErrors));
}, 60_000);

afterAll(async () => {
  await browser?.close();
  await app?.close();
});

/** A scan sent to the test server with this Host header (the name is never resolved). */
const scanAt = async (host: string, path: string) => {
  const { status, location } = await getWithHost(app.url, host, path);
  return { status, location };
};

const row = (hostname: string) => page.locator(`li.domain[data-hostname="${hostname}"]`);

describe('domains in the dashboard', () => {
  it('adds, verifies and removes a domain, and puts a new code on it', async () => {
    await page.goto(`${app.url}/dashboard/`);
    await page.fill('#api-key', key);
    await page.click('#api-key-form button[type=submit]');
    await page.getByRole('link', { name: 'Domains' }).click();
    await page.getByText('No domains yet').waitFor();

    // Refused with the field named, then added: the TXT record to create is shown.
    await page.fill('#domain-hostname', 'https://shop.example/');
    await page.getByRole('button', { name: 'Add domain' }).click();
    await page.locator('.field:has(#domain-hostname) .field-messages', { hasText: 'bare hostname' }).waitFor();
    await page.fill('#domain-hostname', 'Shop.Example');
    await page.fill('#domain-fallback', 'https://example.com/shop');
    await page.getByRole('button', { name: 'Add domain' }).click();
    await page.getByText('Added shop.example.').waitFor();
    const [added] = (await app.request('GET', '/v1/domains', { key })).body.data;
    expect(await row('shop.example').locator('.txt-record').innerText()).toContain(added.verification.value);
    expect(await row('shop.example').locator('.txt-record').innerText()).toContain('_qr-verify.shop.example');

    // Verify: refused while the record is missing, verified once it is there.
    await row('shop.example').getByRole('button', { name: 'Verify' }).click();
    await row('shop.example').getByText('No TXT record was found at _qr-verify.shop.example').waitFor();
    txt.set('_qr-verify.shop.example', [[added.verification.value]]);
    await row('shop.example').getByRole('button', { name: 'Verify' }).click();
    await page.getByText('shop.example is verified: codes can use it now.').waitFor();
    await row('shop.example').locator('.status.verified').waitFor();
    expect(asked).toEqual(['_qr-verify.shop.example', '_qr-verify.shop.example']);

    // A new code on it: its scan URL is on the domain, and scans there reach it.
    await page.getByRole('link', { name: 'Codes' }).click();
    await page.getByRole('link', { name: 'New code' }).click();
    await page.fill('#code-content', 'https://example.com/window');
    await page.fill('#code-slug', 'window');
    await page.selectOption('#code-domain', 'shop.example');
    await page.getByRole('button', { name: 'Create code' }).click();
    await page.locator('code', { hasText: 'https://shop.example/window' }).first().waitFor();
    expect(await scanAt('shop.example', '/window')).toEqual({ status: 302, location: 'https://example.com/window' });
    expect(await page.locator('#code-domain').inputValue()).toBe('shop.example');

    // Not removable while the code uses it; the fallback URL changes.
    await page.getByRole('link', { name: 'Domains' }).click();
    await row('shop.example').getByRole('button', { name: 'Remove' }).click();
    await page.getByRole('button', { name: 'Remove domain' }).click();
    await page.getByText("1 code uses the domain 'shop.example'").waitFor();
    await row('shop.example').locator('input[type=url]').fill('https://example.com/elsewhere');
    await row('shop.example').getByRole('button', { name: 'Save' }).click();
    await page.getByText('Saved the fallback URL of shop.example.').waitFor();
    expect(await scanAt('shop.example', '/')).toEqual({ status: 302, location: 'https://example.com/elsewhere' });

    // Once the code is gone, the domain goes too.
    const [code] = (await app.request('GET', '/v1/codes', { key })).body.data;
    expect((await app.request('DELETE', `/v1/codes/${code.id}`, { key })).status).toBe(204);
    await row('shop.example').getByRole('button', { name: 'Remove' }).click();
    await page.getByRole('button', { name: 'Remove domain' }).click();
    await page.getByText('Removed shop.example.').waitFor();
    await page.getByText('No domains yet').waitFor();
    expect(pageErrors).toEqual([]);
  });
});
