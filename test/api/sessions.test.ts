// Signing in with a password and the session cookie: the cookie's flags, no fixation, the same
// answer for an unknown email and a wrong password, the per-email and per-address limits, CSRF
// on cookie writes (REST and GraphQL), signing out, the session list and revoking, the password
// change ending other sessions, the setup token used once, and bearer keys unaffected.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sessionCookie } from '../../src/http/session-cookie.ts';
import { getTestApp, type TestApp } from '../support/app.ts';
import { asUser, newUser, sessionCookieOf, STRONG_PASSWORD, type TestUser } from '../support/users.ts';

let app: TestApp;
let owner: TestUser;

beforeAll(async () => {
  app = await getTestApp();
  owner = await newUser(app);
});
afterAll(() => app.close());

const signIn = (email: string, password: string, headers: Record<string, string> = {}) =>
  app.request('POST', '/v1/sessions', { body: { email, password }, headers });

describe('signing in', { timeout: 60_000 }, () => {
  it('sets an HttpOnly, SameSite=Lax cookie for / and answers the user, workspaces and CSRF token', async () => {
    const res = await signIn(owner.email.toUpperCase(), STRONG_PASSWORD);
    expect(res.status, res.text).toBe(201);
    const { line, token } = sessionCookieOf(res);
    expect(line).toContain('HttpOnly');
    expect(line).toContain('SameSite=Lax');
    expect(line).toContain('Path=/');
    expect(line).toContain(`Max-Age=${90 * 86_400}`);
    // Plain http on 127.0.0.1: a development machine, so not Secure.
    expect(line).not.toContain('Secure');
    expect(token).toMatch(/^qrs_/);
    // Its script-readable companion holds nothing but the fact (the dashboard asks for the session only then).
    const hint = res.headers.getSetCookie().find((c) => c.startsWith('qr_signed_in='));
    expect(hint).toBe(`qr_signed_in=1; Max-Age=${90 * 86_400}; Path=/; SameSite=Lax`);
    expect(res.body).toMatchObject({
      object: 'signed_in',
      user: { id: owner.id, email: owner.email },
      workspaces: [{ id: owner.workspaceId, object: 'workspace', role: 'owner' }],
      session: { current: true },
    });
    expect(res.body.csrf_token).toEqual(expect.any(String));
    expect(JSON.stringify(res.body)).not.toContain(token);
  });

  it('marks the cookie Secure unless served over plain http on the loopback', () => {
    const flags = (base: string) => {
      const headers: string[] = [];
      sessionCookie(base).set({ append: (_: string, v: string) => headers.push(v) } as never, 'x', 1);
      return headers[0]!;
    };
    expect(flags('https://qr.example.com')).toContain('; Secure');
    expect(flags('http://qr.example.com')).toContain('; Secure');
    expect(flags('http://localhost:3000')).not.toContain('Secure');
    expect(flags('http://[::1]:3000')).not.toContain('Secure');
  });

  it('issues a fresh session even when a cookie is sent along (no fixation)', async () => {
    const res = await signIn(owner.email, STRONG_PASSWORD, { cookie: `qr_session=${owner.token}` });
    expect(res.status, res.text).toBe(201);
    expect(sessionCookieOf(res).token).not.toBe(owner.token);
    expect(res.body.session.id).not.toBe((await owner.request('GET', '/v1/session')).body.session.id);
  });

  it('answers an unknown email and a wrong password alike', async () => {
    const wrong = await signIn(owner.email, 'not the password at all');
    const unknown = await signIn('nobody-here@example.com', 'not the password at all');
    expect(wrong.status).toBe(401);
    expect(unknown.status).toBe(401);
    const strip = ({ request_id: _r, instance: _i, ...rest }: Record<string, unknown>) => rest;
    expect(strip(unknown.body)).toEqual(strip(wrong.body));
    expect(wrong.headers.get('set-cookie')).toBeNull();
  });

  it('refuses a malformed body with a 422 that changes nothing', async () => {
    const res = await app.request('POST', '/v1/sessions', { body: { email: owner.email } });
    expect(res.status).toBe(422);
    expect(res.headers.get('content-type')).toContain('application/problem+json');
  });
});

