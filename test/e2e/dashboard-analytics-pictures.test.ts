// The analytics pictures in Chromium: scans seeded through the real scan route at chosen instants
// (only Date is faked) and countries (GEO_COUNTRY_HEADER), then the account page in Asia/Kolkata
// (a half-hour zone): the world map's paths, fills and titles, the unknown country beside it, the
// weekday x hour grid's 168 cells, the CSV downloads, and a screenshot checked for structure.
import { mkdirSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { decode } from 'fast-png';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { getTestApp, type TestApp } from '../support/app.ts';
import { openDashboardBrowser, requireBuiltDashboard } from '../support/browser.ts';
import { createCode } from '../support/factories.ts';

const RESULTS = 'test-results';
const NO_SCANS = 'rgb(229, 231, 235)';

let app: TestApp;
let key: string;
let codeId: string;
let browser: Browser;
let page: Page;
const pageErrors: string[] = [];

/** UTC instant, country (null: none known), referrer; Kolkata is UTC+5:30. 2026-06-01 is a Monday. */
const SCANS: [at: string, country: string | null, referrer?: string][] = [
  ['2026-06-01T04:31:00Z', 'DE'], // Mon 10:01 in Kolkata (UTC hour 04 would say 09:30-10:30)
  ['2026-06-01T04:40:00Z', 'DE'], // Mon 10:10
  ['2026-06-01T04:59:00Z', 'DE', 'https://-evil.example/'], // Mon 10:29, a referrer CSV must defuse
  ['2026-06-03T12:00:00Z', 'US'], // Wed 17:30
  ['2026-06-03T12:10:00Z', 'US'], // Wed 17:40
  ['2026-06-05T20:45:00Z', 'FR'], // Sat 02:15
  ['2026-06-02T00:00:00Z', null], // Tue 05:30, country unknown
  ['2026-06-02T01:00:00Z', 'SG'], // Tue 06:30, Singapore: too small for the 1:110m shapes
];

beforeAll(async () => {
  requireBuiltDashboard();
  app = await getTestApp({ GEO_COUNTRY_HEADER: 'X-Test-Country', SCAN_RATE_LIMIT_PER_MINUTE: '0' });
  key = await app.newAccountKey();
  const code = await createCode(app, key, { content: 'https://example.com/pictures' });
  codeId = code.id;
  for (const [i, [at, country, referrer]] of SCANS.entries()) {
    vi.useFakeTimers({ toFake: ['Date'], now: Date.parse(at) });
    const headers: Record<string, string> = { 'user-agent': `Mozilla/5.0 (Windows NT 10.0) visitor-${i}` };
    if (country) headers['x-test-country'] = country;
    if (referrer) headers.referer = referrer;
    const res = await app.request('GET', new URL(code.scan_url).pathname, { headers });
    vi.useRealTimers();
    expect(res.status).toBe(302);
  }
  await app.services.scans.recorder.flush();
  mkdirSync(RESULTS, { recursive: true });
  ({ browser, page } = await openDashboardBrowser(pageErrors));
}, 60_000);

afterAll(async () => {
  await browser?.close();
  await app?.close();
});

/** Presses a chart's CSV button and returns the downloaded file's name and text. */
async function download(label: string): Promise<{ name: string; text: string }> {
  const [file] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('button', { name: `Download CSV of ${label}` }).click(),
  ]);
  return { name: file.suggestedFilename(), text: await readFile((await file.path())!, 'utf8') };
}

