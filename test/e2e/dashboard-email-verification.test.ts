// Email verification in the dashboard, in headless Chromium against the real app and a real SMTP
// server on loopback: the profile shows the address unverified, its button mails a link, opening
// the mailed link verifies it, and the profile then shows it verified. axe finds nothing on the
// link's page.
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getTestApp, type TestApp } from '../support/app.ts';
import { axeViolations } from '../support/axe.ts';
import { openDashboardBrowser, requireBuiltDashboard, signInWithPassword } from '../support/browser.ts';
import { startSmtpServer, type TestSmtpServer } from '../support/smtp-server.ts';
import { newUser, STRONG_PASSWORD } from '../support/users.ts';

let app: TestApp;
let smtp: TestSmtpServer;
let browser: Browser;
let page: Page;
const pageErrors: string[] = [];

beforeAll(async () => {
  requireBuiltDashboard();
  smtp = await startSmtpServer();
  app = await getTestApp({ SMTP_URL: smtp.url });
  ({ browser, page } = await openDashboardBrowser(pageErrors));
}, 60_000);

afterAll(async () => {
  await browser?.close();
  await app?.close();
  await smtp?.close();
});

describe('email verification in the dashboard', () => {
  it('profile → send a link → open the mailed link → verified', async () => {
    const person = await newUser(app, { email: 'verify-me@example.com' });
    await signInWithPassword(page, app.url, person.email, STRONG_PASSWORD);

    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Profile' }).click();
    await page.locator('#email-status', { hasText: 'Not verified' }).waitFor();
    await page.getByRole('button', { name: 'Send a verification link' }).click();
    await page.locator('.notice', { hasText: 'A link is on its way to verify-me@example.com' }).waitFor();

    const [mail] = await smtp.waitFor(1, (m) => m.subject === 'Verify your email address');
    const link = /(http\S+\/dashboard\/verify-email\?token=qrverify_\w+)/.exec(mail!.text!)![1]!;
    await page.goto(link);
    await page.locator('.notice', { hasText: 'verify-me@example.com is verified' }).waitFor();
    expect(await axeViolations(page)).toEqual({});

    await page.getByRole('link', { name: 'Go to your profile' }).click();
    await page.locator('#email-status strong', { hasText: /^Verified$/ }).waitFor();
    expect(await page.getByRole('button', { name: 'Send a verification link' }).count()).toBe(0);
    expect((await person.request('GET', '/v1/users/me')).body.email_verified).toBe(true);
    expect(pageErrors).toEqual([]);
  });
});
