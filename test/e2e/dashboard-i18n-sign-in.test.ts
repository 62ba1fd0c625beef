// The signed-out pages and the profile in German, in Chromium: a browser set to German gets the
// sign-in page in German with the language picker above it; English picked there holds across a
// reload, and German again too. Signed in with email and password, the profile, setting up
// two-factor authentication and the code step of the next sign-in speak German, dates included.
// An invitation's page and the setup page without its token do too. axe checks each (lang too).
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getTestApp, type TestApp } from '../support/app.ts';
import { axeViolations } from '../support/axe.ts';
import { openDashboardBrowser, requireBuiltDashboard } from '../support/browser.ts';
import { totpCode } from '../support/second-factor.ts';
import { newUser, STRONG_PASSWORD } from '../support/users.ts';

let app: TestApp;
let browser: Browser;
let page: Page;
const pageErrors: string[] = [];

beforeAll(async () => {
  requireBuiltDashboard();
  app = await getTestApp();
  ({ browser, page } = await openDashboardBrowser(pageErrors, 'de-DE'));
}, 60_000);

afterAll(async () => {
  await browser?.close();
  await app?.close();
});

/** Beyond the password's 401 that asks for the second factor, which Chromium logs as a failed load. */
const unexpectedErrors = () =>
  pageErrors.filter((e) => !/^Failed to load resource: the server responded with a status of 401\b/.test(e));
const lang = () => page.evaluate(() => document.documentElement.lang);
const heading = (name: string) => page.getByRole('heading', { level: 1, name, exact: true });

