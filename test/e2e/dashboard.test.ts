// The dashboard end to end: the built pages (npm run build) served by the real app, driven in
// headless Chromium through playwright-core. Screenshots of the main pages go to test-results/.
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { decode } from 'fast-png';
import Koa from 'koa';
import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDashboardRouter } from '../../src/http/dashboard.ts';
import { DASHBOARD_CSP } from '../../src/http/security-headers.ts';
import { errorHandler } from '../../src/http/error-handler.ts';
import { getTestApp, type TestApp } from '../support/app.ts';
import { openDashboardBrowser, requireBuiltDashboard } from '../support/browser.ts';
import { countCodes } from '../support/factories.ts';

const RESULTS = 'test-results';
const IPHONE =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 ' +
  'Mobile/15E148 Safari/604.1';
const WINDOWS_CHROME =
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Safari/537.36';

let app: TestApp;
let key: string;
let browser: Browser;
let page: Page;
/** Console errors and uncaught exceptions of the page, CSP refusals included: there must be none. */
const pageErrors: string[] = [];

beforeAll(async () => {
  requireBuiltDashboard();
  // The country of a scan comes from a header the test sets, so routing and breakdowns are known.
  app = await getTestApp({ GEO_COUNTRY_HEADER: 'X-Test-Country' });
  key = await app.newAccountKey();
  mkdirSync(RESULTS, { recursive: true });
  ({ browser, page } = await openDashboardBrowser(pageErrors));
}, 60_000);

afterAll(async () => {
  await browser?.close();
  await app?.close();
});

const shot = (name: string) => page.screenshot({ path: join(RESULTS, `dashboard-${name}.png`), fullPage: true });
const text = (selector: string) => page.locator(selector).first().innerText();
/** The trimmed cell texts of each row matched by `selector`. */
const rowsOf = (selector: string) =>
  page.$$eval(selector, (rows) =>
    rows.map((row) => [...row.querySelectorAll('td, th')].map((cell) => cell.textContent!.trim())),
  );

/** Pixels of an element's screenshot unlike its top left corner's (the background): what is drawn on it. */
async function inkedPixels(element: Locator): Promise<number> {
  const { data, channels } = decode(await element.screenshot());
  let inked = 0;
  for (let i = 0; i < data.length; i += channels)
    if (data[i] !== data[0] || data[i + 1] !== data[1] || data[i + 2] !== data[2]) inked++;
  return inked;
}

/** Pixels that differ between two screenshots of one element. */
function differentPixels(a: Uint8Array, b: Uint8Array): number {
  const [x, y] = [decode(a), decode(b)];
  let different = 0;
  for (let i = 0; i < x.data.length; i += x.channels)
    if (x.data[i] !== y.data[i] || x.data[i + 1] !== y.data[i + 1] || x.data[i + 2] !== y.data[i + 2]) different++;
  return different;
}

async function scan(scanUrl: string, country: string, userAgent: string): Promise<string | null> {
  const res = await fetch(scanUrl, {
    redirect: 'manual',
    headers: { 'x-test-country': country, 'user-agent': userAgent, referer: 'https://news.example/story' },
  });
  expect(res.status).toBe(302);
  return res.headers.get('location');
}

