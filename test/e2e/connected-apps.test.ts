// The dashboard's Connected apps page in headless Chromium: the grant an account gave an OAuth
// client (through the real consent page), shown with its scopes and approving key, revoked after
// a confirmation; REST then lists no grant and the client's access token is refused. A key
// without keys:manage is told what it needs instead.
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getTestApp, type TestApp } from '../support/app.ts';
import { openDashboardBrowser, requireBuiltDashboard } from '../support/browser.ts';
import { authorize, basic, consent, pkce, postForm } from '../support/oauth.ts';

const REDIRECT_URI = 'http://127.0.0.1:9/callback';

let app: TestApp;
let browser: Browser;
let page: Page;
let owner: { key: string; keyId: string };
let accessToken: string;
const pageErrors: string[] = [];

beforeAll(async () => {
  requireBuiltDashboard();
  app = await getTestApp();
  const developer = await app.newAccountKey('apps-developer');
  const client = (
    await app.request('POST', '/v1/oauth-clients', {
      key: developer,
      body: {
        name: 'Acme Reports',
        scopes: ['codes:read', 'analytics:read'],
        grant_types: ['authorization_code'],
        redirect_uris: [REDIRECT_URI],
      },
    })
  ).body;
  owner = await app.services.accounts.issueKey('apps-owner');
  const { verifier, challenge } = pkce();
  const { jar, consentUrl } = await authorize(app.url, {
    clientId: client.client_id,
    scope: 'codes:read analytics:read',
    challenge,
    redirectUri: REDIRECT_URI,
  });
  const { final } = await consent(app.url, jar, consentUrl, [
    ['api_key', owner.key],
    ['scope', 'codes:read'],
    ['scope', 'analytics:read'],
    ['decision', 'approve'],
  ]);
  const tokens = await postForm(
    `${app.url}/oauth/token`,
    {
      grant_type: 'authorization_code',
      code: final!.searchParams.get('code')!,
      redirect_uri: REDIRECT_URI,
      code_verifier: verifier,
    },
    { authorization: basic(client.client_id, client.client_secret) },
  );
  accessToken = tokens.body.access_token;

  mkdirSync('test-results', { recursive: true });
  ({ browser, page } = await openDashboardBrowser(pageErrors));
}, 60_000);

afterAll(async () => {
  await browser?.close();
  await app?.close();
});

async function signIn(key: string) {
  await page.goto(`${app.url}/dashboard/`);
  await page.fill('#api-key', key);
  await page.click('#api-key-form button[type=submit]');
  await page.getByRole('link', { name: 'Connected apps' }).click();
}

describe('Connected apps in Chromium', () => {
  it('tells a key without keys:manage what it needs', async () => {
    const { key } = await app.services.accounts.issueKey('apps-owner', { scopes: ['codes:read'] });
    await signIn(key);
    await page.getByText('Sign in with a key that has the keys:manage scope').waitFor();
    await page.getByRole('button', { name: 'Sign out' }).click();
    // The refused GraphQL call answers 200 with a FORBIDDEN error: nothing in the console.
    expect(pageErrors).toEqual([]);
  });

  it('lists the grant, revokes it after confirming, and the client is cut off', async () => {
    await signIn(owner.key);
    const row = page.locator('tr[data-grant-id]');
    await row.waitFor();
    const cells = await row.locator('td').allInnerTexts();
    expect(cells.slice(0, 3).map((cell) => cell.trim())).toEqual([
      'Acme Reports',
      'codes:read analytics:read',
      owner.keyId,
    ]);
    await page.screenshot({ path: join('test-results', 'dashboard-connected-apps.png'), fullPage: true });
    expect((await app.request('GET', '/v1/codes', { key: accessToken })).status).toBe(200);

    await row.getByRole('button', { name: 'Revoke' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByText('Revoke Acme Reports?').waitFor();
    // Cancelling changes nothing.
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    expect((await app.request('GET', '/v1/oauth-grants', { key: owner.key })).body.data).toHaveLength(1);
    await row.getByRole('button', { name: 'Revoke' }).click();
    await dialog.getByRole('button', { name: 'Revoke access' }).click();
    await page.getByText('Acme Reports can no longer act for this account.').waitFor();
    await page.getByText('No app is connected to this account.').waitFor();

    expect((await app.request('GET', '/v1/oauth-grants', { key: owner.key })).body.data).toEqual([]);
    expect((await app.request('GET', '/v1/codes', { key: accessToken })).status).toBe(401);
    expect(pageErrors).toEqual([]);
  });
});