describe('the sign-in limit', { timeout: 60_000 }, () => {
  it('answers 429 with Retry-After past the attempts a minute, per email and per address', async () => {
    const limited = await getTestApp({ SIGN_IN_ATTEMPTS_PER_MINUTE: '3' });
    try {
      const person = await newUser(limited);
      const attempt = (email: string) =>
        limited.request('POST', '/v1/sessions', { body: { email, password: 'wrong password here' } });
      for (let i = 0; i < 3; i++) expect((await attempt(person.email)).status).toBe(401);
      const refused = await attempt(person.email);
      expect(refused.status).toBe(429);
      expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
      expect(refused.body.detail).toContain('for this email');
      // The address has made 4 attempts: another email from it is refused too.
      const other = await attempt('someone-else@example.com');
      expect(other.status).toBe(429);
      expect(other.body.detail).toContain('from this address');
      // Guessing the current password through a password change counts against the email too.
      const change = await person.request('POST', '/v1/users/me/password', {
        body: { current_password: 'a guess', new_password: 'violet harbour engine 77' },
      });
      expect(change.status).toBe(429);
    } finally {
      await limited.close();
    }
  });
});

describe('CSRF on cookie requests', { timeout: 60_000 }, () => {
  it('refuses a write without the header or with a wrong one, accepts it with the right one', async () => {
    const body = { content: 'https://example.com/csrf' };
    const without = await owner.request('POST', '/v1/codes', { body, csrf: false });
    expect(without.status).toBe(403);
    expect(without.body.type).toBe('/problems/csrf');
    const wrong = await owner.request('POST', '/v1/codes', { body, csrf: false, headers: { 'x-csrf-token': 'nope' } });
    expect(wrong.status).toBe(403);
    expect((await owner.request('GET', '/v1/codes')).body.data).toHaveLength(0);
    const right = await owner.request('POST', '/v1/codes', { body });
    expect(right.status, right.text).toBe(201);
    // Reads need no token.
    const read = await owner.request('GET', `/v1/codes/${right.body.id}`, { csrf: false });
    expect(read.status).toBe(200);
  });

  it('applies to POST /graphql alike', async () => {
    const query = { query: '{ codes(first: 5) { edges { node { id } } } }' };
    const without = await owner.request('POST', '/graphql', { body: query, csrf: false });
    expect(without.status).toBe(403);
    expect(without.body.type).toBe('/problems/csrf');
    const right = await owner.request('POST', '/graphql', { body: query });
    expect(right.status, right.text).toBe(200);
    expect(right.body.data.codes.edges).toHaveLength(1);
  });

  it('leaves bearer requests alone, a cookie sent along or not', async () => {
    const key = await app.newAccountKey();
    const res = await app.request('POST', '/v1/codes', {
      key,
      body: { content: 'https://example.com/bearer' },
      headers: { cookie: `qr_session=${owner.token}` },
    });
    expect(res.status, res.text).toBe(201);
    // The key's account, not the cookie's workspace.
    expect((await owner.request('GET', `/v1/codes/${res.body.id}`)).status).toBe(404);
  });
});