describe('the dashboard in Chromium', () => {
  it('signs in, creates a branded code with a rule, charts its scans as REST counts them, and deletes it', async () => {
    await page.goto(`${app.url}/dashboard/`);
    await page.fill('#api-key', 'qrk_not-a-real-key');
    await page.click('#api-key-form button[type=submit]');
    await page.getByText('This key was not accepted').waitFor();
    // The browser logs the refused key's 401; that one was asked for.
    expect(pageErrors.splice(0)).toEqual([expect.stringContaining('401 (Unauthorized)')]);
    await page.fill('#api-key', key);
    await page.click('#api-key-form button[type=submit]');
    await page.getByText('No codes yet').waitFor();
    expect(await page.evaluate(() => [sessionStorage.length, localStorage.length, document.cookie])).toEqual([
      1,
      0,
      '',
    ]);

    // Create: content, a branded design (refused first for its contrast), a country rule.
    await page.getByRole('link', { name: 'New code' }).click();
    await page.fill('#code-name', 'Spring poster');
    await page.fill('#code-notes', 'Window of the Berlin shop');
    await page.fill('#code-content', 'https://example.com/spring');
    await page.fill('#code-slug', 'spring-poster');
    await page.selectOption('#design-style', 'branded');
    await page.fill('#design-fgColor', '#f2f2f2');
    await page.locator('.preview-problem', { hasText: 'contrast' }).waitFor();
    expect(await text('.field:has(#design-fgColor) .field-messages')).toMatch(
      /contrast of 1\.1:1; scanners need at least 3:1/,
    );
    await page.fill('#design-fgColor', '#1d4ed8');
    await page.locator('.preview figcaption', { hasText: 'Live preview' }).waitFor();
    expect(await page.getAttribute('.preview img', 'src')).toContain(encodeURIComponent('#1d4ed8'));
    await page.fill('#rule-value', 'DE');
    await page.fill('#rule-destination', 'https://example.de/spring');
    await page.click('text=Add rule');
    await page.locator('.rule', { hasText: 'country:DE' }).waitFor();
    await page.click('text=Create code');
    await page.waitForURL(/\/dashboard\/codes\/qr_\w+$/);
    const id = new URL(page.url()).pathname.split('/').pop()!;
    // Named as a person reads it; the id beside, for developers.
    await page.getByText('Created “Spring poster”.').waitFor();
    expect(await text('h1')).toBe('Spring poster');
    expect(await text('.code-id code')).toBe(id);
    await page.locator('.preview figcaption', { hasText: 'Live preview' }).waitFor();
    await shot('code-editor');

    const saved = (await app.request('GET', `/v1/codes/${id}`, { key })).body;
    expect(saved.scan_url).toBe(`${app.url}/spring-poster`);
    expect(saved).toMatchObject({
      name: 'Spring poster',
      notes: 'Window of the Berlin shop',
      content: 'https://example.com/spring',
      design: { style: 'branded', fg_color: '#1d4ed8' },
    });
    expect(saved.routing.rules).toMatchObject([{ condition: 'country:DE', destination: 'https://example.de/spring' }]);
    expect(await text('.scan-url code')).toBe(saved.scan_url);
    // The scan URL to the clipboard, and the image as a file at a chosen size.
    await page.context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin: app.url });
    await page.getByRole('button', { name: 'Copy scan URL' }).click();
    await page.getByRole('button', { name: 'Copied scan URL' }).waitFor();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(saved.scan_url);
    await page.getByRole('button', { name: 'Copy ID' }).click();
    await page.getByRole('button', { name: 'Copied ID' }).waitFor();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(id);
    await page.fill('#download-size', '512');
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'Download image' }).click(),
    ]);
    expect(download.suggestedFilename()).toBe(`${id}.png`);
    const png = await readFile((await download.path())!);
    expect(png.subarray(1, 4).toString()).toBe('PNG');
    expect(png.readUInt32BE(16)).toBe(512);
    await page.selectOption('#download-format', 'pdf');
    const [pdf] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'Download image' }).click(),
    ]);
    expect((await readFile((await pdf.path())!)).subarray(0, 5).toString()).toBe('%PDF-');

    // Edit the rules: add one, move it first (priority), save; then remove it again and save.
    const rulesOf = async () =>
      (await app.request('GET', `/v1/codes/${id}`, { key })).body.routing.rules.map(
        (r: { condition: string }) => r.condition,
      );
    await page.selectOption('#rule-dimension', 'device');
    await page.fill('#rule-value', 'ios');
    await page.fill('#rule-destination', 'https://apps.example/ios');
    await page.click('text=Add rule');
    await page.getByRole('button', { name: 'Move rule 2 up' }).click();
    await page.click('text=Save changes');
    await page.getByText('Saved.').waitFor();
    expect(await rulesOf()).toEqual(['device:ios', 'country:DE']);
    await page.getByRole('button', { name: 'Remove rule 1' }).click();
    await page.click('text=Save changes');
    await page.getByText('Saved.').waitFor();
    expect(await rulesOf()).toEqual(['country:DE']);

    // Real scans of the scan URL: three from Germany on an iPhone (the rule), two from the US.
    for (let i = 0; i < 3; i++) expect(await scan(saved.scan_url, 'DE', IPHONE)).toBe('https://example.de/spring');
    for (let i = 0; i < 2; i++)
      expect(await scan(saved.scan_url, 'US', WINDOWS_CHROME)).toBe('https://example.com/spring');
    await app.services.scans.recorder.flush();

    await page.getByRole('link', { name: 'Analytics', exact: true }).last().click();
    await page.waitForURL(`**/dashboard/codes/${id}/analytics`);
    await page.locator('[data-stat="total-scans"]', { hasText: '5' }).waitFor();
    expect(await text('h2.code-name')).toBe('Spring poster');
    const range = { from: await page.inputValue('#range-from'), to: await page.inputValue('#range-to') };
    const rest = (
      await app.request('GET', `/v1/codes/${id}/scans?from=${range.from}&to=${range.to}&granularity=day&timezone=UTC`, {
        key,
      })
    ).body;
    expect(rest.total_scans).toBe(5);
    expect(await text('[data-stat="unique-scans"]')).toBe(String(rest.unique_scans));
    // The sections below the chart render a few frames after the numbers (components/after-paint.tsx).
    await page.locator('.breakdowns').waitFor();
    const periods = await page.$$eval('.chart-data tbody tr', (rows) =>
      rows.map((r) => [(r as HTMLElement).dataset.period, r.children[1]!.textContent]),
    );
    expect(periods).toEqual(rest.timeseries.map((p: { period: string; scans: number }) => [p.period, String(p.scans)]));
    for (const dimension of ['country', 'device', 'os', 'browser', 'referrer']) {
      const shown = await page.$$eval(`[data-dimension="${dimension}"] tr`, (rows) =>
        rows.map((r) => [(r as HTMLElement).dataset.value, r.lastElementChild!.textContent]),
      );
      expect(shown, dimension).toEqual(
        rest.breakdowns[dimension].map((c: { value: string | null; scans: number }) => [
          c.value ?? '',
          String(c.scans),
        ]),
      );
    }
    // Drawn on the canvas, not only in the table. The chart's worker draws it (the page cannot
    // read a canvas it handed over), so its pixels are read from screenshots.
    const chart = page.locator('.scans-chart canvas');
    await expect.poll(() => inkedPixels(chart), { timeout: 10_000 }).toBeGreaterThan(1000);
    // The canvas fills its box (the page's width, 300 px high), as the worker draws it.
    const box = (await chart.boundingBox())!;
    expect([box.width > 1000, Math.round(box.height)]).toEqual([true, 300]);
    // The pointer over the last day: the worker draws the tooltip there.
    const before = await chart.screenshot();
    await chart.hover({ position: { x: box.width - 30, y: box.height / 2 } });
    await expect
      .poll(async () => differentPixels(before, await chart.screenshot()), { timeout: 5_000 })
      .toBeGreaterThan(500);
    await shot('analytics');

    // Weeks instead of days: the same total, the REST answer's periods.
    await page.selectOption('#range-granularity', 'week');
    const weekly = (
      await app.request(
        'GET',
        `/v1/codes/${id}/scans?from=${range.from}&to=${range.to}&granularity=week&timezone=UTC`,
        { key },
      )
    ).body;
    await page.waitForFunction(
      (n) => document.querySelectorAll('.chart-data tbody tr').length === n,
      weekly.timeseries.length,
    );
    expect(await text('[data-stat="total-scans"]')).toBe(String(weekly.total_scans));

    // The account overview agrees with GET /v1/analytics/overview.
    await page.getByRole('link', { name: 'Analytics', exact: true }).first().click();
    await page.locator('.top-codes td', { hasText: 'Spring poster' }).waitFor();
    await page.locator('.breakdowns').waitFor();
    const overview = (await app.request('GET', '/v1/analytics/overview', { key })).body;
    expect(await text('[data-stat="total-scans"]')).toBe(String(overview.total_scans));
    expect(await rowsOf('.top-codes tbody tr')).toEqual([['Spring poster', 'https://example.com/spring', '5']]);
    // Account-wide breakdowns as the overview counts them (iOS and Windows, Safari and Chrome, news.example).
    for (const dimension of ['country', 'device', 'os', 'browser', 'referrer']) {
      const shown = await page.$$eval(`[data-dimension="${dimension}"] tr`, (rows) =>
        rows.map((r) => [(r as HTMLElement).dataset.value, r.lastElementChild!.textContent]),
      );
      expect(shown, dimension).toEqual(
        overview.breakdowns[dimension].map((c: { value: string | null; scans: number }) => [
          c.value ?? '',
          String(c.scans),
        ]),
      );
    }
    expect(overview.breakdowns.referrer).toEqual([{ value: 'news.example', scans: 5 }]);
    expect(overview.breakdowns.os.map((c: { value: string }) => c.value).sort()).toEqual(['Windows', 'iOS']);
    await shot('overview');

    // The list: preview, style and the 30-day count, and search.
    await page.getByRole('link', { name: 'Codes', exact: true }).click();
    const row = page.locator(`tr[data-code-id="${id}"]`);
    await row.waitFor();
    expect((await row.locator('td').allInnerTexts()).slice(1, -1)).toEqual([
      'Spring poster',
      'active',
      expect.stringContaining(saved.scan_url),
      'https://example.com/spring',
      'branded',
      '5',
      expect.any(String),
    ]);
    // Asked at 64 px; drawn at the smallest size that scans, as the image endpoint says it draws it.
    const drawn = (await app.request('GET', `/v1/codes/${id}/image?format=svg&size=64`, { key })).headers.get(
      'image-width',
    );
    // The list's thumbnails load lazily (as they near the screen), so after the row.
    await expect
      .poll(() => row.locator('img').evaluate((img) => (img as HTMLImageElement).naturalWidth))
      .toBe(Number(drawn));
    await shot('codes');
    await page.fill('input[type=search]', 'autumn');
    await page.getByText("No code's name or content contains “autumn”.").waitFor();
    await page.fill('input[type=search]', 'spring');
    await row.waitFor();
    // By its name too, in any case.
    await page.fill('input[type=search]', 'POSTER');
    await row.waitFor();
    expect(await page.locator('tr[data-code-id]').count()).toBe(1);

    // Delete, after confirming.
    await row.getByRole('link', { name: 'Spring poster' }).click();
    await page.click('text=Delete code');
    await page.locator('dialog[open]', { hasText: saved.scan_url }).waitFor();
    await page.click('text=Delete for good');
    await page.getByText('Deleted “Spring poster”.').waitFor();
    expect(new URL(page.url()).pathname).toBe('/dashboard/codes');
    expect((await app.request('GET', `/v1/codes/${id}`, { key })).status).toBe(404);
    expect((await fetch(saved.scan_url, { redirect: 'manual' })).status).toBe(404);
    expect(pageErrors).toEqual([]);
  });

  it('uploads a CSV: per-row problems and nothing created, then every row created', async () => {
    const before = await countCodes(app, key);
    await page.goto(`${app.url}/dashboard/bulk`);
    const upload = async (csv: string) => {
      await page.setInputFiles('#csv-file', { name: 'codes.csv', mimeType: 'text/csv', buffer: Buffer.from(csv) });
      await page.click('text=Upload and create');
    };
    await upload(
      'content,fg_color,style\nhttps://example.com/ok,,\njavascript:alert(1),,\nhttps://example.com/blue,blue,dots\n',
    );
    await page.locator('.row-problems').waitFor();
    expect(await text('.error-box')).toMatch(/^Nothing was created: 2 of 3 rows are invalid/);
    expect(await rowsOf('.row-problems tbody tr')).toEqual([
      ['3', 'content', expect.stringMatching(/http/)],
      ['4', 'fg_color', 'must be a color in the form #rrggbb'],
    ]);
    await shot('bulk');
    expect(await countCodes(app, key)).toBe(before);

    await upload('content,style\nhttps://example.com/bulk/1,dots\nhttps://example.com/bulk/2,rounded\n');
    await page.getByText(/^Created 2 codes/).waitFor();
    expect(await page.locator('.bulk-result li').allInnerTexts()).toEqual([
      expect.stringContaining('https://example.com/bulk/1'),
      expect.stringContaining('https://example.com/bulk/2'),
    ]);
    expect(await countCodes(app, key)).toBe(before + 2);
    expect(pageErrors).toEqual([]);
  });
});

