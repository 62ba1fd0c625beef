// Single sign-on in headless Chromium through the whole redirect flow: the email on the
// dashboard's sign-in page, "Sign in with SSO", the company's identity provider (a second
// oidc-provider on loopback) with its login form and consent, and back signed in to the
// dashboard as a new member. Owners see the settings on the members page; a refused sign-in's
// reason shows on the sign-in page.
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getTestApp, type TestApp } from '../support/app.ts';
import { collectPageErrors, launchChromium, requireBuiltDashboard } from '../support/browser.ts';
import { ssoSettingsFor, startIdp, type TestIdp } from '../support/oidc-idp.ts';
import { newUser, STRONG_PASSWORD, type TestUser } from '../support/users.ts';

const DOMAIN = 'corp-e2e.test';
let app: TestApp;
let idp: TestIdp;
let owner: TestUser;
let browser: Browser;
const pageErrors: string[] = [];

beforeAll(async () => {
  requireBuiltDashboard();
  app = await getTestApp({ ALLOW_PRIVATE_NETWORK_TARGETS: 'true' });
  idp = await startIdp(`${app.url}/v1/sso/callback`);
  owner = await newUser(app);
  const res = await owner.request('PUT', `/v1/workspaces/${owner.workspaceId}/sso`, {
    body: ssoSettingsFor(idp, DOMAIN),
  });
  expect(res.status, res.text).toBe(200);
  browser = await launchChromium();
}, 60_000);

afterAll(async () => {
  await browser?.close();
  await idp?.close();
  await app?.close();
});

/** A page of a browser profile of its own: each test's person starts signed out. */
async function newPage(): Promise<Page> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, locale: 'en-US' });
  context.setDefaultTimeout(10_000);
  const page = await context.newPage();
  collectPageErrors(page, pageErrors);
  return page;
}

describe('single sign-on in the dashboard', () => {
  it('email on the sign-in page, the provider’s login form, back signed in as a new editor', async () => {
    const page = await newPage();
    await page.goto(`${app.url}/dashboard/`);
    await page.fill('#email', `mia@${DOMAIN}`);
    await page.click('#sso-sign-in');
    // The provider's own pages: the login form (the email given as login_hint), then the consent.
    await page.waitForURL((url) => url.href.startsWith(idp.issuer));
    expect(await page.inputValue('input[name=login]')).toBe(`mia@${DOMAIN}`);
    await page.fill('input[name=password]', 'anything');
    await page.click('button[type=submit]');
    await page.locator('button', { hasText: 'Continue' }).click();
    await page.waitForURL(`${app.url}/dashboard/`);
    await page.getByRole('heading', { level: 1, name: 'Codes', exact: true }).waitFor();
    const cookies = await page.context().cookies(app.url);
    expect(cookies.find((c) => c.name === 'qr_session')).toMatchObject({ httpOnly: true });

    const members = await owner.request('GET', `/v1/workspaces/${owner.workspaceId}/members`);
    const mia = members.body.data.find((m: { user: { email: string } }) => m.user.email === `mia@${DOMAIN}`);
    expect(mia?.role).toBe('editor');
    await page.context().close();
  });

  it('a refused sign-in lands on the sign-in page with its reason', async () => {
    const page = await newPage();
    await page.goto(`${app.url}/dashboard/`);
    await page.fill('#email', 'someone@no-sso.test');
    await page.click('#sso-sign-in');
    await page.waitForURL(`${app.url}/dashboard/?sso_error=not_configured`);
    await page.locator('.error-box', { hasText: 'Single sign-on is not set up for this email’s domain' }).waitFor();
    await page.context().close();
  });

  it('an owner sees and changes the settings on the members page; the secret is never shown', async () => {
    const page = await newPage();
    await page.goto(`${app.url}/dashboard/`);
    await page.fill('#email', owner.email);
    await page.fill('#password', STRONG_PASSWORD);
    await page.click('#password-form button[type=submit]');
    await page.getByRole('heading', { level: 1, name: 'Codes', exact: true }).waitFor();
    await page.goto(`${app.url}/dashboard/members`);
    await page.locator('h2', { hasText: 'Single sign-on' }).waitFor();
    expect(await page.inputValue('#sso-issuer')).toBe(idp.issuer);
    expect(await page.inputValue('#sso-client-secret')).toBe('');
    await page.selectOption('#sso-default-role', 'viewer');
    await page.click('#sso-form button[type=submit]');
    await page.locator('text=Single sign-on saved.').waitFor();
    const stored = await owner.request('GET', `/v1/workspaces/${owner.workspaceId}/sso`);
    expect(stored.body.default_role).toBe('viewer');
    expect(await page.content()).not.toContain(idp.clientSecret);
    await page.context().close();
  });

  it('left no errors in the dashboard’s pages', () => {
    // The provider's pages are not ours; a refused sign-in logs nothing either.
    expect(pageErrors.filter((e) => !/Failed to load resource/.test(e))).toEqual([]);
  });
});
