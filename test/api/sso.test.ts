// Single sign-on with OpenID Connect, per workspace, against a real identity provider: a second
// oidc-provider on loopback (the company's), driven by fetch as a browser would be, with its
// cookies and redirects. Settings are owners' only and another workspace's are invisible.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getTestApp, type TestApp } from '../support/app.ts';
import { ssoSettingsFor, startIdp, throughIdp, type TestIdp } from '../support/oidc-idp.ts';
import { totpCode } from '../support/second-factor.ts';
import { asUser, newUser, type TestUser } from '../support/users.ts';

let app: TestApp;
let idp: TestIdp;
let owner: TestUser;
const DOMAIN = 'corp-sso.test';

beforeAll(async () => {
  app = await getTestApp({ ALLOW_PRIVATE_NETWORK_TARGETS: 'true', SIGN_IN_ATTEMPTS_PER_MINUTE: '1000' });
  idp = await startIdp(`${app.url}/v1/sso/callback`, { unverified: [`unverified@${DOMAIN}`] });
  owner = await newUser(app);
});
afterAll(async () => {
  await idp?.close();
  await app?.close();
});

const settings = (overrides: Record<string, unknown> = {}) => ssoSettingsFor(idp, DOMAIN, overrides);

/** A sign-in as a browser makes it: start, the provider, the callback. The service's last answer. */
async function signIn(email: string, options: { login?: string; tamper?: (url: URL) => void } = {}) {
  const start = await fetch(`${app.url}/v1/sso/start?email=${encodeURIComponent(email)}`, { redirect: 'manual' });
  expect(start.status).toBe(302);
  const location = start.headers.get('location')!;
  if (location.startsWith(app.url)) return { res: start, location };
  const stateCookie = start.headers
    .getSetCookie()
    .find((c) => c.startsWith('qr_sso_state='))!
    .split(';')[0]!;
  const callback = new URL(await throughIdp(location, options.login ?? email));
  expect(callback.href.startsWith(`${app.url}/v1/sso/callback`)).toBe(true);
  options.tamper?.(callback);
  const res = await fetch(callback, { redirect: 'manual', headers: { cookie: stateCookie } });
  expect(res.status).toBe(302);
  return { res, location: res.headers.get('location')! };
}

/** The session the callback started, as the dashboard reads it. */
async function sessionOf(res: Response) {
  const line = res.headers.getSetCookie().find((c) => c.startsWith('qr_session='));
  expect(line, 'a session cookie').toBeDefined();
  const token = /^qr_session=([^;]*)/.exec(line!)![1]!;
  const session = await app.request('GET', '/v1/session', { headers: { cookie: `qr_session=${token}` } });
  expect(session.status, session.text).toBe(200);
  return { token, body: session.body, request: asUser(app, token, session.body.csrf_token) };
}

describe('single sign-on settings', () => {
  it('an owner sets them; the secret is never answered; the audit log records it without the secret', async () => {
    const put = await owner.request('PUT', `/v1/workspaces/${owner.workspaceId}/sso`, { body: settings() });
    expect(put.status, put.text).toBe(200);
    expect(put.body).toMatchObject({
      object: 'sso_settings',
      issuer: idp.issuer,
      client_secret_set: true,
      domains: [DOMAIN],
      default_role: 'editor',
      redirect_uri: `${app.url}/v1/sso/callback`,
    });
    const got = await owner.request('GET', `/v1/workspaces/${owner.workspaceId}/sso`);
    expect(got.status).toBe(200);
    expect(got.text).not.toContain(idp.clientSecret);
    // Without the secret: the stored one is kept.
    const { client_secret: _, ...withoutSecret } = settings();
    const again = await owner.request('PUT', `/v1/workspaces/${owner.workspaceId}/sso`, { body: withoutSecret });
    expect(again.status, again.text).toBe(200);
    const audit = await owner.request('GET', '/v1/audit-log?action=sso.configured');
    expect(audit.body.data).toHaveLength(2);
    expect(audit.text).not.toContain(idp.clientSecret);
  });

  it('bad input is a 422 problem: issuer, owner as default role, no domains, the first secret missing', async () => {
    const other = await newUser(app);
    const path = `/v1/workspaces/${other.workspaceId}/sso`;
    const bad = await other.request('PUT', path, {
      body: settings({ issuer: 'not a url', default_role: 'owner', domains: [] }),
    });
    expect(bad.status).toBe(422);
    expect(bad.headers.get('content-type')).toContain('application/problem+json');
    expect(bad.body.errors.map((e: { path: string }) => e.path).sort()).toEqual(['default_role', 'domains', 'issuer']);
    const { client_secret: _, ...noSecret } = settings({ domains: ['other-sso.test'] });
    const missing = await other.request('PUT', path, { body: noSecret });
    expect(missing.status).toBe(422);
    expect(missing.body.errors).toEqual([{ path: 'client_secret', message: 'is needed the first time' }]);
  });

  it('a domain is one workspace’s at a time: 409', async () => {
    const other = await newUser(app);
    const res = await other.request('PUT', `/v1/workspaces/${other.workspaceId}/sso`, {
      body: settings({ domains: ['free-sso.test', DOMAIN] }),
    });
    expect(res.status, res.text).toBe(409);
    expect(res.body.detail).toContain(DOMAIN);
  });

  it('another workspace’s settings are a 404; a member who is not an owner gets 403', async () => {
    const stranger = await newUser(app);
    const path = `/v1/workspaces/${owner.workspaceId}/sso`;
    expect((await stranger.request('GET', path)).status).toBe(404);
    expect((await stranger.request('PUT', path, { body: settings() })).status).toBe(404);
    expect((await stranger.request('DELETE', path)).status).toBe(404);
    for (const role of ['admin', 'editor', 'viewer'] as const) {
      const member = await newUser(app, { accountId: owner.workspaceId, role });
      expect((await member.request('GET', path)).status).toBe(403);
      expect((await member.request('PUT', path, { body: settings() })).status).toBe(403);
      expect((await member.request('DELETE', path)).status).toBe(403);
    }
    const unchanged = await owner.request('GET', path);
    expect(unchanged.body.default_role).toBe('editor');
  });
});

