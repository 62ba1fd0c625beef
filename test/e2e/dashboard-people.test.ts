// People in the dashboard, in headless Chromium against the real app: the first run's setup link
// makes the first owner and signs them in; the session outlives the tab (a new tab finds it
// through the server's cookie); signing out ends it on the server; signing in with email and
// password, and a second workspace chosen in the switcher shows that workspace's codes. axe finds
// nothing on the setup and sign-in pages.
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getTestApp, type TestApp } from '../support/app.ts';
import { axeViolations } from '../support/axe.ts';
import { collectPageErrors, launchChromium, requireBuiltDashboard } from '../support/browser.ts';
import { startSmtpServer, type TestSmtpServer } from '../support/smtp-server.ts';
import { createCode } from '../support/factories.ts';
import { newUser, STRONG_PASSWORD, type TestUser } from '../support/users.ts';

let app: TestApp;
let smtp: TestSmtpServer;
let browser: Browser;
let context: BrowserContext;
const pageErrors: string[] = [];

beforeAll(async () => {
  requireBuiltDashboard();
  smtp = await startSmtpServer();
  app = await getTestApp({ SMTP_URL: smtp.url });
  browser = await launchChromium();
  context = await browser.newContext({ viewport: { width: 1280, height: 900 }, locale: 'en-US' });
  context.setDefaultTimeout(10_000);
}, 60_000);

afterAll(async () => {
  await browser?.close();
  await app?.close();
  await smtp?.close();
});

/** A code made by a signed-in person in one of their workspaces. */
async function codeOf(person: TestUser, workspace: string, name: string): Promise<void> {
  const body = { content: `https://example.com/${encodeURIComponent(name)}`, name };
  const res = await person.request('POST', '/v1/codes', { body, workspace });
  expect(res.status, res.text).toBe(201);
}

/**
 * The page errors beyond the refusals these flows cause on purpose (a weak password's 422, a wrong
 * password's 401, a signed-out tab's refused requests), which Chromium logs as failed loads.
 */
const unexpectedErrors = () =>
  pageErrors.filter((e) => !/^Failed to load resource: the server responded with a status of (401|422)\b/.test(e));

async function newPage(): Promise<Page> {
  const page = await context.newPage();
  collectPageErrors(page, pageErrors);
  return page;
}

