// Contract: every operation of people (sign-in, sessions, profile, password) and of workspaces
// and members (setup included), success and error, validated against the served document.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../support/app.ts';
import { contractClient, startContractApp, type Contract } from '../support/contract.ts';
import { startSmtpServer, type TestSmtpServer } from '../support/smtp-server.ts';
import { totpCode } from '../support/second-factor.ts';
import { softAuthenticator } from '../support/authenticator.ts';
import { newUser, sessionCookieOf, STRONG_PASSWORD, type TestUser } from '../support/users.ts';

let app: TestApp;
let contract: Contract;
let call: ReturnType<typeof contractClient>;
let owner: TestUser;
let smtp: TestSmtpServer;

beforeAll(async () => {
  smtp = await startSmtpServer();
  // Every sign-in here (password, code, passkey, invitation) comes from 127.0.0.1: more than the
  // default per-address limit allows in a minute, which test/api/ checks on its own.
  ({ app, contract, call } = await startContractApp({ SMTP_URL: smtp.url, SIGN_IN_ATTEMPTS_PER_MINUTE: '1000' }));
  owner = await newUser(app);
});
afterAll(async () => {
  await app.close();
  await smtp.close();
});

/** The headers of a signed-in request (session cookie, CSRF token, optionally the workspace). */
const as = (user: TestUser, extra: Record<string, string> = {}) => ({
  headers: { cookie: `qr_session=${user.token}`, 'x-csrf-token': user.csrf, ...extra },
});

