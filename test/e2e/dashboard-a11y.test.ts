// Accessibility of every dashboard page, in headless Chromium against the real app: axe-core's
// WCAG 2.1 A and AA rules find nothing at a desktop, a phone and a 320 px wide viewport, the page
// never scrolls sideways at 320 and 390 px (WCAG 1.4.10, reflow), and the keyboard finds a skip
// link first, focus on the new page's h1 after sign-in and navigation, and a title per page.
// What axe found on each page is also written to test-results/a11y.json for comparing runs.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getTestApp, type TestApp } from '../support/app.ts';
import { axeViolations } from '../support/axe.ts';
import { openDashboardBrowser, requireBuiltDashboard } from '../support/browser.ts';
import { createCode } from '../support/factories.ts';

const VIEWPORTS = [
  { width: 1400, height: 1000 },
  { width: 390, height: 844 },
  { width: 320, height: 640 },
];
const RESULTS = 'test-results';

let app: TestApp;
let key: string;
let browser: Browser;
let page: Page;
let codeId: string;
const pageErrors: string[] = [];

beforeAll(async () => {
  requireBuiltDashboard();
  app = await getTestApp();
  key = await app.newAccountKey();
  // Some codes (one with a long URL, as tables meet them), a domain and scans, so every page has content.
  const code = await createCode(app, key, {
    name: 'Spring poster',
    content: 'https://example.com/spring',
    tags: ['spring'],
  });
  codeId = code.id;
  await createCode(app, key, { content: `https://example.com/a/very/long/path/${'segment/'.repeat(8)}end` });
  await createCode(app, key, { name: 'Autumn flyer' });
  await app.request('POST', '/v1/domains', { key, body: { hostname: 'go.shop.example' } });
  // A browser's User-Agent: scans from bots are not counted, and the charts should have something to draw.
  const userAgent =
    'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Safari/537.36';
  for (let i = 0; i < 3; i++) await fetch(code.scan_url, { redirect: 'manual', headers: { 'user-agent': userAgent } });
  await app.services.scans.recorder.flush();
  ({ browser, page } = await openDashboardBrowser(pageErrors));
}, 60_000);

afterAll(async () => {
  await browser?.close();
  await app?.close();
});

/** Each signed-in page, by its path and what shows that it has its content. */
const PAGES = (): { name: string; path: string; ready: string }[] => [
  { name: 'codes', path: '/codes', ready: 'tr[data-code-id]' },
  { name: 'new-code', path: '/codes/new', ready: '#code-content' },
  { name: 'code', path: `/codes/${codeId}`, ready: '#code-content' },
  // The breakdowns render last of the analytics pages' sections (components/after-paint.tsx).
  { name: 'analytics', path: '/analytics', ready: '.breakdowns' },
  { name: 'code-analytics', path: `/codes/${codeId}/analytics`, ready: '.breakdowns' },
  { name: 'bulk', path: '/bulk', ready: '#csv-file' },
  { name: 'domains', path: '/domains', ready: 'li.domain' },
  { name: 'connected-apps', path: '/apps', ready: 'h1' },
  { name: 'import', path: '/import', ready: 'h1' },
  { name: 'audit-log', path: '/audit-log', ready: 'tr[data-entry-id]' },
];

/** The sign-in page of a tab without a credential. */
async function openSignedOut(): Promise<void> {
  await page.goto(`${app.url}/dashboard/`);
  await page.evaluate(() => sessionStorage.clear());
  await page.reload();
  await page.locator('#api-key').waitFor();
}

/** Signs in from the sign-in page; the codes list then shows. */
async function signIn(): Promise<void> {
  await page.fill('#api-key', key);
  await page.click('#api-key-form button[type=submit]');
  await page.locator('tr[data-code-id]').first().waitFor();
}

/**
 * Opens a page by its URL (the tab keeps its credential) and waits until nothing is loading. The
 * analytics pages draw their map and weekday x hour grid as they come near the screen: the page is
 * scrolled to them, as a person reading it would, so that they are checked too.
 */
async function visit(path: string, ready: string): Promise<void> {
  await page.goto(`${app.url}/dashboard${path}`);
  await page.locator(ready).first().waitFor();
  if ((await page.locator('.weekday-hours').count()) > 0) {
    await page.locator('.world-map').scrollIntoViewIfNeeded();
    await page.locator('svg.map').waitFor();
    await page.locator('.weekday-hours').scrollIntoViewIfNeeded();
    await page.locator('.heatmap').waitFor();
  }
  await page.waitForFunction(() => !document.querySelector('.loading'));
}

