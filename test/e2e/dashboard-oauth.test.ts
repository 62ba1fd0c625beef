// The dashboard's OAuth sign-in end to end, in headless Chromium: a public client registered
// through REST, the authorization code flow with PKCE from the sign-in page through the consent
// page and back to /dashboard/oauth/callback, the codes list loaded through /graphql with the
// access token; a refused token renewed with the refresh token; signing out revokes it.
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { decodeJwt } from 'jose';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getTestApp, type TestApp } from '../support/app.ts';
import { openDashboardBrowser, requireBuiltDashboard } from '../support/browser.ts';

const RESULTS = 'test-results';
const CREDENTIAL = 'qr-dashboard.credential';

let app: TestApp;
/** The developer's account, which registers the dashboard's public client. */
let developer: string;
/** The account that signs in: its owner approves on the consent page with this key. */
let userKey: string;
let clientId: string;
let codeId: string;
let browser: Browser;
let page: Page;
/** Console errors and uncaught exceptions of the pages, CSP refusals included. */
const pageErrors: string[] = [];
/** The Authorization header of every /graphql request the dashboard sent. */
const graphqlBearers: string[] = [];

beforeAll(async () => {
  requireBuiltDashboard();
  app = await getTestApp();
  developer = await app.newAccountKey('dashboard-oauth-developer');
  userKey = await app.newAccountKey('dashboard-oauth-user');
  const code = await app.request('POST', '/v1/codes', {
    key: userKey,
    body: { content: 'https://example.com/signed-in-with-oauth' },
  });
  expect(code.status, code.text).toBe(201);
  codeId = code.body.id;
  const client = await app.request('POST', '/v1/oauth-clients', {
    key: developer,
    body: {
      name: 'QR dashboard',
      scopes: ['codes:read', 'codes:write', 'analytics:read'],
      grant_types: ['authorization_code', 'refresh_token'],
      redirect_uris: [`${app.url}/dashboard/oauth/callback`],
      token_endpoint_auth_method: 'none',
    },
  });
  expect(client.status, client.text).toBe(201);
  expect(client.body).not.toHaveProperty('client_secret');
  clientId = client.body.client_id;

  mkdirSync(RESULTS, { recursive: true });
  ({ browser, page } = await openDashboardBrowser(pageErrors));
  page.on('request', (request) => {
    if (new URL(request.url()).pathname === '/graphql') graphqlBearers.push(request.headers().authorization ?? '');
  });
}, 60_000);

afterAll(async () => {
  await browser?.close();
  await app?.close();
});

interface StoredCredential {
  kind: string;
  token: string;
  refreshToken: string | null;
  clientId: string;
}

const storage = () =>
  page.evaluate(() => ({ session: { ...sessionStorage }, local: { ...localStorage }, cookie: document.cookie }));
const credential = async () => JSON.parse((await storage()).session[CREDENTIAL]!) as StoredCredential;
const setCredential = (value: StoredCredential) =>
  page.evaluate(([name, json]) => sessionStorage.setItem(name!, json!), [CREDENTIAL, JSON.stringify(value)]);
/** The browser logs each refused request; these tests ask for them. */
const takeUnauthorizedErrors = () => pageErrors.splice(0).filter((e) => !e.includes('401 (Unauthorized)'));

/** From the sign-in page through the consent page, approved with the user's key, back to the codes. */
async function signInWithOAuth(): Promise<void> {
  await page.fill('#oauth-client-id', clientId);
  await page.getByRole('button', { name: 'Sign in with OAuth' }).click();
  await page.waitForURL(/\/oauth\/interaction\/[\w-]+$/);
  expect(await page.title()).toBe('Authorize QR dashboard');
  for (const scope of ['codes:read', 'codes:write', 'analytics:read'])
    expect(await page.isChecked(`input[name=scope][value="${scope}"]`)).toBe(true);
  await page.fill('input[name=api_key]', userKey);
  await page.click('button[value=approve]');
  await page.waitForURL(`${app.url}/dashboard/codes`);
  await page.locator(`tr[data-code-id="${codeId}"]`).waitFor();
}