describe('serving /dashboard', () => {
  it('answers the page for client-side routes, with its CSP, and hashed assets cached for good', async () => {
    for (const path of ['/dashboard', '/dashboard/', '/dashboard/codes/qr_x/analytics']) {
      const res = await app.request('GET', path);
      expect(res.status, path).toBe(200);
      expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8');
      expect(res.headers.get('content-security-policy')).toBe(DASHBOARD_CSP);
      expect(res.headers.get('cache-control')).toBe('no-cache');
      expect(res.headers.get('x-frame-options')).toBe('DENY');
      expect(res.text).toContain('<div id="app">');
    }
    expect(DASHBOARD_CSP).not.toMatch(/unsafe-(eval|inline)/);
    const index = (await app.request('GET', '/dashboard/')).text;
    const script = /src="(\/dashboard\/assets\/[^"]+\.js)"/.exec(index)![1]!;
    const asset = await app.request('GET', script);
    expect(asset.status).toBe(200);
    expect(asset.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    expect(asset.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    for (const path of [
      '/dashboard/assets/index-missing.js',
      '/dashboard/assets/..%2Findex.html',
      '/dashboard/assets/.hidden',
    ]) {
      const missing = await app.request('GET', path);
      expect(missing.status, path).toBe(404);
      expect(missing.headers.get('content-type')).toContain('application/problem+json');
    }
    expect((await app.request('POST', '/dashboard/')).status).toBe(405);
  });

  it('answers 503 problem+json saying to run npm run build when nothing is built', async () => {
    const empty = mkdtempSync(join(tmpdir(), 'qr-dashboard-empty-'));
    const koa = new Koa();
    const router = createDashboardRouter(empty);
    koa.use(errorHandler({ maxBytes: 0, maxMs: 0 })).use(router.routes());
    const server = createServer(koa.callback());
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
      for (const path of ['/dashboard/', '/dashboard/assets/index-abc.js']) {
        const res = await fetch(base + path);
        expect(res.status).toBe(503);
        expect(res.headers.get('content-type')).toContain('application/problem+json');
        expect((await res.json()).detail).toMatch(/not built.*Run `npm run build`/);
      }
    } finally {
      server.close();
      rmSync(empty, { recursive: true, force: true });
    }
  });
});