describe('signing in through the provider', () => {
  it('a first sign-in makes the user and membership with the default role, without a second factor', async () => {
    const email = `ada@${DOMAIN}`;
    const { res, location } = await signIn(email);
    expect(location).toBe(`${app.url}/dashboard/`);
    const { body } = await sessionOf(res);
    expect(body.user.email).toBe(email);
    // The provider vouched for the email (email_verified): it is verified here too.
    expect(body.user.email_verified).toBe(true);
    expect(body.workspaces).toEqual([expect.objectContaining({ id: owner.workspaceId, role: 'editor' })]);
    const audit = await owner.request('GET', '/v1/audit-log?action=member.added');
    expect(audit.body.data[0]).toMatchObject({ object_id: body.user.id, summary: { role: 'editor', via: 'sso' } });

    // With a second factor of this service turned on, the provider is still the only factor asked.
    const first = await sessionOf(res);
    const enrolment = await first.request('POST', '/v1/users/me/second-factor');
    expect(enrolment.status, enrolment.text).toBe(201);
    const confirmed = await first.request('POST', '/v1/users/me/second-factor/confirm', {
      body: { code: totpCode(enrolment.body.secret) },
    });
    expect(confirmed.status, confirmed.text).toBe(200);

    // The second sign-in is the same user, and makes nobody new.
    const second = await sessionOf((await signIn(email.toUpperCase().replace('@CORP-SSO.TEST', `@${DOMAIN}`))).res);
    expect(second.body.user.id).toBe(body.user.id);
    const members = await owner.request('GET', `/v1/workspaces/${owner.workspaceId}/members?limit=200`);
    expect(members.body.data.filter((m: { user: { email: string } }) => m.user.email === email)).toHaveLength(1);
  });

  it('refuses an email the provider does not vouch for (email_verified false)', async () => {
    const { res, location } = await signIn(`unverified@${DOMAIN}`);
    expect(location).toBe(`${app.url}/dashboard/?sso_error=email_unverified`);
    expect(res.headers.getSetCookie().some((c) => c.startsWith('qr_session='))).toBe(false);
  });

  it('refuses someone the provider signs in with an email of a domain the settings do not cover', async () => {
    const { res, location } = await signIn(`grace@${DOMAIN}`, { login: 'grace@elsewhere.test' });
    expect(location).toBe(`${app.url}/dashboard/?sso_error=domain_not_covered`);
    expect(res.headers.getSetCookie().some((c) => c.startsWith('qr_session='))).toBe(false);
  });

  it('refuses a tampered state, and a state that is not this browser’s', async () => {
    const tampered = await signIn(`ada@${DOMAIN}`, {
      tamper: (url) => url.searchParams.set('state', `${url.searchParams.get('state')}x`),
    });
    expect(tampered.location).toBe(`${app.url}/dashboard/?sso_error=bad_state`);
    expect(tampered.res.headers.getSetCookie().some((c) => c.startsWith('qr_session='))).toBe(false);
    const forged = await fetch(`${app.url}/v1/sso/callback?code=abc&state=made-up`, { redirect: 'manual' });
    expect(forged.headers.get('location')).toBe(`${app.url}/dashboard/?sso_error=bad_state`);
  });

  it('sends an email without single sign-on, or a bad one, back to the sign-in page with the reason', async () => {
    expect((await signIn('someone@nowhere-sso.test')).location).toBe(`${app.url}/dashboard/?sso_error=not_configured`);
    const bad = await fetch(`${app.url}/v1/sso/start?email=nope`, { redirect: 'manual' });
    expect(bad.headers.get('location')).toBe(`${app.url}/dashboard/?sso_error=bad_email`);
    const idpError = await fetch(`${app.url}/v1/sso/callback?error=access_denied`, { redirect: 'manual' });
    expect(idpError.headers.get('location')).toBe(`${app.url}/dashboard/?sso_error=provider_error`);
  });

  it('does not take over a user who exists but is not a member of the workspace', async () => {
    await newUser(app, { email: `linus@${DOMAIN}` });
    const { location } = await signIn(`linus@${DOMAIN}`);
    expect(location).toBe(`${app.url}/dashboard/?sso_error=account_exists`);
  });

  it('stops signing in once disabled or removed', async () => {
    const path = `/v1/workspaces/${owner.workspaceId}/sso`;
    const { client_secret: _, ...rest } = settings();
    expect((await owner.request('PUT', path, { body: { ...rest, enabled: false } })).status).toBe(200);
    expect((await signIn(`ada@${DOMAIN}`)).location).toBe(`${app.url}/dashboard/?sso_error=not_configured`);
    expect((await owner.request('DELETE', path)).status).toBe(204);
    expect((await owner.request('GET', path)).status).toBe(404);
    const audit = await owner.request('GET', '/v1/audit-log?action=sso.removed');
    expect(audit.body.data).toHaveLength(1);
  });
});

