// Passkeys in headless Chromium against the real app, with the DevTools protocol's virtual
// authenticator (CTAP2, resident keys, user verification that always succeeds) standing in for a
// phone or a laptop's screen lock: a person signed in with their password adds a passkey on the
// profile page, signs out, and signs in again with the passkey alone (no email typed: a
// discoverable credential), then sees it used. The app is served as localhost: browsers refuse
// passkeys on an IP address. axe finds nothing on the profile's passkeys.
import type { Browser, CDPSession, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getTestApp, type TestApp } from '../support/app.ts';
import { axeViolations } from '../support/axe.ts';
import { openDashboardBrowser, requireBuiltDashboard, signInWithPassword } from '../support/browser.ts';
import { newUser, STRONG_PASSWORD } from '../support/users.ts';

let app: TestApp;
let browser: Browser;
let page: Page;
let cdp: CDPSession;
let authenticatorId: string;
const pageErrors: string[] = [];

beforeAll(async () => {
  requireBuiltDashboard();
  app = await getTestApp({}, { host: 'localhost' });
  ({ browser, page } = await openDashboardBrowser(pageErrors));
  cdp = await page.context().newCDPSession(page);
  await cdp.send('WebAuthn.enable');
  ({ authenticatorId } = await cdp.send('WebAuthn.addVirtualAuthenticator', {
    options: {
      protocol: 'ctap2',
      transport: 'internal',
      hasResidentKey: true,
      hasUserVerification: true,
      isUserVerified: true,
      automaticPresenceSimulation: true,
    },
  }));
}, 60_000);

afterAll(async () => {
  await browser?.close();
  await app?.close();
});

describe('passkeys in the dashboard', () => {
  it('adds a passkey on the profile page, signs out, and signs in with it', async () => {
    const person = await newUser(app);
    await signInWithPassword(page, app.url, person.email, STRONG_PASSWORD);

    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Profile' }).click();
    await page.getByRole('heading', { name: 'Passkeys' }).waitFor();
    await page.getByText('You have no passkeys yet.').waitFor();
    await page.fill('#passkey-name', 'Test laptop');
    await page.getByRole('button', { name: 'Add a passkey' }).click();
    await page.getByText('Passkey added').waitFor();
    const row = page.locator('table.passkeys tbody tr');
    await expect.poll(() => row.count()).toBe(1);
    expect(await row.locator('td').first().textContent()).toBe('Test laptop');
    expect(await row.locator('td').nth(2).textContent()).toBe('Never');
    expect(await axeViolations(page)).toEqual({});

    // The device holds a discoverable credential for this host, bound to the person.
    const { credentials } = await cdp.send('WebAuthn.getCredentials', { authenticatorId });
    expect(credentials).toHaveLength(1);
    expect(credentials[0]).toMatchObject({ isResidentCredential: true, rpId: 'localhost' });
    expect(Buffer.from(credentials[0]!.userHandle!, 'base64').toString()).toBe(person.id);
    const [stored] = (await person.request('GET', '/v1/users/me/passkeys')).body.data;
    expect(stored).toMatchObject({ name: 'Test laptop', last_used_at: null });

    await page.getByRole('button', { name: 'Sign out', exact: true }).click();
    await page.locator('#password-form').waitFor();
    // No email typed: the browser offers the passkeys it has for the site.
    await page.getByRole('button', { name: 'Sign in with a passkey' }).click();
    // Signed in again on the page the person signed out of, as after a password sign-in.
    await page.getByRole('heading', { level: 1, name: 'Profile', exact: true }).waitFor();
    await expect.poll(() => row.locator('td').nth(2).textContent()).not.toBe('Never');
    const [used] = (await person.request('GET', '/v1/users/me/passkeys')).body.data;
    expect(used.last_used_at).not.toBeNull();
    expect(pageErrors).toEqual([]);
  }, 60_000);
});