describe('analytics pictures in Chromium', () => {
  it('draws the map, the weekday x hour grid and their CSV in the chosen zone', async () => {
    await page.goto(`${app.url}/dashboard/`);
    await page.fill('#api-key', key);
    await page.click('#api-key-form button[type=submit]');
    await page.getByRole('link', { name: 'Analytics', exact: true }).first().click();
    await page.fill('#range-from', '2026-05-31');
    await page.fill('#range-to', '2026-06-06');
    // The zone picker offers UTC and the browser's zone until it is reached for, then every zone.
    const zoneCount = () => page.locator('#range-timezone option').count();
    expect(await zoneCount()).toBeLessThanOrEqual(2);
    await page.focus('#range-timezone');
    await expect.poll(zoneCount).toBeGreaterThan(300);
    // Chromium's ICU lists the zone under its older name, Asia/Calcutta; either is the same zone.
    const zone = await page.$eval('#range-timezone', (select) =>
      [...(select as HTMLSelectElement).options]
        .map((o) => o.value)
        .find((v) => v === 'Asia/Kolkata' || v === 'Asia/Calcutta'),
    );
    await page.selectOption('#range-timezone', zone!);
    await page.locator('[data-stat="total-scans"]', { hasText: /^8$/ }).waitFor();

    // The map: a path per country of the shapes, filled where there were scans, titled. Its
    // shapes load as it comes near the screen.
    await page.locator('.world-map').scrollIntoViewIfNeeded();
    await page.locator('svg.map path.country').first().waitFor();
    const paths = await page.$$eval('svg.map path.country', (all) =>
      all.map((p) => ({
        country: (p as SVGPathElement).dataset.country!,
        fill: getComputedStyle(p).fill,
        title: p.querySelector('title')!.textContent,
        d: p.getAttribute('d')!.length,
      })),
    );
    expect(paths).toHaveLength(177);
    expect(paths.every((p) => p.d > 0)).toBe(true);
    const byCountry = new Map(paths.map((p) => [p.country, p]));
    for (const country of ['DE', 'US', 'FR']) expect(byCountry.get(country)!.fill, country).not.toBe(NO_SCANS);
    for (const country of ['BR', 'IN', 'AU']) expect(byCountry.get(country)!.fill, country).toBe(NO_SCANS);
    // More scans, a darker step of the scale.
    expect(byCountry.get('DE')!.fill).not.toBe(byCountry.get('FR')!.fill);
    expect(byCountry.get('DE')!.title).toBe('Germany (DE): 3 scans');
    expect(byCountry.get('FR')!.title).toBe('France (FR): 1 scan');
    expect(byCountry.get('BR')!.title).toBe('Brazil (BR): 0 scans');
    expect(await page.locator('.off-map').getAttribute('data-unknown')).toBe('1');
    expect(await page.locator('.off-map').innerText()).toBe(
      'Unknown country: 1 scan · not drawn at this scale: Singapore (SG) 1',
    );
    expect(await page.locator('.legend li').count()).toBeGreaterThan(1);

    // The grid: 168 cells, the scans in Kolkata's weekdays and hours (once the answer for Kolkata
    // is in: the total is 8 in UTC too). It is drawn as it comes near the screen.
    await page.locator('.weekday-hours').scrollIntoViewIfNeeded();
    await page.locator('.heatmap td[data-weekday="1"][data-hour="10"][data-scans="3"]').waitFor();
    const cells = await page.$$eval('.heatmap td', (all) =>
      all.map((td) => [
        Number((td as HTMLElement).dataset.weekday),
        Number((td as HTMLElement).dataset.hour),
        Number((td as HTMLElement).dataset.scans),
      ]),
    );
    expect(cells).toHaveLength(168);
    expect(cells.filter(([, , n]) => n! > 0)).toEqual([
      [1, 10, 3],
      [2, 5, 1],
      [2, 6, 1],
      [3, 17, 2],
      [6, 2, 1],
    ]);
    expect(await page.locator('.heatmap td[data-weekday="1"][data-hour="10"]').getAttribute('title')).toBe(
      'Monday 10:00–10:59: 3 scans',
    );
    const rest = (
      await app.request('GET', '/v1/analytics/weekday-hours?from=2026-05-31&to=2026-06-06&timezone=Asia/Kolkata', {
        key,
      })
    ).body;
    expect(cells).toEqual(
      rest.cells.map((c: { weekday: number; hour: number; scans: number }) => [c.weekday, c.hour, c.scans]),
    );

    // CSV: what the grid shows, the zone named in the header.
    const grid = await download('scans by weekday and hour');
    expect(grid.name).toBe('scans-by-weekday-hour-2026-05-31-2026-06-06.csv');
    const lines = grid.text.split('\r\n');
    expect(lines).toHaveLength(168 + 2); // header, 168 rows, and the final line break
    expect(lines[0]).toBe(`weekday (${zone}),hour (${zone}),scans (2026-05-31 to 2026-06-06)`);
    expect(lines[1]).toBe('Monday,00:00,0');
    expect(lines).toContain('Monday,10:00,3');
    expect(lines).toContain('Saturday,02:00,1');
    expect(lines.at(-1)).toBe('');

    const map = await download('scans by country');
    expect(map.text.split('\r\n')).toEqual([
      `country,name,"scans (2026-05-31 to 2026-06-06, ${zone})"`,
      'DE,Germany (DE),3',
      'US,United States (US),2',
      ',Unknown,1',
      'FR,France (FR),1',
      'SG,Singapore (SG),1',
      '',
    ]);

    // The referrer breakdown's CSV: a host starting with "-" would be a formula in a spreadsheet.
    const referrers = await download('referrers');
    expect(referrers.text).toContain("\r\n'-evil.example,'-evil.example,1\r\n");

    // The series by hour: labels with a comma are quoted, periods keep Kolkata's offset.
    await page.selectOption('#range-granularity', 'hour');
    await page.waitForFunction(() => document.querySelectorAll('.chart-data tbody tr').length === 168);
    const series = await download('scans over time');
    expect(series.text.split('\r\n')[0]).toBe(`period start (${zone}),period,scans,unique_scans`);
    expect(series.text).toContain('\r\n2026-06-01T10:00:00.000+05:30,"Jun 1, 10:00",3,3\r\n');

    // A screenshot of the map, checked for structure rather than pixels: a box of some size with
    // the sphere, the grey of countries without scans and more than one step of the scale.
    const box = await page.locator('svg.map').boundingBox();
    expect(box!.width).toBeGreaterThan(600);
    expect(box!.height).toBeGreaterThan(250);
    const png = await page.locator('svg.map').screenshot({ path: join(RESULTS, 'dashboard-analytics-map.png') });
    const image = decode(png);
    const colours = new Map<string, number>();
    const channels = image.channels;
    for (let i = 0; i < image.data.length; i += channels) {
      const rgb = `${image.data[i]},${image.data[i + 1]},${image.data[i + 2]}`;
      colours.set(rgb, (colours.get(rgb) ?? 0) + 1);
    }
    const share = (rgb: string) => (colours.get(rgb) ?? 0) / (image.width * image.height);
    expect(share('229,231,235')).toBeGreaterThan(0.1); // countries without scans
    const scaleSeen = ['219,234,254', '147,197,253', '59,130,246', '29,78,216', '30,58,138'].filter(
      (rgb) => (colours.get(rgb) ?? 0) > 20,
    );
    expect(scaleSeen.length).toBeGreaterThanOrEqual(2);
    await page.screenshot({ path: join(RESULTS, 'dashboard-analytics-pictures.png'), fullPage: true });
    expect(pageErrors).toEqual([]);
  });

  it("draws the same pictures on a code's page", async () => {
    await page.goto(`${app.url}/dashboard/codes/${codeId}/analytics`);
    await page.fill('#range-from', '2026-05-31');
    await page.fill('#range-to', '2026-06-06');
    await page.click('#range-timezone');
    await page.selectOption('#range-timezone', 'America/New_York');
    await page.locator('[data-stat="total-scans"]', { hasText: /^8$/ }).waitFor();
    await page.locator('.world-map').scrollIntoViewIfNeeded();
    await page
      .locator('svg.map path[data-country="DE"] title', { hasText: 'Germany (DE): 3 scans' })
      .waitFor({ state: 'attached' });
    // New York is UTC-4 in June: the Monday 04:31-04:59 UTC scans are at 00:xx on Monday.
    await page.locator('.weekday-hours').scrollIntoViewIfNeeded();
    await page.locator('.heatmap td[data-weekday="1"][data-hour="0"][data-scans="3"]').waitFor();
    expect(await page.locator('.heatmap td').count()).toBe(168);
    const rest = (
      await app.request(
        'GET',
        `/v1/codes/${codeId}/scans/weekday-hours?from=2026-05-31&to=2026-06-06&timezone=America/New_York`,
        { key },
      )
    ).body;
    const cells = await page.$$eval('.heatmap td', (all) => all.map((td) => Number((td as HTMLElement).dataset.scans)));
    expect(cells).toEqual(rest.cells.map((c: { scans: number }) => c.scans));
    await page.locator('.breakdowns').waitFor();
    expect(await page.locator('.csv-download').count()).toBe(3 + 7); // series, map, grid, seven breakdowns
    expect(pageErrors).toEqual([]);
  });

  it('loads and draws the map and the grid only as they come near the screen', async () => {
    // A phone's screen: the map and the grid are far below the numbers.
    await page.setViewportSize({ width: 390, height: 700 });
    try {
      await page.goto(`${app.url}/dashboard/codes/${codeId}/analytics`);
      await page.locator('.breakdowns').waitFor();
      expect(await page.locator('svg.map').count()).toBe(0);
      expect(await page.locator('.heatmap').count()).toBe(0);
      // Their headings are there from the start.
      await page.getByRole('heading', { name: 'Scans by weekday and hour (UTC)' }).waitFor();
      await page.locator('.world-map').scrollIntoViewIfNeeded();
      await page.locator('svg.map path.country').first().waitFor();
      await page.locator('.weekday-hours').scrollIntoViewIfNeeded();
      await page.locator('.heatmap td').nth(167).waitFor();
      expect(await page.locator('.heatmap td').count()).toBe(168);
      expect(pageErrors).toEqual([]);
    } finally {
      await page.setViewportSize({ width: 1280, height: 900 });
    }
  });
});