describe('GraphQL', () => {
  const gql = (user: TestUser, query: string, variables?: Record<string, unknown>) =>
    user.request('POST', '/graphql', { body: { query, variables } });
  const set = `mutation($w: ID!, $i: SsoSettingsInput!) {
    setWorkspaceSso(workspaceId: $w, input: $i) { issuer domains defaultRole enabled redirectUri } }`;
  const get = 'query($w: ID!) { workspaceSso(workspaceId: $w) { clientId domains } }';

  it('an owner sets and reads the settings as REST does; others are refused; keys cannot', async () => {
    const mine = await newUser(app);
    const input = {
      issuer: idp.issuer,
      clientId: idp.clientId,
      clientSecret: idp.clientSecret,
      domains: ['Graph-SSO.test'],
      defaultRole: 'viewer',
      enabled: true,
    };
    expect((await gql(mine, get, { w: mine.workspaceId })).body.data).toEqual({ workspaceSso: null });
    const made = await gql(mine, set, { w: mine.workspaceId, i: input });
    expect(made.body.data?.setWorkspaceSso, made.text).toMatchObject({
      domains: ['graph-sso.test'],
      defaultRole: 'viewer',
    });
    const read = await gql(mine, get, { w: mine.workspaceId });
    expect(read.body.data.workspaceSso).toEqual({ clientId: idp.clientId, domains: ['graph-sso.test'] });
    expect(read.text).not.toContain(idp.clientSecret);

    const stranger = await newUser(app);
    const theirs = await gql(stranger, get, { w: mine.workspaceId });
    expect(theirs.body.errors?.[0]?.extensions).toMatchObject({ code: 'NOT_FOUND' });
    const viewer = await newUser(app, { accountId: mine.workspaceId, role: 'viewer' });
    const byViewer = await gql(viewer, set, { w: mine.workspaceId, i: input });
    expect(byViewer.body.errors?.[0]?.extensions).toMatchObject({ code: 'FORBIDDEN' });
    const taken = await gql(stranger, set, { w: stranger.workspaceId, i: input });
    expect(taken.body.errors?.[0]?.extensions).toMatchObject({ code: 'CONFLICT' });
    const bad = await gql(mine, set, { w: mine.workspaceId, i: { ...input, domains: ['not a domain'] } });
    expect(bad.body.errors?.[0]?.extensions).toMatchObject({ code: 'VALIDATION_FAILED' });
    const key = await app.newAccountKey();
    expect((await app.graphql(key, get, { w: mine.workspaceId })).body.errors?.[0]?.message).toContain('owners');
  });
});

describe('the issuer passes the SSRF check', () => {
  it('without ALLOW_PRIVATE_NETWORK_TARGETS a loopback, private or http:// issuer is a 422', async () => {
    const strict = await getTestApp();
    try {
      const someone = await newUser(strict);
      const path = `/v1/workspaces/${someone.workspaceId}/sso`;
      for (const issuer of [idp.issuer, 'https://10.0.0.8/realms/x', 'https://metadata.google.internal/']) {
        const res = await someone.request('PUT', path, { body: settings({ issuer, domains: ['ssrf-sso.test'] }) });
        expect(res.status, issuer).toBe(422);
        expect(res.body.errors[0].path).toBe('issuer');
      }
    } finally {
      await strict.close();
    }
  });
});
