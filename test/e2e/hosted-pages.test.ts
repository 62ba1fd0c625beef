// Hosted pages in headless Chromium on a 360 px phone: axe-core finds no WCAG 2.1 A/AA violation
// on any kind, nothing is wider than the screen, the business card's Save contact button is in
// view and downloads the vCard with JavaScript switched off, and the browser reports nothing
// refused by the Content-Security-Policy. Screenshots go to test-results/hosted-pages/.
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, BrowserContext } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getTestApp, type TestApp } from '../support/app.ts';
import { axeViolations } from '../support/axe.ts';
import { CHROMIUM_PATH, collectPageErrors, launchChromium } from '../support/browser.ts';
import { APP_PAGE, CARD, LINKS_PAGE } from '../fixtures/pages/pages.ts';

const SHOTS = join('test-results', 'hosted-pages');
const VIEWPORT = { width: 360, height: 740 };

let app: TestApp;
let key: string;
let browser: Browser;
let context: BrowserContext;
let noScript: BrowserContext;
const pageErrors: string[] = [];

beforeAll(async () => {
  if (!existsSync(CHROMIUM_PATH)) throw new Error(`${CHROMIUM_PATH} is missing: apt-get install -y chromium`);
  mkdirSync(SHOTS, { recursive: true });
  app = await getTestApp();
  key = await app.newAccountKey('hosted-pages-e2e');
  browser = await launchChromium();
  // Scripts on only for axe, which is evaluated over the DevTools protocol; the pages have none.
  context = await browser.newContext({ viewport: VIEWPORT, deviceScaleFactor: 2 });
  noScript = await browser.newContext({ viewport: VIEWPORT, javaScriptEnabled: false, acceptDownloads: true });
  context.setDefaultTimeout(10_000);
  noScript.setDefaultTimeout(10_000);
}, 60_000);

afterAll(async () => {
  await browser?.close();
  await app?.close();
});

async function scanUrlOf(page: unknown): Promise<string> {
  const res = await app.request('POST', '/v1/codes', { key, body: { content: 'https://example.com', page } });
  expect(res.status, res.text).toBe(201);
  return res.body.scan_url;
}

describe.each([
  ['business_card', CARD],
  ['app_download', APP_PAGE],
  ['links', LINKS_PAGE],
])('the %s page on a 360 px phone', (kind, content) => {
  it('has no axe violation, no sideways scroll and nothing refused by its policy', async () => {
    const page = await context.newPage();
    collectPageErrors(page, pageErrors);
    const response = await page.goto(await scanUrlOf(content));
    expect(response?.status()).toBe(200);
    await page.screenshot({ path: join(SHOTS, `${kind}.png`), fullPage: true });
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(VIEWPORT.width);
    expect(await axeViolations(page)).toEqual({});
    // The browser's own favicon request is the only error: the page fetched nothing else.
    expect(pageErrors.filter((e) => !/status of 404/.test(e))).toEqual([]);
    await page.close();
  });
});

describe('the Save contact button', () => {
  it('is in view on the phone and downloads the vCard without JavaScript', async () => {
    const page = await noScript.newPage();
    await page.goto(await scanUrlOf(CARD));
    const button = page.getByRole('link', { name: 'Save contact' });
    expect(await button.isVisible()).toBe(true);
    const box = (await button.boundingBox())!;
    expect(box.y + box.height).toBeLessThanOrEqual(VIEWPORT.height);
    expect(box.x + box.width).toBeLessThanOrEqual(VIEWPORT.width);
    const [download] = await Promise.all([page.waitForEvent('download'), button.click()]);
    expect(download.suggestedFilename()).toBe('Ada-Lovelace.vcf');
    const file = readFileSync((await download.path())!, 'utf8');
    expect(file).toMatch(/^BEGIN:VCARD\r\nVERSION:4\.0\r\nFN:Ada Lovelace\r\n/);
    await page.close();
  });
});