describe('sessions and users', { timeout: 60_000 }, () => {
  it('sign in: 201 with the cookie, 401, 422, 429 is declared', async () => {
    const signedIn = await call('POST', '/v1/sessions', { body: { email: owner.email, password: STRONG_PASSWORD } });
    expect(signedIn.status, signedIn.text).toBe(201);
    sessionCookieOf(signedIn);
    const wrong = await call('POST', '/v1/sessions', { body: { email: owner.email, password: 'wrong one here' } });
    expect(wrong.status).toBe(401);
    expect((await call('POST', '/v1/sessions', { body: { email: owner.email } })).status).toBe(422);
  });

  it('the current session, the list, revoking one, signing out: 200, 204, 401, 404', async () => {
    const person = await newUser(app);
    expect((await call('GET', '/v1/session', as(person))).status).toBe(200);
    expect((await call('GET', '/v1/session')).status).toBe(401);
    const list = await call('GET', '/v1/sessions', as(person));
    expect(list.status).toBe(200);
    expect((await call('GET', '/v1/sessions')).status).toBe(401);
    expect((await call('DELETE', '/v1/sessions/sess_00000000000000000000', as(person))).status).toBe(404);
    const other = await newUser(app);
    expect((await call('DELETE', `/v1/sessions/${list.body.data[0].id}`, as(other))).status).toBe(404);
    expect((await call('DELETE', '/v1/session', as(person, { 'x-csrf-token': 'wrong' }))).status).toBe(403);
    expect((await call('DELETE', '/v1/session', as(person))).status).toBe(204);
    expect((await call('DELETE', `/v1/sessions/${list.body.data[0].id}`, as(person))).status).toBe(401);
    const again = await newUser(app);
    const mine = (await call('GET', '/v1/sessions', as(again))).body.data[0].id;
    expect((await call('DELETE', `/v1/sessions/${mine}`, as(again))).status).toBe(204);
  });

  it('profile and password: 200, 204, 401, 422', async () => {
    const person = await newUser(app);
    expect((await call('GET', '/v1/users/me', as(person))).status).toBe(200);
    expect((await call('GET', '/v1/users/me')).status).toBe(401);
    expect((await call('PATCH', '/v1/users/me', { ...as(person), body: { display_name: 'Grace' } })).status).toBe(200);
    expect((await call('PATCH', '/v1/users/me', { ...as(person), body: { display_name: 7 } })).status).toBe(422);
    const weak = { current_password: STRONG_PASSWORD, new_password: 'password1' };
    expect((await call('POST', '/v1/users/me/password', { ...as(person), body: weak })).status).toBe(422);
    const strong = { current_password: STRONG_PASSWORD, new_password: 'violet harbour engine 77' };
    expect((await call('POST', '/v1/users/me/password', { ...as(person), body: strong })).status).toBe(204);
  });

  it('password reset: 201, 202, 401, 422', async () => {
    const person = await newUser(app, { email: 'contract-reset@example.com' });
    expect((await call('POST', '/v1/password-resets', { body: { email: person.email } })).status).toBe(202);
    expect((await call('POST', '/v1/password-resets', { body: { email: 'nope' } })).status).toBe(422);
    const mail = (await smtp.waitFor(1, (m) => m.subject === 'Reset your password'))[0]!;
    const token = /token=(qrreset_\w+)/.exec(mail.text!)![1]!;
    const reset = (body: Record<string, unknown>) => call('POST', '/v1/password-resets/complete', { body });
    expect((await reset({ token, password: 'password1' })).status).toBe(422);
    expect((await reset({ token, password: 'violet harbour engine 77' })).status).toBe(201);
    expect((await reset({ token, password: 'violet harbour engine 77' })).status).toBe(401);
  });

  it('email verification: 200, 202, 401, 409, 422', async () => {
    const person = await newUser(app, { email: 'contract-verify@example.com' });
    const ask = () => call('POST', '/v1/users/me/email-verification', as(person));
    expect((await ask()).status).toBe(202);
    expect((await call('POST', '/v1/users/me/email-verification')).status).toBe(401);
    const mail = (await smtp.waitFor(1, (m) => m.subject === 'Verify your email address'))[0]!;
    const token = /token=(qrverify_\w+)/.exec(mail.text!)![1]!;
    const confirm = (body: Record<string, unknown>) => call('POST', '/v1/email-verification/confirm', { body });
    expect((await confirm({ token: 12 })).status).toBe(422);
    expect((await confirm({ token })).status).toBe(200);
    expect((await confirm({ token })).status).toBe(401);
    expect((await ask()).status).toBe(409);
  });

  it('second factor, from setting it up to signing in with it: 200, 201, 204, 401, 409, 422', async () => {
    const person = await newUser(app);
    const at = (path: string, body?: unknown) => call('POST', path, { ...as(person), body });
    expect((await call('GET', '/v1/users/me/second-factor', as(person))).status).toBe(200);
    expect((await call('GET', '/v1/users/me/second-factor')).status).toBe(401);
    expect((await at('/v1/users/me/second-factor/confirm', { code: '123456' })).status).toBe(409);
    const begun = await at('/v1/users/me/second-factor');
    expect(begun.status, begun.text).toBe(201);
    expect((await at('/v1/users/me/second-factor/confirm', { code: 12 })).status).toBe(422);
    expect((await at('/v1/users/me/second-factor/recovery-codes', { password: STRONG_PASSWORD })).status).toBe(409);
    const code = totpCode(begun.body.secret);
    expect((await at('/v1/users/me/second-factor/confirm', { code })).status).toBe(200);
    expect((await at('/v1/users/me/second-factor')).status).toBe(409);
    expect((await at('/v1/users/me/second-factor/recovery-codes', { password: 'wrong one here' })).status).toBe(422);
    const renewed = await at('/v1/users/me/second-factor/recovery-codes', { password: STRONG_PASSWORD });
    expect(renewed.status).toBe(201);

    const challenged = await call('POST', '/v1/sessions', { body: { email: person.email, password: STRONG_PASSWORD } });
    expect(challenged.status).toBe(401);
    const { challenge } = challenged.body;
    const second = (body: Record<string, unknown>) => call('POST', '/v1/sessions/second-factor', { body });
    expect((await second({ challenge })).status).toBe(422);
    expect((await second({ challenge, code: 'aaaa-bbbb-cccc-dddd' })).status).toBe(401);
    expect((await second({ challenge, code: renewed.body.codes[0] })).status).toBe(201);

    expect((await at('/v1/users/me/second-factor/disable', { password: 'wrong one here' })).status).toBe(422);
    expect((await at('/v1/users/me/second-factor/disable', { password: STRONG_PASSWORD })).status).toBe(204);
  });

  it('passkeys, from registering to signing in and deleting: 200, 201, 204, 401, 404, 409, 422', async () => {
    const person = await newUser(app);
    const device = softAuthenticator(app.url);
    const at = (method: string, path: string, body?: unknown) => call(method, path, { ...as(person), body });
    const registration = await at('POST', '/v1/users/me/passkeys/options');
    expect(registration.status, registration.text).toBe(200);
    expect((await call('POST', '/v1/users/me/passkeys/options')).status).toBe(401);
    const { credential, response } = device.register(registration.body.options);
    expect((await at('POST', '/v1/users/me/passkeys', { name: 'Laptop' })).status).toBe(422);
    const made = await at('POST', '/v1/users/me/passkeys', { name: 'Laptop', response });
    expect(made.status, made.text).toBe(201);
    expect((await at('POST', '/v1/users/me/passkeys', { name: 'Laptop', response })).status).toBe(409);
    expect((await at('GET', '/v1/users/me/passkeys')).status).toBe(200);
    expect((await call('GET', '/v1/users/me/passkeys')).status).toBe(401);
    const path = `/v1/users/me/passkeys/${made.body.id}`;
    expect((await at('PATCH', path, { name: 'Work' })).status).toBe(200);
    expect((await at('PATCH', path, { name: '' })).status).toBe(422);
    expect((await at('PATCH', '/v1/users/me/passkeys/pk_00000000000000000000', { name: 'x' })).status).toBe(404);

    const options = async () => (await call('POST', '/v1/sessions/passkey/options', { body: {} })).body.options;
    expect((await call('POST', '/v1/sessions/passkey/options', { body: { email: 7 } })).status).toBe(422);
    const signIn = (body: unknown) => call('POST', '/v1/sessions/passkey', { body });
    const assertion = device.assert(credential, await options());
    expect((await signIn({ response: assertion })).status).toBe(201);
    expect((await signIn({ response: assertion })).status).toBe(401);
    expect((await signIn({})).status).toBe(422);

    expect((await at('POST', `${path}/delete`, { password: 'wrong one here' })).status).toBe(422);
    expect((await at('POST', '/v1/users/me/passkeys/pk_00000000000000000000/delete', { password: 'x' })).status).toBe(
      404,
    );
    expect((await at('POST', `${path}/delete`, { password: STRONG_PASSWORD })).status).toBe(204);
  });

  it('walked every operation of people', () => contract.expectTagCovered('Sessions and users'));
});