describe('OAuth sign-in on the dashboard', () => {
  it(
    'signs in through the consent page with PKCE, keeps the token in sessionStorage only, and lists the codes ' +
      'through /graphql',
    async () => {
      await page.goto(`${app.url}/dashboard/`);
      await page.getByRole('heading', { name: 'Sign in with OAuth' }).waitFor();
      expect(await page.textContent('.oauth-sign-in .hint')).toContain(`${app.url}/dashboard/oauth/callback`);
      await signInWithOAuth();
      await page.screenshot({ path: join(RESULTS, 'dashboard-oauth.png'), fullPage: true });

      // The code and state left the address bar; the token acts for the account that approved.
      expect(page.url()).toBe(`${app.url}/dashboard/codes`);
      const stored = await credential();
      expect(stored).toEqual({ kind: 'oauth', token: expect.any(String), refreshToken: expect.any(String), clientId });
      expect(decodeJwt(stored.token)).toMatchObject({
        client_id: clientId,
        scope: 'codes:read codes:write analytics:read',
        iss: `${app.url}/oauth`,
      });
      // In sessionStorage, and only the credential (the PKCE verifier and state are gone); in
      // localStorage only the client id, which is not a secret; no cookie the page can read.
      const { session, local, cookie } = await storage();
      expect(Object.keys(session)).toEqual([CREDENTIAL]);
      expect(local).toEqual({ 'qr-dashboard.oauth-client-id': clientId });
      expect(JSON.stringify(local)).not.toContain(stored.token);
      expect(JSON.stringify(local)).not.toContain(stored.refreshToken);
      expect(cookie).toBe('');
      // Every /graphql request carried the access token.
      expect(graphqlBearers.length).toBeGreaterThan(0);
      expect(new Set(graphqlBearers)).toEqual(new Set([`Bearer ${stored.token}`]));
      expect((await app.request('GET', `/v1/codes/${codeId}`, { key: stored.token })).status).toBe(200);
      expect(pageErrors).toEqual([]);
    },
  );

  it('renews a refused access token with the refresh token (rotated), and carries on', async () => {
    const before = await credential();
    // A token the server refuses, as it refuses one that expired: the signature no longer matches.
    const refused = `${before.token.slice(0, -6)}AAAAAA`;
    await setCredential({ ...before, token: refused });
    graphqlBearers.length = 0;
    await page.reload();
    await page.locator(`tr[data-code-id="${codeId}"]`).waitFor();
    const after = await credential();
    expect(after.token).not.toBe(before.token);
    expect(after.refreshToken).not.toBe(before.refreshToken);
    // Each /graphql request of the page (its codes, the account's tags) was refused once and sent
    // again with the one renewed token: a single refresh served them all (a second one, with the
    // spent refresh token, would have ended the sign-in).
    const refusals = graphqlBearers.filter((bearer) => bearer === `Bearer ${refused}`).length;
    expect(refusals).toBeGreaterThan(0);
    expect([...graphqlBearers].sort()).toEqual(
      [
        ...Array<string>(refusals).fill(`Bearer ${refused}`),
        ...Array<string>(refusals).fill(`Bearer ${after.token}`),
      ].sort(),
    );
    expect((await app.request('GET', '/v1/codes', { key: after.token })).status).toBe(200);
    expect(takeUnauthorizedErrors()).toEqual([]);
  });

  it('signs out with a message when the token is refused and there is no refresh token', async () => {
    const before = await credential();
    await setCredential({ ...before, token: `${before.token.slice(0, -6)}AAAAAA`, refreshToken: null });
    await page.reload();
    await page.getByText('the OAuth access token expired').waitFor();
    expect(await page.locator('.notice').innerText()).toMatch(/^Signed out: the OAuth access token expired/);
    expect((await storage()).session).toEqual({});
    expect(takeUnauthorizedErrors()).toEqual([]);
  });

  it('asks for the key again on the next sign-in, and signing out revokes the refresh token', async () => {
    // The client id is remembered in this browser.
    expect(await page.inputValue('#oauth-client-id')).toBe(clientId);
    await signInWithOAuth();
    const { refreshToken } = await credential();
    const introspect = async () =>
      (
        await app.request('POST', '/oauth/token/introspection', {
          rawBody: new URLSearchParams({ token: refreshToken!, client_id: clientId }).toString(),
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
        })
      ).body;
    expect(await introspect()).toMatchObject({ active: true, client_id: clientId });
    await page.click('text=Sign out');
    await page.getByRole('heading', { name: 'Sign in with OAuth' }).waitFor();
    expect((await storage()).session).toEqual({});
    await expect.poll(introspect).toEqual({ active: false });
    expect(pageErrors).toEqual([]);
  });

  it('refuses a callback this tab did not start, and a denied consent', async () => {
    await page.goto(`${app.url}/dashboard/oauth/callback?code=stolen&state=forged`);
    await page.getByText('This tab has no OAuth sign-in waiting to finish').waitFor();
    expect(new URL(page.url()).search).toBe('');

    await page.getByRole('link', { name: 'Back to the sign-in page' }).click();
    await page.fill('#oauth-client-id', clientId);
    await page.getByRole('button', { name: 'Sign in with OAuth' }).click();
    await page.waitForURL(/\/oauth\/interaction\/[\w-]+$/);
    await page.click('button[value=deny]');
    await page.waitForURL(/\/dashboard\/oauth\/callback$/);
    await page.getByText('The sign-in was denied on the consent page.').waitFor();
    expect((await storage()).session).toEqual({});

    await page.goto(`${app.url}/dashboard/`);
    await page.fill('#oauth-client-id', 'not a client');
    await page.getByRole('button', { name: 'Sign in with OAuth' }).click();
    await page.getByText('Enter the client id of an OAuth client').waitFor();
    expect(pageErrors).toEqual([]);
  });
});
