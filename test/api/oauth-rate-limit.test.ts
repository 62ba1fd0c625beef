// OAuth tokens are rate-limited per account and client: two accounts using one client each
// have their own count (it used to be one count per client id, shared by every account).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getTestApp, type TestApp } from '../support/app.ts';
import { basic, consent, cookieJar, pkce, postForm } from '../support/oauth.ts';

const REDIRECT_URI = 'http://127.0.0.1:9/callback';
let app: TestApp;
let client: { client_id: string; client_secret: string };

beforeAll(async () => {
  app = await getTestApp({ RATE_LIMIT_PER_MINUTE: '3' });
  const developer = await app.newAccountKey('rate-developer');
  const registered = await app.request('POST', '/v1/oauth-clients', {
    key: developer,
    body: {
      name: 'Shared app',
      scopes: ['codes:read'],
      grant_types: ['authorization_code'],
      redirect_uris: [REDIRECT_URI],
    },
  });
  expect(registered.status, registered.text).toBe(201);
  client = registered.body;
});
afterAll(() => app.close());

/** An access token of `client` for the account that owns `userKey`, through consent. */
async function tokenFor(userKey: string): Promise<string> {
  const { verifier, challenge } = pkce();
  const jar = cookieJar();
  const query = new URLSearchParams({
    client_id: client.client_id,
    response_type: 'code',
    redirect_uri: REDIRECT_URI,
    scope: 'codes:read',
    state: 's',
    code_challenge: challenge,
    code_challenge_method: 'S256',
  });
  const start = await fetch(`${app.url}/oauth/auth?${query}`, { redirect: 'manual' });
  jar.take(start.headers);
  const { final } = await consent(app.url, jar, new URL(start.headers.get('location')!, app.url), [
    ['api_key', userKey],
    ['scope', 'codes:read'],
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
  expect(tokens.status, tokens.text).toBe(200);
  return tokens.body.access_token;
}

describe('OAuth rate limits', () => {
  it('count per account and client: one account spending its calls leaves another its own', async () => {
    const first = await tokenFor(await app.newAccountKey('rate-user-1'));
    const second = await tokenFor(await app.newAccountKey('rate-user-2'));
    for (let i = 0; i < 3; i++) expect((await app.request('GET', '/v1/codes', { key: first })).status).toBe(200);
    expect((await app.request('GET', '/v1/codes', { key: first })).status).toBe(429);
    const other = await app.request('GET', '/v1/codes', { key: second });
    expect(other.status).toBe(200);
    expect(other.headers.get('ratelimit-remaining')).toBe('2');
  });
});