/** How much wider than the viewport the page is (0 when it does not scroll sideways), and what sticks out. */
const overflow = () =>
  page.evaluate(() => {
    const width = document.documentElement.clientWidth;
    const past = (e: Element) => e.getBoundingClientRect().right > width + 0.5;
    // The innermost elements reaching past the right edge: what to fix when the page is too wide.
    const out = [...document.querySelectorAll('body *')].filter((e) => past(e) && ![...e.children].some(past));
    return {
      extra: document.documentElement.scrollWidth - width,
      out: out
        .slice(0, 4)
        .map((e) => `${e.tagName.toLowerCase()}${e.id ? `#${e.id}` : ''}.${[...e.classList].join('.')}`),
    };
  });

describe('dashboard accessibility', () => {
  it('has no WCAG 2.1 A/AA violations and no sideways scrolling on any page at any width', async () => {
    const found: Record<string, Record<string, string[]>> = {};
    const scrollWidths: Record<string, number> = {};
    for (const viewport of VIEWPORTS) {
      await page.setViewportSize(viewport);
      await openSignedOut();
      mkdirSync(RESULTS, { recursive: true });
      const record = async (name: string) => {
        const at = `${name} @${viewport.width}`;
        const violations = await axeViolations(page);
        if (Object.keys(violations).length > 0) found[at] = violations;
        // The narrowest layout of each page, to look at when a change moves things.
        if (viewport.width === 320)
          await page.screenshot({ path: join(RESULTS, `a11y-${name}-320.png`), fullPage: true });
        if (viewport.width <= 390) {
          const { extra, out } = await overflow();
          scrollWidths[at] = viewport.width + extra;
          if (extra > 0) found[at] = { ...found[at], [`page ${viewport.width + extra} px wide`]: out };
        }
      };
      await record('sign-in');
      await signIn();
      for (const { name, path, ready } of PAGES()) {
        await visit(path, ready);
        await record(name);
      }
    }
    writeFileSync(join(RESULTS, 'a11y.json'), JSON.stringify({ violations: found, scrollWidths }, null, 2));
    expect(found).toEqual({});
    expect(pageErrors).toEqual([]);
  }, 300_000);

  // The link just clicked has the page's name too, and keeps focus until the page's chunk is loaded.
  const headingFocused = (text: string) =>
    page.waitForFunction(
      (t) => document.activeElement?.tagName === 'H1' && document.activeElement.textContent === t,
      text,
    );

  it("moves focus to the new page's heading, names each page in the title, and offers a skip link first", async () => {
    await page.setViewportSize({ width: 1400, height: 1000 });
    await openSignedOut();
    expect(await page.title()).toBe('Sign in · QR dashboard');
    const focused = () =>
      page.evaluate(() => ({
        tag: document.activeElement?.tagName,
        text: document.activeElement?.textContent,
        announced: document.getElementById('announcer')?.textContent,
      }));
    await signIn();
    await page.waitForFunction(() => document.activeElement?.tagName === 'H1');
    expect(await focused()).toEqual({ tag: 'H1', text: 'Codes', announced: 'Codes page' });
    expect(await page.title()).toBe('Codes · QR dashboard');

    await page.getByRole('link', { name: 'Domains' }).click();
    await headingFocused('Domains');
    expect(await focused()).toEqual({ tag: 'H1', text: 'Domains', announced: 'Domains page' });
    expect(await page.title()).toBe('Domains · QR dashboard');
    // A page that loads first: focus waits for its heading.
    await page.getByRole('link', { name: 'Codes', exact: true }).click();
    await page.getByRole('link', { name: 'Spring poster' }).click();
    await headingFocused('Spring poster');
    expect(await page.title()).toBe('Edit Spring poster · QR dashboard');
    await page.getByRole('link', { name: 'Analytics', exact: true }).last().click();
    await headingFocused('Analytics of Spring poster');
    expect(await page.title()).toBe('Analytics of Spring poster · QR dashboard');

    // From the top of a freshly loaded page, Tab reaches the skip link first, then the bar's links
    // with our own focus ring (white on the dark bar); the skip link leads to the heading.
    await page.goto(`${app.url}/dashboard/bulk`);
    await page.locator('h1').waitFor();
    await page.keyboard.press('Tab');
    expect(await focused()).toMatchObject({ tag: 'A', text: 'Skip to main content' });
    await page.keyboard.press('Tab');
    expect(
      await page.$eval('.top-bar a:focus-visible', (a) => [
        a.textContent,
        getComputedStyle(a).outlineStyle,
        getComputedStyle(a).outlineColor,
      ]),
    ).toEqual(['Codes', 'solid', 'rgb(255, 255, 255)']);
    await page.keyboard.press('Shift+Tab');
    await page.keyboard.press('Enter');
    expect(await focused()).toMatchObject({ tag: 'H1', text: 'Bulk upload' });
    expect(pageErrors).toEqual([]);
  });

  it("shows a field's problems only once it is touched or the form submitted, tied to the field", async () => {
    await openSignedOut();
    await signIn();
    const content = page.locator('#code-content');
    const contentProblem = page.locator('.field:has(#code-content) .field-messages');
    const openBlankForm = async () => {
      await page.goto(`${app.url}/dashboard/codes/new`);
      await content.waitFor();
      // The blank content's problem is known at once, and the preview's pause (350 ms) is over
      // after this wait: still nothing may be said.
      await page.waitForTimeout(800);
      expect(await page.locator('.field-messages, .preview-problem, [aria-invalid]').count()).toBe(0);
    };

    // Touched: focused and left empty.
    await openBlankForm();
    await content.focus();
    await page.locator('#code-name').focus();
    await contentProblem.waitFor();
    expect(await page.locator('.field-messages').count()).toBe(1);

    // Submitted: every field's problem, each tied to its field.
    await openBlankForm();
    await page.click('text=Create code');
    await contentProblem.waitFor();
    expect(await content.getAttribute('aria-invalid')).toBe('true');
    const described = (await content.getAttribute('aria-describedby'))!.split(' ');
    expect(described).toContain('code-content-problems');
    expect(await page.locator('#code-content-problems').innerText()).toMatch(/must not be empty/);
    // Fixed, the field is valid again and no longer described by a problem.
    await content.fill('https://example.com/fixed');
    await page.waitForFunction(() => !document.querySelector('#code-content[aria-invalid]'));
    expect(await content.getAttribute('aria-describedby')).not.toContain('code-content-problems');
    expect(pageErrors).toEqual([]);
  });
});