describe('the signed-out pages and the profile in German', () => {
  it('signs in and shows the profile in German; the picker on the sign-in page switches and remembers', async () => {
    const person = await newUser(app);
    await page.goto(`${app.url}/dashboard/`);
    await heading('QR-Code-Dashboard').waitFor();
    expect(await lang()).toBe('de');
    expect(await page.title()).toBe('Anmelden · QR-Dashboard');
    await page.getByRole('heading', { level: 2, name: 'Anmelden', exact: true }).waitFor();
    await page.getByLabel('Passwort', { exact: true }).waitFor();
    await page.getByLabel('API-Schlüssel').waitFor();
    await page.getByRole('link', { name: 'Passwort vergessen?' }).waitFor();
    expect(await page.getByLabel('Sprache', { exact: true }).inputValue()).toBe('de');
    // Each language named in itself (named at build time, dashboard/build/language-names.ts).
    expect(await page.locator('#language option').allTextContents()).toEqual(['Deutsch', 'English']);
    await page.click('#password-form button[type=submit]');
    await page.getByText('Geben Sie Ihre E-Mail und Ihr Passwort ein.').waitFor();
    expect(await axeViolations(page)).toEqual({});

    // English, picked on the sign-in page, at once and after a reload the browser's German does not undo.
    await page.getByLabel('Sprache', { exact: true }).selectOption('en');
    await heading('QR codes dashboard').waitFor();
    expect(await lang()).toBe('en');
    expect(await page.title()).toBe('Sign in · QR dashboard');
    await page.reload();
    await heading('QR codes dashboard').waitFor();
    expect(await page.evaluate(() => localStorage.getItem('qr-dashboard.language'))).toBe('en');
    // Back to German, which the password reset page (the same frame) keeps.
    await page.getByLabel('Language', { exact: true }).selectOption('de');
    await heading('QR-Code-Dashboard').waitFor();
    await page.getByRole('link', { name: 'Passwort vergessen?' }).click();
    await heading('Passwort zurücksetzen').waitFor();
    await page.getByRole('button', { name: 'Link per E-Mail senden' }).waitFor();
    expect(await page.getByLabel('Sprache', { exact: true }).inputValue()).toBe('de');
    expect(await axeViolations(page)).toEqual({});

    // Signed in by email and password: the codes, then the profile, in German.
    await page.goto(`${app.url}/dashboard/`);
    await page.getByLabel('E-Mail').fill(person.email);
    await page.getByLabel('Passwort', { exact: true }).fill(STRONG_PASSWORD);
    await page.click('#password-form button[type=submit]');
    await page.getByRole('button', { name: 'Abmelden', exact: true }).waitFor();
    await page.getByRole('navigation', { name: 'Hauptnavigation' }).getByRole('link', { name: 'Profil' }).click();
    await heading('Profil').waitFor();
    expect(await page.title()).toBe('Profil · QR-Dashboard');
    await page.getByRole('heading', { level: 2, name: 'Ihre Sitzungen' }).waitFor();
    await page.getByLabel('Aktuelles Passwort').waitFor();
    await page.getByRole('button', { name: 'Passwort ändern' }).waitFor();
    const rows = page.locator('table.sessions tbody tr');
    // newUser's own session over the API, and this browser's.
    await expect.poll(() => rows.count()).toBe(2);
    const mine = rows.filter({ hasText: '(diese Sitzung)' });
    await mine.getByRole('button', { name: /^Abmelden ?: diese Sitzung$/ }).waitFor();
    expect(await mine.locator('td').nth(1).innerText()).toMatch(/^\d{2}\.\d{2}\.\d{4}, \d{2}:\d{2}$/);
    expect(await axeViolations(page)).toEqual({});

    // Two-factor authentication, set up in German.
    await page.getByRole('button', { name: 'Zwei-Faktor-Authentifizierung einrichten' }).click();
    await page.getByRole('img', { name: 'QR-Code des Geheimnisses für Ihre Authenticator-App' }).waitFor();
    const secret = (await page.locator('#second-factor-secret').textContent())!;
    await page.getByLabel('Der 6-stellige Code, den Ihre App gerade anzeigt').fill(totpCode(secret));
    await page.getByRole('button', { name: 'Einschalten' }).click();
    await page.getByRole('list', { name: 'Wiederherstellungscodes' }).waitFor();
    await page.getByRole('button', { name: 'Kopieren Wiederherstellungscodes' }).waitFor();
    expect(await axeViolations(page)).toEqual({});
    await page.getByRole('button', { name: 'Ich habe sie gespeichert' }).click();
    await page.getByText('Verbleibende Wiederherstellungscodes: 10.').waitFor();

    // The next sign-in asks for the code in German.
    await page.getByRole('button', { name: 'Abmelden', exact: true }).click();
    await heading('QR-Code-Dashboard').waitFor();
    await page.getByLabel('E-Mail').fill(person.email);
    await page.getByLabel('Passwort', { exact: true }).fill(STRONG_PASSWORD);
    await page.click('#password-form button[type=submit]');
    await page.getByRole('heading', { level: 2, name: 'Zwei-Faktor-Authentifizierung' }).waitFor();
    await page.getByRole('button', { name: 'Mit dem Passwort neu beginnen' }).waitFor();
    expect(await axeViolations(page)).toEqual({});
    // The confirming code's time step is used up: the app's next one signs in.
    await page.getByLabel('Code aus Ihrer Authenticator-App oder ein Wiederherstellungscode').fill(totpCode(secret, 1));
    await page.getByRole('button', { name: 'Bestätigen' }).click();
    await page.getByRole('button', { name: 'Abmelden', exact: true }).waitFor();
    expect(unexpectedErrors()).toEqual([]);
  });

  it('shows an invitation and the setup page without its token in German', async () => {
    const inviter = await newUser(app);
    const made = await inviter.request('POST', `/v1/workspaces/${inviter.workspaceId}/invitations`, {
      body: { email: 'gast@example.com', role: 'viewer' },
    });
    expect(made.status, made.text).toBe(201);
    const guest = await browser.newContext({ locale: 'de-DE' });
    try {
      const tab = await guest.newPage();
      await tab.goto(made.body.link);
      await tab.getByRole('heading', { level: 1, name: /beitreten$/ }).waitFor();
      const offer = await tab.locator('main p').first().innerText();
      expect(offer).toMatch(/^Sie sind eingeladen als Betrachter\. Die Einladung funktioniert einmal, bis \d/);
      await tab.getByText('Sie treten als gast@example.com bei.').waitFor();
      await tab.getByRole('button', { name: 'Dem Arbeitsbereich beitreten' }).waitFor();
      expect(await axeViolations(tab)).toEqual({});

      await tab.goto(`${app.url}/dashboard/setup`);
      await tab.getByRole('heading', { level: 1, name: 'Den QR-Code-Dienst einrichten' }).waitFor();
      await tab.getByText('Diese Seite braucht das Token des Einrichtungslinks', { exact: false }).waitFor();
      expect(await tab.title()).toBe('Einrichtung · QR-Dashboard');
    } finally {
      await guest.close();
    }
  });
});