describe('people in the dashboard', () => {
  it('set up the first owner from the setup link, keep the session across tabs, and sign out', async () => {
    const { token } = await app.services.setup.issueToken({});
    const page = await newPage();
    await page.goto(`${app.url}/dashboard/setup?token=${token}`);
    await page.locator('#setup-email').waitFor();
    expect(await page.title()).toBe('Set up · QR dashboard');
    expect(await axeViolations(page)).toEqual({});

    // A weak password is refused, named at its field, and the link still works.
    await page.fill('#setup-email', 'founder@example.com');
    await page.fill('#setup-display_name', 'Ada Founder');
    await page.fill('#setup-password', 'password1');
    await page.fill('#setup-workspace_name', 'Bakery marketing');
    await page.click('#setup-form button[type=submit]');
    await page.locator('#setup-password[aria-invalid=true]').waitFor();
    expect(await axeViolations(page)).toEqual({});
    await page.fill('#setup-password', STRONG_PASSWORD);
    await page.click('#setup-form button[type=submit]');
    await page.getByRole('heading', { level: 1, name: 'Codes', exact: true }).waitFor();
    expect(new URL(page.url()).pathname).toBe('/dashboard/codes');
    await expect.poll(() => page.locator('.workspace-name').textContent()).toBe('Bakery marketing');

    // A new tab of the same browser is signed in by the cookie alone.
    const second = await newPage();
    await second.goto(`${app.url}/dashboard/`);
    await second.getByRole('heading', { level: 1, name: 'Codes', exact: true }).waitFor();

    // Signing out ends the session on the server: the other tab's next request is refused too.
    await second.getByRole('button', { name: 'Sign out' }).click();
    await second.locator('#email').waitFor();
    const cookies = await context.cookies(app.url);
    expect(cookies.map((c) => c.name)).not.toContain('qr_session');
    await page.reload();
    await page.locator('#email').waitFor();
    expect(unexpectedErrors()).toEqual([]);
  });

  it('accept an invitation: a new person joins with name and password and lands in the workspace', async () => {
    const inviter = await newUser(app);
    await codeOf(inviter, inviter.workspaceId, 'Shared poster');
    const made = await inviter.request('POST', `/v1/workspaces/${inviter.workspaceId}/invitations`, {
      body: { email: 'newcomer@example.com', role: 'editor' },
    });
    expect(made.status, made.text).toBe(201);
    const guest = await browser.newContext({ viewport: { width: 390, height: 844 }, locale: 'en-US' });
    try {
      const page = await guest.newPage();
      collectPageErrors(page, pageErrors);
      await page.goto(made.body.link);
      await page.locator('h1', { hasText: 'Join ' }).waitFor();
      expect(await page.textContent('main')).toContain('newcomer@example.com');
      expect(await axeViolations(page)).toEqual({});
      await page.fill('#invite-display_name', 'New Comer');
      await page.fill('#invite-password', STRONG_PASSWORD);
      await page.click('#invite-form button[type=submit]');
      await page.getByRole('link', { name: 'Shared poster' }).waitFor();
      // The link is used up.
      await page.goto(made.body.link);
      await page.locator('.error-box').waitFor();
    } finally {
      await guest.close();
    }
    expect(unexpectedErrors()).toEqual([]);
  });

  it('sign in with email and password, and switch to another workspace with its own codes', async () => {
    const person = await newUser(app, { email: 'switcher@example.com' });
    await createCode(app, await app.newAccountKey('switch-key'), { name: 'Not theirs' });
    await codeOf(person, person.workspaceId, 'First workspace code');
    const other = await person.request('POST', '/v1/workspaces', { body: { name: 'Agency' } });
    expect(other.status, other.text).toBe(201);
    await codeOf(person, other.body.id, 'Agency code');

    const page = await newPage();
    await page.goto(`${app.url}/dashboard/`);
    await page.locator('#email').waitFor();
    expect(await axeViolations(page)).toEqual({});
    await page.fill('#email', person.email);
    await page.fill('#password', 'not the password at all');
    await page.click('#password-form button[type=submit]');
    await page.locator('#password-form .error-box').waitFor();
    await page.fill('#password', STRONG_PASSWORD);
    await page.click('#password-form button[type=submit]');
    await page.getByRole('heading', { level: 1, name: 'Codes', exact: true }).waitFor();
    await page.getByLabel('Workspace').selectOption(person.workspaceId);
    await page.getByRole('link', { name: 'First workspace code' }).waitFor();

    await page.getByLabel('Workspace').selectOption(other.body.id);
    await page.getByRole('link', { name: 'Agency code' }).waitFor();
    expect(await page.getByRole('link', { name: 'First workspace code' }).count()).toBe(0);
    expect(await page.getByText('Not theirs').count()).toBe(0);
    expect(unexpectedErrors()).toEqual([]);
  });

  it('reset a forgotten password from the sign-in page through the mailed link', async () => {
    const person = await newUser(app, { email: 'forgot@example.com' });
    const guest = await browser.newContext({ viewport: { width: 390, height: 844 }, locale: 'en-US' });
    try {
      const page = await guest.newPage();
      collectPageErrors(page, pageErrors);
      await page.goto(`${app.url}/dashboard/`);
      await page.getByRole('link', { name: 'Forgot your password?' }).click();
      await page.locator('#reset-email').waitFor();
      expect(await axeViolations(page)).toEqual({});
      await page.fill('#reset-email', person.email);
      await page.click('#reset-request-form button[type=submit]');
      await page.locator('.notice').waitFor();
      const mail = (await smtp.waitFor(1, (m) => m.subject === 'Reset your password'))[0]!;
      const link = /(http\S+reset-password\?token=qrreset_\w+)/.exec(mail.text!)![1]!;
      await page.goto(link);
      await page.fill('#reset-password', 'violet harbour engine 77');
      await page.click('#reset-form button[type=submit]');
      await page.getByRole('heading', { level: 1, name: 'Codes', exact: true }).waitFor();
    } finally {
      await guest.close();
    }
    expect((await person.request('GET', '/v1/session')).status).toBe(401);
    expect(unexpectedErrors()).toEqual([]);
  });

  it('manage members: invite by link, change a role, remove, revoke a pending invitation', async () => {
    const boss = await newUser(app, { email: 'boss@example.com' });
    const helper = await newUser(app, { accountId: boss.workspaceId, role: 'viewer', email: 'helper@example.com' });
    // A browser of its own: the shared one's cookie holds an earlier test's session, which the
    // dashboard finds again after a moment (a look for the Sign out button raced that, in CI).
    const own = await browser.newContext({ viewport: { width: 1280, height: 900 }, locale: 'en-US' });
    own.setDefaultTimeout(10_000);
    const page = await own.newPage();
    collectPageErrors(page, pageErrors);
    await page.goto(`${app.url}/dashboard/`);
    await page.fill('#email', boss.email);
    await page.fill('#password', STRONG_PASSWORD);
    await page.click('#password-form button[type=submit]');
    await page.getByRole('link', { name: 'Members' }).click();
    await page.locator('tr[data-member="helper@example.com"]').waitFor();
    expect(await axeViolations(page)).toEqual({});

    const helperRow = page.locator('tr[data-member="helper@example.com"]');
    await helperRow.locator('select').selectOption('editor');
    await expect
      .poll(async () => (await boss.request('GET', `/v1/workspaces/${boss.workspaceId}/members`)).body.data)
      .toContainEqual(expect.objectContaining({ user: expect.objectContaining({ id: helper.id }), role: 'editor' }));

    await page.fill('#invite-email', 'later@example.com');
    await page.selectOption('#invite-role', 'viewer');
    await page.click('#invite-member-form button[type=submit]');
    await page.locator('.notice', { hasText: '/dashboard/invite?token=qrinv_' }).waitFor();
    await page.getByRole('button', { name: 'Revoke the invitation for later@example.com' }).click();
    await expect
      .poll(async () => (await boss.request('GET', `/v1/workspaces/${boss.workspaceId}/invitations`)).body.data)
      .toEqual([]);

    // The helper's own row: which row comes last depends on the random user ids.
    await helperRow.getByRole('button', { name: /^Remove / }).click();
    await helperRow.waitFor({ state: 'detached' });
    await own.close();
    expect(unexpectedErrors()).toEqual([]);
  });

  it('a tab whose CSRF token went stale (signed in again in another tab) reads the session again', async () => {
    const person = await newUser(app, { email: 'two-tabs@example.com' });
    await codeOf(person, person.workspaceId, 'Two tabs poster');
    const browserOfOne = await browser.newContext({ viewport: { width: 1280, height: 900 }, locale: 'en-US' });
    try {
      const signInIn = async (page: Page) => {
        if (!page.url().includes('/dashboard')) await page.goto(`${app.url}/dashboard/`);
        await page.fill('#email', person.email);
        await page.fill('#password', STRONG_PASSWORD);
        await page.click('#password-form button[type=submit]');
        await page.getByRole('link', { name: 'Two tabs poster' }).waitFor();
      };
      const first = await browserOfOne.newPage();
      collectPageErrors(first, pageErrors);
      await signInIn(first);
      // A second tab finds the session, signs out and in again: the browser's cookie is now a new
      // session's, and the first tab's CSRF token the old one's.
      const second = await browserOfOne.newPage();
      await second.goto(`${app.url}/dashboard/`);
      await second.getByRole('button', { name: 'Sign out' }).click();
      await signInIn(second);
      await first.getByRole('link', { name: 'Analytics', exact: true }).click();
      await first.locator('[data-stat="total-scans"]').waitFor();
      expect(await first.locator('#email').count()).toBe(0);
    } finally {
      await browserOfOne.close();
    }
    // The first try of each request was refused (403, the stale token) before it was sent again.
    expect(pageErrors.filter((e) => !/status of (401|403|422)\b/.test(e))).toEqual([]);
  });
});