describe('workspaces and members', { timeout: 60_000 }, () => {
  it('setup: 201, 401 for a used token, 409 for a taken email, 422', async () => {
    const { token } = await app.services.setup.issueToken();
    const body = { token, email: 'contract-owner@example.com', display_name: 'C', password: STRONG_PASSWORD };
    expect((await call('POST', '/v1/setup', { body })).status).toBe(201);
    expect((await call('POST', '/v1/setup', { body })).status).toBe(401);
    const fresh = (await app.services.setup.issueToken()).token;
    expect((await call('POST', '/v1/setup', { body: { ...body, token: fresh } })).status).toBe(409);
    expect((await call('POST', '/v1/setup', { body: { token: fresh } })).status).toBe(422);
  });

  it('workspaces: list, create, get, rename: 200, 201, 403, 404, 422', async () => {
    expect((await call('GET', '/v1/workspaces', as(owner))).status).toBe(200);
    expect((await call('GET', '/v1/workspaces?limit=0', as(owner))).status).toBe(422);
    const created = await call('POST', '/v1/workspaces', { ...as(owner), body: { name: 'Contract' } });
    expect(created.status, created.text).toBe(201);
    expect(created.headers.get('location')).toBe(`/v1/workspaces/${created.body.id}`);
    expect((await call('POST', '/v1/workspaces', { ...as(owner), body: { name: '' } })).status).toBe(422);
    expect((await call('GET', `/v1/workspaces/${created.body.id}`, as(owner))).status).toBe(200);
    const stranger = await newUser(app);
    expect((await call('GET', `/v1/workspaces/${created.body.id}`, as(stranger))).status).toBe(404);
    const renamed = await call('PATCH', `/v1/workspaces/${created.body.id}`, { ...as(owner), body: { name: 'C2' } });
    expect(renamed.status).toBe(200);
    expect(
      (await call('PATCH', `/v1/workspaces/${created.body.id}`, { ...as(stranger), body: { name: 'x' } })).status,
    ).toBe(404);
    expect((await call('PATCH', `/v1/workspaces/${created.body.id}`, { ...as(owner), body: { name: 1 } })).status).toBe(
      422,
    );
  });

  it('members: list, change a role, remove: 200, 204, 403, 404, 409, 422', async () => {
    const ws = owner.workspaceId;
    const editor = await newUser(app, { accountId: ws, role: 'editor' });
    expect((await call('GET', `/v1/workspaces/${ws}/members`, as(owner))).status).toBe(200);
    expect((await call('GET', `/v1/workspaces/${ws}/members?cursor=x`, as(owner))).status).toBe(422);
    expect((await call('GET', '/v1/workspaces/acct_00000000000000000000/members', as(owner))).status).toBe(404);
    const path = `/v1/workspaces/${ws}/members/${editor.id}`;
    expect((await call('PATCH', path, { ...as(owner), body: { role: 'viewer' } })).status).toBe(200);
    expect((await call('PATCH', path, { ...as(owner), body: { role: 'boss' } })).status).toBe(422);
    expect((await call('PATCH', path, { ...as(editor), body: { role: 'owner' } })).status).toBe(403);
    const self = `/v1/workspaces/${ws}/members/${owner.id}`;
    expect((await call('PATCH', self, { ...as(owner), body: { role: 'viewer' } })).status).toBe(409);
    expect((await call('DELETE', self, as(owner))).status).toBe(409);
    expect((await call('DELETE', `/v1/workspaces/${ws}/members/user_00000000000000000000`, as(owner))).status).toBe(
      404,
    );
    expect((await call('DELETE', path, as(owner))).status).toBe(204);
  });

  it('invitations, from inviting to accepting: 200, 201, 204, 401, 403, 404, 409, 422', async () => {
    const ws = owner.workspaceId;
    const base = `/v1/workspaces/${ws}/invitations`;
    const tokenOf = (link: string) => new URL(link).searchParams.get('token')!;
    const made = await call('POST', base, { ...as(owner), body: { email: 'invited@example.com', role: 'viewer' } });
    expect(made.status, made.text).toBe(201);
    expect((await call('POST', base, { ...as(owner), body: { role: 'boss' } })).status).toBe(422);
    const viewer = await newUser(app, { accountId: ws, role: 'viewer' });
    expect((await call('POST', base, { ...as(viewer), body: { role: 'viewer' } })).status).toBe(403);
    expect((await call('POST', base, { ...as(owner), body: { email: viewer.email, role: 'viewer' } })).status).toBe(
      409,
    );
    expect(
      (
        await call('POST', '/v1/workspaces/acct_00000000000000000000/invitations', {
          ...as(owner),
          body: { role: 'viewer' },
        })
      ).status,
    ).toBe(404);
    expect((await call('GET', base, as(owner))).status).toBe(200);
    expect((await call('GET', '/v1/workspaces/acct_00000000000000000000/invitations', as(owner))).status).toBe(404);

    const token = tokenOf(made.body.link);
    expect((await call('POST', '/v1/invitations/preview', { body: { token } })).status).toBe(200);
    expect((await call('POST', '/v1/invitations/preview', { body: { token: 'qrinv_nope' } })).status).toBe(401);
    expect((await call('POST', '/v1/invitations/preview', { body: {} })).status).toBe(422);
    const register = (body: Record<string, unknown>) => call('POST', '/v1/invitations/register', { body });
    expect((await register({ token })).status).toBe(422);
    expect((await register({ token: 'qrinv_nope', display_name: 'N', password: STRONG_PASSWORD })).status).toBe(401);
    const joined = await register({ token, display_name: 'Invited', password: STRONG_PASSWORD });
    expect(joined.status, joined.text).toBe(201);
    const taken = await call('POST', base, { ...as(owner), body: { role: 'viewer' } });
    const clash = await register({
      token: tokenOf(taken.body.link),
      email: 'invited@example.com',
      display_name: 'Again',
      password: STRONG_PASSWORD,
    });
    expect(clash.status).toBe(409);

    const byLink = await call('POST', base, { ...as(owner), body: { role: 'editor' } });
    const accept = (user: TestUser, body: Record<string, unknown>) =>
      call('POST', '/v1/invitations/accept', { ...as(user), body });
    const stranger = await newUser(app);
    expect((await accept(stranger, { token: tokenOf(byLink.body.link) })).status).toBe(200);
    expect((await accept(stranger, { token: tokenOf(taken.body.link) })).status).toBe(409);
    expect((await accept(stranger, { token: 'qrinv_nope' })).status).toBe(401);
    expect((await accept(stranger, {})).status).toBe(422);

    expect((await call('DELETE', `${base}/${taken.body.id}`, as(owner))).status).toBe(204);
    expect((await call('DELETE', `${base}/${taken.body.id}`, as(owner))).status).toBe(404);
  });

  it('single sign-on: settings 200, 204, 403, 404, 409, 422; the sign-in’s redirects 302', async () => {
    const ws = owner.workspaceId;
    const path = `/v1/workspaces/${ws}/sso`;
    const body = {
      issuer: 'https://login.example.com/realms/staff',
      client_id: 'qr',
      client_secret: 'secret',
      domains: ['contract-sso.example'],
      default_role: 'viewer',
      enabled: true,
    };
    expect((await call('GET', path, as(owner))).status).toBe(404);
    expect((await call('PUT', path, { ...as(owner), body })).status).toBe(200);
    expect((await call('PUT', path, { ...as(owner), body: { ...body, default_role: 'owner' } })).status).toBe(422);
    expect((await call('GET', path, as(owner))).status).toBe(200);
    const viewer = await newUser(app, { accountId: ws, role: 'viewer' });
    expect((await call('GET', path, as(viewer))).status).toBe(403);
    const other = await newUser(app);
    expect((await call('PUT', `/v1/workspaces/${other.workspaceId}/sso`, { ...as(other), body })).status).toBe(409);
    const start = await call('GET', '/v1/sso/start?email=someone%40nowhere.example');
    expect(start.status).toBe(302);
    expect((await call('GET', '/v1/sso/callback?state=nope&code=x')).status).toBe(302);
    expect((await call('DELETE', path, as(owner))).status).toBe(204);
    expect((await call('DELETE', path, as(owner))).status).toBe(404);
  });

  it('walked every operation of workspaces', () => contract.expectTagCovered('Workspaces and members'));
});
