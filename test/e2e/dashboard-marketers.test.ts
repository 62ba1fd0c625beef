// What a campaign manager reaches for, in headless Chromium (issue 35): names instead of ids,
// the list's scan URL and downloads, the bulk print-run ZIP, analytics by tag with a real
// comparison and written-out languages and devices, every routing rule shape, the slug that
// cannot change, and empty states that say what to do; each checked against REST.
import { mkdirSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getTestApp, type TestApp } from '../support/app.ts';
import { axeViolations } from '../support/axe.ts';
import { openDashboardBrowser, requireBuiltDashboard, signIn } from '../support/browser.ts';
import { createCode } from '../support/factories.ts';

const IPHONE =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 ' +
  'Mobile/15E148 Safari/604.1';

let app: TestApp;
let key: string;
let browser: Browser;
let page: Page;
const pageErrors: string[] = [];

beforeAll(async () => {
  requireBuiltDashboard();
  app = await getTestApp({ GEO_COUNTRY_HEADER: 'X-Test-Country' });
  key = await app.newAccountKey('dashboard-marketers');
  mkdirSync(RESULTS, { recursive: true });
  ({ browser, page } = await openDashboardBrowser(pageErrors));
  await page.context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin: app.url });
}, 60_000);

afterAll(async () => {
  await browser?.close();
  await app?.close();
});

const RESULTS = 'test-results';
const shot = (name: string) =>
  page.screenshot({ path: join(RESULTS, `dashboard-marketers-${name}.png`), fullPage: true });
const rest = async (path: string) => (await app.request('GET', path, { key })).body;
const text = (selector: string) => page.locator(selector).first().innerText();
const clipboard = () => page.evaluate(() => navigator.clipboard.readText());

async function scan(scanUrl: string, headers: Record<string, string> = {}): Promise<string | null> {
  const res = await fetch(scanUrl, { redirect: 'manual', headers: { 'user-agent': IPHONE, ...headers } });
  expect(res.status).toBe(302);
  return res.headers.get('location');
}

/** Clicks a button that saves a file; answers the file's name and bytes. */
async function download(name: string): Promise<[string, Buffer]> {
  const [file] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name }).click()]);
  return [file.suggestedFilename(), await readFile((await file.path())!)];
}

