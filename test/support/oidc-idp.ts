// A company's identity provider for single sign-on tests: a second oidc-provider on loopback,
// with its development login form (any login and password; the login is the person's email) and
// consent page. Emails are verified unless listed in `unverified`.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import Provider from 'oidc-provider';
import { expect } from 'vitest';
import { cookieJar } from './oauth.ts';

export interface TestIdp {
  issuer: string;
  clientId: string;
  clientSecret: string;
  close(): Promise<void>;
}

export async function startIdp(redirectUri: string, options: { unverified?: string[] } = {}): Promise<TestIdp> {
  const unverified = new Set(options.unverified ?? []);
  let handle: (req: IncomingMessage, res: ServerResponse) => void = (_req, res) => res.end();
  const server = createServer((req, res) => handle(req, res));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const clientId = 'qr-service-sso';
  const clientSecret = 'idp-client-secret-for-tests-only';
  const provider = new Provider(issuer, {
    clients: [{ client_id: clientId, client_secret: clientSecret, redirect_uris: [redirectUri] }],
    claims: { openid: ['sub'], email: ['email', 'email_verified'], profile: ['name'] },
    cookies: { keys: ['idp-cookie-key-for-tests-only'] },
    pkce: { required: () => true },
    findAccount: (_ctx: unknown, id: string) => ({
      accountId: id,
      claims: () => ({ sub: id, email: id, email_verified: !unverified.has(id), name: `SSO ${id.split('@')[0]}` }),
    }),
  });
  handle = provider.callback();
  return {
    issuer,
    clientId,
    clientSecret,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** The body of PUT /v1/workspaces/:id/sso for this provider, covering `domain`, as editors join. */
export const ssoSettingsFor = (idp: TestIdp, domain: string, overrides: Record<string, unknown> = {}) => ({
  issuer: idp.issuer,
  client_id: idp.clientId,
  client_secret: idp.clientSecret,
  domains: [domain],
  default_role: 'editor',
  enabled: true,
  ...overrides,
});

/**
 * A browser's way through the provider, by fetch: from the authorization URL, the login form
 * posted as `login`, the consent given, until the provider redirects back to the service.
 * Returns the URL it sends the browser to.
 */
export async function throughIdp(authorizationUrl: string, login: string): Promise<string> {
  const jar = cookieJar();
  let url = authorizationUrl;
  let res = await fetch(url, { redirect: 'manual' });
  for (let hop = 0; hop < 12; hop++) {
    jar.take(res.headers);
    if (res.status >= 300 && res.status < 400) {
      const next = new URL(res.headers.get('location')!, url);
      if (next.origin !== new URL(authorizationUrl).origin) return next.href;
      url = next.href;
      res = await fetch(url, { redirect: 'manual', headers: { cookie: jar.header() } });
      continue;
    }
    const html = await res.text();
    expect(res.status, html).toBe(200);
    const action = /<form[^>]*action="([^"]+)"/.exec(html)![1]!;
    const fields: Record<string, string> = html.includes('name="login"')
      ? { prompt: 'login', login, password: 'any' }
      : { prompt: 'consent' };
    url = new URL(action, url).href;
    res = await fetch(url, {
      method: 'POST',
      redirect: 'manual',
      headers: { cookie: jar.header(), 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams(fields),
    });
  }
  throw new Error('the identity provider never sent the browser back');
}
