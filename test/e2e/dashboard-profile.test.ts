// The profile page in headless Chromium against the real app: a person signed in with their
// password opens it from the navigation (focus on its heading), signs out another session,
// changes the password, sets up two-factor authentication from the secret (a wrong code named at
// its field, the recovery codes shown once) and then signs in again with the code their app would
// show, computed with the server's own library. axe finds nothing on the page or the code step.
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
const NEW_PASSWORD = 'violet harbour engine 77';

beforeAll(async () => {
  requireBuiltDashboard();
  app = await getTestApp();
  ({ browser, page } = await openDashboardBrowser(pageErrors));
}, 60_000);

afterAll(async () => {
  await browser?.close();
  await app?.close();
});

/** Beyond the refusals the flow causes on purpose (a wrong code's 401 and 422), which Chromium logs. */
const unexpectedErrors = () =>
  pageErrors.filter((e) => !/^Failed to load resource: the server responded with a status of (401|422)\b/.test(e));

async function signInWithPassword(email: string, password: string): Promise<void> {
  await page.goto(`${app.url}/dashboard/`);
  await page.fill('#email', email);
  await page.fill('#password', password);
  await page.click('#password-form button[type=submit]');
}

describe('the profile page', () => {
  it('signs out a session, changes the password, turns on two-factor sign-in, signs in with a code', async () => {
    // newUser signed in over the API: that is "another session" for the browser.
    const person = await newUser(app);
    await signInWithPassword(person.email, STRONG_PASSWORD);
    await page.getByRole('heading', { level: 1, name: 'Codes', exact: true }).waitFor();

    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Profile' }).click();
    await page.locator('h1', { hasText: 'Profile' }).waitFor();
    expect(await page.title()).toBe('Profile · QR dashboard');
    await expect.poll(() => page.evaluate(() => document.activeElement?.textContent)).toBe('Profile');

    // Two sessions, this one marked; the other is signed out from here and ends on the server.
    const rows = page.locator('table.sessions tbody tr');
    await expect.poll(() => rows.count()).toBe(2);
    expect(await rows.filter({ hasText: '(this session)' }).count()).toBe(1);
    expect(await axeViolations(page)).toEqual({});
    await rows
      .filter({ hasNotText: '(this session)' })
      .getByRole('button', { name: /Sign out/ })
      .click();
    await expect.poll(() => rows.count()).toBe(1);
    expect((await person.request('GET', '/v1/users/me')).status).toBe(401);

    // The password: a wrong current one is named at its field; the right one changes it.
    await page.fill('#profile-current_password', 'not the password at all');
    await page.fill('#profile-new_password', NEW_PASSWORD);
    await page.click('#change-password-form button[type=submit]');
    await page.locator('#profile-current_password[aria-invalid=true]').waitFor();
    expect(await page.getAttribute('#profile-current_password', 'aria-describedby')).toBe(
      'profile-current_password-problems',
    );
    await page.fill('#profile-current_password', STRONG_PASSWORD);
    await page.fill('#profile-new_password', NEW_PASSWORD);
    await page.click('#change-password-form button[type=submit]');
    await page.getByText('Password changed.').waitFor();

    // Two-factor authentication: the secret and its QR code, a wrong code, then the right one.
    await page.getByRole('button', { name: 'Set up two-factor authentication' }).click();
    const secret = (await page.locator('#second-factor-secret').textContent())!;
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);
    await page.getByRole('img', { name: 'QR code of the secret for your authenticator app' }).waitFor();
    expect(await axeViolations(page)).toEqual({});
    await page.fill('#enable-code', totpCode(secret, 10));
    await page.click('#enable-second-factor-form button[type=submit]');
    await page.locator('#enable-code[aria-invalid=true]').waitFor();
    await page.fill('#enable-code', totpCode(secret));
    await page.click('#enable-second-factor-form button[type=submit]');
    const codes = page.getByRole('list', { name: 'Recovery codes' }).getByRole('listitem');
    await expect.poll(() => codes.count()).toBe(10);
    await page.getByRole('button', { name: 'Copy the recovery codes' }).waitFor();
    expect(await axeViolations(page)).toEqual({});
    await page.getByRole('button', { name: 'I have saved them' }).click();
    await page.getByText('Recovery codes left: 10.').waitFor();

    // Signed out, the new password leads to the code step, focused; a wrong code is named, the app's signs in.
    await page.getByRole('button', { name: 'Sign out', exact: true }).click();
    await page.locator('#email').waitFor();
    await signInWithPassword(person.email, NEW_PASSWORD);
    await page.locator('#second-factor-code').waitFor();
    await expect.poll(() => page.evaluate(() => document.activeElement?.id)).toBe('second-factor-code');
    expect(await axeViolations(page)).toEqual({});
    await page.fill('#second-factor-code', '000000');
    await page.click('#second-factor-form button[type=submit]');
    await page.locator('#second-factor-code[aria-invalid=true]').waitFor();
    await page.locator('#second-factor-form .error-box').waitFor();
    // The confirming code's time step is used up: the app's next code (within the window) signs in.
    await page.fill('#second-factor-code', totpCode(secret, 1));
    await page.click('#second-factor-form button[type=submit]');
    await page.getByRole('heading', { level: 1, name: 'Codes', exact: true }).waitFor();
    expect(unexpectedErrors()).toEqual([]);
  });
});