describe('the dashboard for marketers', () => {
  it('says what to do next when there are no codes, no tags and no scans yet', async () => {
    await signIn(page, app.url, key);
    await page.getByText('No codes yet.').waitFor();
    expect(await page.getByRole('link', { name: 'Create your first code' }).getAttribute('href')).toBe(
      '/dashboard/codes/new',
    );
    expect(await page.getByRole('link', { name: 'upload a CSV' }).getAttribute('href')).toBe('/dashboard/bulk');
    await page.getByRole('link', { name: 'Analytics', exact: true }).click();
    await page.getByText('No tags yet.').waitFor();
    await page.getByText('No scans of your codes in this range yet.').waitFor();
    expect(await axeViolations(page)).toEqual({});
    expect(await text('[data-stat="change"]')).toContain('No scans in either');
    expect(pageErrors).toEqual([]);
  });

  it('names codes in the list, copies scan URLs and ids, and downloads each image format', async () => {
    const named = await createCode(app, key, { name: 'Menu card', content: 'https://example.com/menu' });
    const unnamed = await createCode(app, key, { content: 'https://example.com/unnamed' });
    await page.getByRole('link', { name: 'Codes', exact: true }).click();
    const row = page.locator(`tr[data-code-id="${unnamed.id}"]`);
    await row.waitFor();
    // No name: the scan URL is what the link reads; the id is nowhere in the row.
    expect(await row.getByRole('link').first().innerText()).toBe(unnamed.scan_url);
    expect(await row.innerText()).not.toContain(unnamed.id);
    expect(await page.locator(`tr[data-code-id="${named.id}"] .name-cell a`).innerText()).toBe('Menu card');

    await page.getByRole('button', { name: 'Copy scan URL of Menu card' }).click();
    await page.getByRole('button', { name: 'Copied scan URL of Menu card' }).waitFor();
    expect(await clipboard()).toBe(named.scan_url);
    await shot('codes');

    const [svgName, svg] = await download('SVG of Menu card');
    expect(svgName).toBe(`${named.id}.svg`);
    expect(svg.toString()).toContain('<svg');
    const [pdfName, pdf] = await download('PDF of Menu card');
    expect(pdfName).toBe(`${named.id}.pdf`);
    expect(pdf.subarray(0, 5).toString()).toBe('%PDF-');
    const [, png] = await download(`PNG of ${unnamed.scan_url}`);
    expect(png.subarray(1, 4).toString()).toBe('PNG');

    // The editor: named, the id with its copy button, the slug read-only and why.
    await page.locator(`tr[data-code-id="${named.id}"] .name-cell a`).click();
    await page.locator('h1', { hasText: 'Menu card' }).waitFor();
    await page.getByRole('button', { name: 'Copy ID' }).click();
    await page.getByRole('button', { name: 'Copied ID' }).waitFor();
    expect(await clipboard()).toBe(named.id);
    const slug = page.locator('#code-slug');
    expect(await slug.inputValue()).toBe(new URL(named.scan_url).pathname.slice(1));
    expect(await slug.getAttribute('readonly')).not.toBeNull();
    expect(await text('#code-slug-hint')).toMatch(/^Fixed once created: printed codes carry this scan URL/);
    expect(await axeViolations(page)).toEqual({});
    expect(pageErrors).toEqual([]);
  });

  it('adds an AND rule and an A/B split in the routing editor, which scans then follow', async () => {
    const code = await createCode(app, key, { name: 'Split poster', content: 'https://example.com/poster' });
    await page.goto(`${app.url}/dashboard/codes/${code.id}`);
    await page.locator('h1', { hasText: 'Split poster' }).waitFor();

    // Country AND device, to one destination. A code made through the API without rules has them
    // off; the first rule added turns them on.
    expect(await page.getByLabel('Apply the rules').isChecked()).toBe(false);
    await page.fill('#rule-value', 'DE');
    await page.getByRole('button', { name: 'Add an AND condition' }).click();
    await page.selectOption('#rule-dimension-2', 'device');
    await page.fill('#rule-value-2', 'ios');
    await page.fill('#rule-destination', 'https://example.de/ios');
    await page.click('text=Add rule');
    await page.locator('.rule', { hasText: 'country:DE & device:ios' }).waitFor();
    expect(await page.getByLabel('Apply the rules').isChecked()).toBe(true);

    // A 70/30 split of the rest of Germany; a blank destination is refused first, adding nothing.
    await page.selectOption('#rule-kind', 'split');
    await page.fill('#rule-value', 'DE');
    await page.fill('#split-destination-1', 'https://example.com/a');
    await page.click('text=Add rule');
    await page.getByText('Give every split destination as an http(s) URL.').waitFor();
    // The builder's every part (conditions, weights, its problem) passes axe's WCAG 2.1 A/AA rules.
    expect(await axeViolations(page)).toEqual({});
    expect(await page.locator('.rule').count()).toBe(1);
    await page.fill('#split-destination-2', 'https://example.com/b');
    await page.getByText('Give every split destination').waitFor({ state: 'detached' });
    await page.fill('#split-weight-1', '70');
    await page.fill('#split-weight-2', '30');
    await page.locator('.rule-builder').screenshot({ path: join(RESULTS, 'dashboard-marketers-rule-builder.png') });
    await page.click('text=Add rule');
    await page.locator('.rule', { hasText: 'https://example.com/a (70)' }).waitFor();
    await page.click('text=Save changes');
    await page.getByText('Saved.').waitFor();

    const { routing } = await rest(`/v1/codes/${code.id}`);
    expect(routing.enabled).toBe(true);
    expect(routing.rules).toMatchObject([
      { condition: 'country:DE & device:ios', destination: 'https://example.de/ios' },
      {
        condition: 'split & country:DE',
        weights: [
          { destination: 'https://example.com/a', weight: 70 },
          { destination: 'https://example.com/b', weight: 30 },
        ],
      },
    ]);
    expect(await scan(code.scan_url, { 'x-test-country': 'DE' })).toBe('https://example.de/ios');
    const desktop = { 'x-test-country': 'DE', 'user-agent': 'Mozilla/5.0 (Windows NT 10.0; Win64; x64)' };
    expect(['https://example.com/a', 'https://example.com/b']).toContain(await scan(code.scan_url, desktop));
    expect(await scan(code.scan_url, { 'x-test-country': 'US' })).toBe('https://example.com/poster');
    expect(pageErrors).toEqual([]);
  });

  it('filters analytics by tag, compares with the period before, and writes languages and devices out', async () => {
    const tagged = await createCode(app, key, {
      name: 'Summer flyer',
      content: 'https://example.com/summer',
      tags: ['summer'],
    });
    const other = await createCode(app, key, { name: 'Winter flyer', content: 'https://example.com/winter' });
    for (let i = 0; i < 3; i++) await scan(tagged.scan_url, { 'accept-language': 'ja' });
    await scan(other.scan_url, { 'accept-language': 'de-DE' });
    await app.services.scans.recorder.flush();

    await page.goto(`${app.url}/dashboard/analytics`);
    await page.locator('.top-codes td', { hasText: 'Winter flyer' }).waitFor();
    const all = await rest('/v1/analytics/overview');
    expect(await text('[data-stat="total-scans"]')).toBe(String(all.total_scans));
    // The period before had none: the difference in scans, not "n/a".
    expect(all.previous_period.change_pct).toBeNull();
    expect(await text('[data-stat="change"]')).toContain(`+${all.total_scans} scans (none before)`);

    await page.selectOption('#analytics-tag', 'summer');
    await page.locator('.top-codes td', { hasText: 'Winter flyer' }).waitFor({ state: 'detached' });
    const summer = await rest('/v1/analytics/overview?tag=summer');
    expect(summer.total_scans).toBe(3);
    await page.locator('[data-stat="total-scans"]', { hasText: '3' }).waitFor();
    expect(await page.locator('.top-codes tbody a').allInnerTexts()).toEqual(['Summer flyer']);
    expect(await text('[data-dimension="device"] tbody tr')).toContain('Phone');
    expect(await axeViolations(page)).toEqual({});
    await shot('analytics-tag');

    // The code's page: named heading, languages by name.
    await page.locator('.top-codes tbody a').click();
    await page.locator('h1', { hasText: 'Analytics of Summer flyer' }).waitFor();
    expect(await page.title()).toBe('Analytics of Summer flyer · QR dashboard');
    expect(await text('.code-id code')).toBe(tagged.id);
    await page.locator('[data-dimension="language"] tr[data-value="ja"]', { hasText: 'Japanese (ja)' }).waitFor();
    expect(pageErrors).toEqual([]);
  });

  it('names the codes a CSV created and downloads the print-run ZIP', async () => {
    await page.goto(`${app.url}/dashboard/bulk`);
    const csv = 'content,name\nhttps://example.com/bulk/1,Table tent\nhttps://example.com/bulk/2,\n';
    await page.setInputFiles('#csv-file', { name: 'codes.csv', mimeType: 'text/csv', buffer: Buffer.from(csv) });
    await page.click('text=Upload and create');
    await page.getByText(/^Created 2 codes/).waitFor();
    const links = await page.locator('.bulk-result li a').allInnerTexts();
    expect(links[0]).toBe('Table tent');
    expect(links[1]).toMatch(/^http:\/\/.+\/\w+$/);
    const batchId = await text('.bulk-result code');
    const [name, zip] = await download('PDF ZIP of this batch');
    expect(name).toBe(`${batchId}-pdf.zip`);
    expect(zip.subarray(0, 2).toString()).toBe('PK');
    expect(await axeViolations(page)).toEqual({});
    await shot('bulk-result');
    expect(pageErrors).toEqual([]);
  });

  it("never shows another account's code name in an analytics heading", async () => {
    const otherKey = await app.newAccountKey('dashboard-marketers-other');
    const theirs = await createCode(app, otherKey, { name: 'Secret launch', content: 'https://example.com/secret' });
    await page.goto(`${app.url}/dashboard/codes/${theirs.id}/analytics`);
    await page.locator('h1', { hasText: `Analytics of ${theirs.id}` }).waitFor();
    await page.getByText(`This account has no code ${theirs.id}.`).waitFor();
    expect(await page.locator('main').innerText()).not.toContain('Secret launch');
  });
});
