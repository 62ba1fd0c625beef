// The dashboard's languages in Chromium: a browser set to German gets German words and German
// numbers and dates on the converted pages (the code editor and the import page included), the
// language picker in the top bar switches to English and back without a reload, the choice
// outlives a reload, and <html lang> follows (axe checks it, with the rest of WCAG 2.1 A and AA).
import { beforeAll, describe, expect, it } from 'vitest';
import { axeViolations } from '../support/axe.ts';
import { dashboardSuite, signIn } from '../support/browser.ts';
import { createCode } from '../support/factories.ts';
import { recordScans } from '../support/scans.ts';

/** 1,234 scans: enough for a thousands separator, which differs between the two languages. */
const SCANS = 1234;

const suite = dashboardSuite('i18n', 'de-DE');
let codeId: string;

beforeAll(async () => {
  const code = await createCode(suite.app, suite.key, {
    name: 'Frühlingsplakat',
    content: 'https://example.com/fruehling',
  });
  codeId = code.id;
  const hourAgo = new Date(Date.now() - 3_600_000).toISOString();
  const scans = Array.from({ length: SCANS }, (_, i) => ({ at: hourAgo, visitor: `v${i}` }));
  await recordScans(suite.app, suite.key, code, scans);
}, 60_000);

const row = () => suite.page.locator(`tr[data-code-id="${codeId}"]`);
const cell = async (column: number) => (await row().locator('td').nth(column).innerText()).trim();

describe('Dashboard languages in Chromium', () => {
  it('speaks German to a German browser, switches to English and back, and remembers the choice', async () => {
    const { app, key, page } = suite;
    // Signed in with the key (the sign-in page in German: dashboard-i18n-sign-in.test.ts); "Codes" is German too.
    await signIn(page, app.url, key);
    await row().waitFor();
    expect(await page.evaluate(() => document.documentElement.lang)).toBe('de');
    expect(await page.title()).toBe('Codes · QR-Dashboard');
    await page.getByRole('link', { name: 'Statistik' }).waitFor();
    await page.getByRole('columnheader', { name: 'Erstellt' }).waitFor();
    await page.getByRole('button', { name: 'Abmelden' }).waitFor();
    // German numbers and dates: 1.234, and "05.01.2026, 15:04".
    expect(await cell(6)).toBe('1.234');
    expect(await cell(7)).toMatch(/^\d{2}\.\d{2}\.\d{4}, \d{2}:\d{2}$/);
    expect(await row().locator('.badge').innerText()).toBe('aktiv');
    expect(await axeViolations(page)).toEqual({});

    // The bulk page's limit, and the code's analytics: presets, weekdays and the cell titles.
    await page.getByRole('link', { name: 'Massen-Upload' }).click();
    await page.getByText('Bis zu 10.000 Zeilen').waitFor();
    await page.goto(`${app.url}/dashboard/codes/${codeId}/analytics`);
    await page.getByRole('heading', { level: 1, name: 'Statistik von Frühlingsplakat' }).waitFor();
    await page.getByRole('button', { name: 'Letzte 7 Tage' }).waitFor();
    expect(await page.locator('[data-stat="total-scans"]').innerText()).toBe('1.234');
    // The grid is drawn as it comes near the screen.
    await page.locator('.weekday-hours').scrollIntoViewIfNeeded();
    await page.locator('.heatmap').waitFor();
    expect(await page.locator('.heatmap tbody th').allInnerTexts()).toEqual(['Mo', 'Di', 'Mi', 'Do', 'Fr', 'Sa', 'So']);
    expect(await page.locator('.heatmap td[data-weekday="1"][data-hour="0"]').getAttribute('title')).toMatch(
      /^Montag 00:00–00:59: \d[\d.]* Scans?$/,
    );
    expect(await axeViolations(page)).toEqual({});

    // English, picked in the top bar: words, numbers, dates and lang change at once.
    await page.getByLabel('Sprache', { exact: true }).selectOption('en');
    await page.getByRole('button', { name: 'Last 7 days' }).waitFor();
    expect(await page.evaluate(() => document.documentElement.lang)).toBe('en');
    expect(await page.locator('[data-stat="total-scans"]').innerText()).toBe('1,234');
    await page.getByRole('link', { name: 'Codes', exact: true }).click();
    await row().waitFor();
    expect(await cell(6)).toBe('1,234');
    expect(await cell(7)).toMatch(/^[A-Z][a-z]{2} \d{1,2}, \d{4}, \d{1,2}:\d{2}\s[AP]M$/);
    expect(await page.title()).toBe('Codes · QR dashboard');

    // The choice outlives a reload, though the browser still asks for German.
    await page.reload();
    await row().waitFor();
    await page.getByRole('button', { name: 'Sign out' }).waitFor();
    expect(await page.evaluate(() => document.documentElement.lang)).toBe('en');
    expect(await axeViolations(page)).toEqual({});

    // And back to German, which the next reload keeps too.
    await page.getByLabel('Language', { exact: true }).selectOption('de');
    await page.getByRole('columnheader', { name: 'Erstellt' }).waitFor();
    await page.reload();
    await page.getByRole('button', { name: 'Abmelden' }).waitFor();
    expect(await cell(6)).toBe('1.234');
    expect(await page.evaluate(() => localStorage.getItem('qr-dashboard.language'))).toBe('de');
    expect(suite.errors).toEqual([]);
  });

  it("speaks German in the code editor, its rule builder's problems and the import page", async () => {
    const { app, page } = suite;
    await page.goto(`${app.url}/dashboard/codes/${codeId}`);
    await page.getByRole('button', { name: 'Änderungen speichern' }).waitFor();
    expect(await page.title()).toBe('Frühlingsplakat bearbeiten · QR-Dashboard');
    await page.getByText('Gestaltung', { exact: true }).waitFor();
    await page.getByLabel('Logo hochladen').waitFor();
    await page.getByRole('button', { name: 'Code löschen' }).waitFor();
    // A problem the page finds itself comes in German too.
    await page.getByRole('button', { name: 'Regel hinzufügen' }).click();
    await page
      .getByText('Geben Sie den Wert für „Land“ an, z. B. DE,AT, oder entfernen Sie diese Bedingung.')
      .waitFor();
    expect(await axeViolations(page)).toEqual({});

    await page.goto(`${app.url}/dashboard/import`);
    await page.getByRole('button', { name: 'Prüfen' }).click();
    await page.getByText('Wählen Sie zuerst die Exportdatei.').waitFor();
    expect(suite.errors).toEqual([]);
  });
});