describe('sessions', { timeout: 60_000 }, () => {
  it('GET /v1/session answers the current session; signing out ends it everywhere', async () => {
    const person = await newUser(app);
    const current = await person.request('GET', '/v1/session');
    expect(current.status, current.text).toBe(200);
    expect(current.body).toMatchObject({
      user: { id: person.id },
      csrf_token: person.csrf,
      session: { current: true },
    });
    const out = await person.request('DELETE', '/v1/session');
    expect(out.status).toBe(204);
    expect(out.headers.getSetCookie()).toEqual([
      expect.stringMatching(/^qr_session=; Max-Age=0;/),
      expect.stringMatching(/^qr_signed_in=; Max-Age=0;/),
    ]);
    const after = await person.request('GET', '/v1/codes');
    expect(after.status).toBe(401);
    expect(after.body.detail).toContain('sign in again');
  });

  it('lists my sessions with the current one marked, and revokes another', async () => {
    const person = await newUser(app);
    const second = await signIn(person.email, STRONG_PASSWORD, { 'user-agent': 'second-browser' });
    const other = asUser(app, sessionCookieOf(second).token, second.body.csrf_token);
    const list = await person.request('GET', '/v1/sessions');
    expect(list.status).toBe(200);
    expect(list.body.data).toHaveLength(2);
    expect(list.body.data.filter((s: { current: boolean }) => s.current)).toHaveLength(1);
    expect(list.body.data[0]).toMatchObject({
      id: second.body.session.id,
      user_agent: 'second-browser',
      current: false,
    });
    // Another user's session is a 404, and stays.
    expect((await owner.request('DELETE', `/v1/sessions/${second.body.session.id}`)).status).toBe(404);
    expect((await other('GET', '/v1/users/me')).status).toBe(200);
    expect((await person.request('DELETE', `/v1/sessions/${second.body.session.id}`)).status).toBe(204);
    expect((await other('GET', '/v1/users/me')).status).toBe(401);
    expect((await person.request('GET', '/v1/users/me')).status).toBe(200);
  });

  it('a password change needs the current password, refuses a weak one, and ends every other session', async () => {
    const person = await newUser(app);
    const second = await signIn(person.email, STRONG_PASSWORD);
    const other = asUser(app, sessionCookieOf(second).token, second.body.csrf_token);
    const wrong = await person.request('POST', '/v1/users/me/password', {
      body: { current_password: 'not it at all', new_password: 'violet harbour engine 77' },
    });
    expect(wrong.status).toBe(422);
    const weak = await person.request('POST', '/v1/users/me/password', {
      body: { current_password: STRONG_PASSWORD, new_password: 'password123' },
    });
    expect(weak.status).toBe(422);
    expect(weak.body.errors[0]).toMatchObject({ path: 'new_password' });
    expect(weak.body.errors[0].message).toContain('commonly used password');
    expect((await other('GET', '/v1/users/me')).status).toBe(200);
    const changed = await person.request('POST', '/v1/users/me/password', {
      body: { current_password: STRONG_PASSWORD, new_password: 'violet harbour engine 77' },
    });
    expect(changed.status, changed.text).toBe(204);
    expect((await other('GET', '/v1/users/me')).status).toBe(401);
    expect((await person.request('GET', '/v1/users/me')).status).toBe(200);
    expect((await signIn(person.email, STRONG_PASSWORD)).status).toBe(401);
    expect((await signIn(person.email, 'violet harbour engine 77')).status).toBe(201);
  });

  it('GET and PATCH /v1/users/me; keys are refused on a person’s routes', async () => {
    const patched = await owner.request('PATCH', '/v1/users/me', { body: { display_name: '  Ada  ' } });
    expect(patched.status, patched.text).toBe(200);
    expect(patched.body).toMatchObject({ object: 'user', id: owner.id, display_name: 'Ada' });
    expect((await owner.request('PATCH', '/v1/users/me', { body: { display_name: '' } })).status).toBe(422);
    const key = await app.newAccountKey();
    const byKey = await app.request('GET', '/v1/users/me', { key });
    expect(byKey.status).toBe(403);
    expect((await app.request('GET', '/v1/users/me')).status).toBe(401);
  });
});

describe('setup', { timeout: 60_000 }, () => {
  it('a setup token works once; a weak password does not use it up', async () => {
    const { token } = await app.services.setup.issueToken();
    const body = { token, email: 'first-owner@example.com', display_name: 'First', password: STRONG_PASSWORD };
    const weak = await app.request('POST', '/v1/setup', { body: { ...body, password: 'qwerty123' } });
    expect(weak.status).toBe(422);
    expect(weak.body.errors[0].path).toBe('password');
    const first = await app.request('POST', '/v1/setup', { body });
    expect(first.status, first.text).toBe(201);
    expect(first.body.workspaces).toEqual([expect.objectContaining({ role: 'owner', name: 'First' })]);
    const again = await app.request('POST', '/v1/setup', { body: { ...body, email: 'second@example.com' } });
    expect(again.status).toBe(401);
    expect(again.body.detail).toContain('unknown, used or expired');
  });

  it('a token made for an email refuses another', async () => {
    const { token } = await app.services.setup.issueToken({ email: 'Only-Me@example.com' });
    const body = { token, email: 'someone@example.com', display_name: 'X', password: STRONG_PASSWORD };
    expect((await app.request('POST', '/v1/setup', { body })).status).toBe(422);
  });
});
