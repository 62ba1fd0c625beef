// A password-protected code's unlock page in headless Chromium with JavaScript switched off, on a
// 360 px phone viewport: the field is found by its label, a wrong password is announced as an
// alert tied to the field, the right one follows the redirect, and the remembered unlock skips
// the page. Nothing is refused by its Content-Security-Policy (the form posts to its own origin).
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getTestApp, type TestApp } from '../support/app.ts';
import { CHROMIUM_PATH, collectPageErrors, launchChromium } from '../support/browser.ts';
import { existsSync } from 'node:fs';

let app: TestApp;
let key: string;
let browser: Browser;
let page: Page;
const pageErrors: string[] = [];

beforeAll(async () => {
  if (!existsSync(CHROMIUM_PATH)) throw new Error(`${CHROMIUM_PATH} is missing: apt-get install -y chromium`);
  app = await getTestApp();
  key = await app.newAccountKey('unlock-page');
  browser = await launchChromium();
  const context = await browser.newContext({ javaScriptEnabled: false, viewport: { width: 360, height: 740 } });
  context.setDefaultTimeout(10_000);
  page = await context.newPage();
  collectPageErrors(page, pageErrors);
}, 60_000);

afterAll(async () => {
  await browser?.close();
  await app?.close();
});

describe('the unlock page in a browser without JavaScript', () => {
  it('refuses a wrong password with an alert, opens on the right one, then remembers it', async () => {
    // The destination is on loopback (tests reach nothing else): the service's own health check.
    const destination = `${app.url}/healthz`;
    const code = (
      await app.request('POST', '/v1/codes', { key, body: { content: destination, password: 'open sesame' } })
    ).body;

    await page.goto(code.scan_url);
    expect(await page.title()).toBe('Password required');
    expect(await page.getByRole('heading', { level: 1 }).innerText()).toBe('This code is password protected');
    const field = page.getByLabel('Password');
    // Nothing wider than the phone: no horizontal scrolling.
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);

    await field.fill('wrong');
    await page.getByRole('button', { name: 'Continue' }).click();
    await page.getByRole('alert').waitFor();
    expect(await page.getByRole('alert').innerText()).toContain('That password is not right');
    expect(await page.getByLabel('Password').getAttribute('aria-describedby')).toBe('unlock-error');
    expect(page.url()).toBe(code.scan_url);

    await page.getByLabel('Password').fill('open sesame');
    await page.getByRole('button', { name: 'Continue' }).click();
    await page.waitForURL(destination);
    expect(await page.content()).toContain('"status":"ok"');

    // The cookie: the scan URL now goes straight on.
    await page.goto(code.scan_url);
    expect(page.url()).toBe(destination);
    // The console's only errors are the wrong password's 403 and the browser's own favicon request (404):
    // nothing was refused by the policy.
    expect(pageErrors.filter((e) => !/status of (403|404)/.test(e))).toEqual([]);
  });
});
