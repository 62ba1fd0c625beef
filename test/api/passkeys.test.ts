// Passkeys over HTTP, with a software authenticator's real attestations and assertions
// (test/support/authenticator.ts): registering, listing, renaming and deleting (the password
// first); signing in by email and without, as both factors; a challenge working once and for its
// own ceremony and person only; another origin, a counter going backwards and a device that did
// not verify its user refused; another person's passkeys out of reach; bad input a 4xx problem.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getTestApp, type TestApp } from '../support/app.ts';
import { softAuthenticator, type SoftCredential } from '../support/authenticator.ts';
import { totpCode } from '../support/second-factor.ts';
import { asUser, newUser, sessionCookieOf, STRONG_PASSWORD, type TestUser } from '../support/users.ts';

let app: TestApp;
let device: ReturnType<typeof softAuthenticator>;

beforeAll(async () => {
  // Every test here signs in from 127.0.0.1: the limits are the limited app's business below.
  app = await getTestApp({ SIGN_IN_ATTEMPTS_PER_MINUTE: '1000' });
  device = softAuthenticator(app.url);
});
afterAll(async () => {
  await app?.close();
});

const registrationOptions = async (user: TestUser) => {
  const res = await user.request('POST', '/v1/users/me/passkeys/options');
  expect(res.status, res.text).toBe(200);
  return res.body.options;
};
const signInOptions = async (target: TestApp, email?: string) => {
  const res = await target.request('POST', '/v1/sessions/passkey/options', { body: email ? { email } : {} });
  expect(res.status, res.text).toBe(200);
  return res.body.options;
};
const signIn = (target: TestApp, response: unknown) =>
  target.request('POST', '/v1/sessions/passkey', { body: { response } });
const listOf = async (user: TestUser) => (await user.request('GET', '/v1/users/me/passkeys')).body.data;

/** Registers a new passkey of `user` through the API; the device's credential and the passkey's JSON. */
async function register(user: TestUser, name = 'Laptop'): Promise<{ credential: SoftCredential; passkey: any }> {
  const { credential, response } = device.register(await registrationOptions(user));
  const res = await user.request('POST', '/v1/users/me/passkeys', { body: { name, response } });
  expect(res.status, res.text).toBe(201);
  return { credential, passkey: res.body };
}

describe('registering passkeys', { timeout: 60_000 }, () => {
  it('asks for a discoverable credential with user verification for this host, none twice', async () => {
    const person = await newUser(app);
    const options = await registrationOptions(person);
    expect(options.rp).toEqual({ id: new URL(app.url).hostname, name: new URL(app.url).host });
    expect(options.user.name).toBe(person.email);
    expect(Buffer.from(options.user.id, 'base64url').toString()).toBe(person.id);
    expect(options.authenticatorSelection).toMatchObject({ residentKey: 'required', userVerification: 'required' });
    expect(options.excludeCredentials).toEqual([]);
    const { passkey } = await register(person);
    expect((await registrationOptions(person)).excludeCredentials).toEqual([
      expect.objectContaining({ id: expect.any(String), transports: ['internal'] }),
    ]);
    expect(passkey).toMatchObject({ object: 'passkey', name: 'Laptop', last_used_at: null, transports: ['internal'] });
    expect(passkey.id).toMatch(/^pk_/);
    expect(await listOf(person)).toEqual([passkey]);
  });

  it('uses a challenge once, for its own person only; another origin and an unverified user are refused', async () => {
    const person = await newUser(app);
    const other = await newUser(app);
    const options = await registrationOptions(person);
    const { response } = device.register(options);
    // Another person cannot register with it, and trying uses it up.
    const stolen = await other.request('POST', '/v1/users/me/passkeys', { body: { name: 'Mine', response } });
    expect(stolen.status).toBe(409);
    const late = await person.request('POST', '/v1/users/me/passkeys', { body: { name: 'Laptop', response } });
    expect(late.status).toBe(409);
    expect(late.headers.get('content-type')).toContain('application/problem+json');

    const fromElsewhere = device.register(await registrationOptions(person), { origin: 'https://evil.example' });
    const refused = await person.request('POST', '/v1/users/me/passkeys', {
      body: { name: 'Laptop', response: fromElsewhere.response },
    });
    expect(refused.status).toBe(422);
    expect(refused.body.errors[0]).toMatchObject({ path: 'response', message: expect.stringContaining('origin') });

    const unverified = device.register(await registrationOptions(person), { userVerified: false });
    const noUv = await person.request('POST', '/v1/users/me/passkeys', {
      body: { name: 'Laptop', response: unverified.response },
    });
    expect(noUv.status).toBe(422);

    // A sign-in's challenge does not register.
    const wrongCeremony = device.register(await signInOptions(app));
    const crossed = await person.request('POST', '/v1/users/me/passkeys', {
      body: { name: 'Laptop', response: wrongCeremony.response },
    });
    expect(crossed.status).toBe(409);
    expect(await listOf(person)).toEqual([]);
  });

  it('answers bad input with a problem, never a 500', async () => {
    const person = await newUser(app);
    const { response } = device.register(await registrationOptions(person));
    const bad = [
      { name: '', response },
      { name: 'Laptop' },
      { name: 'Laptop', response: { ...response, type: 'password' } },
      { name: 'Laptop', response: { ...response, response: { ...response.response, clientDataJSON: 'e30' } } },
      { name: 'Laptop', response: { ...response, response: { ...response.response, attestationObject: 'AAAA' } } },
      { name: 'Laptop', response: { ...response, id: 'not base64url!' } },
    ];
    for (const body of bad) {
      const res = await person.request('POST', '/v1/users/me/passkeys', { body });
      expect([409, 422], JSON.stringify(body).slice(0, 200)).toContain(res.status);
      expect(res.headers.get('content-type')).toContain('application/problem+json');
    }
    const noBody = await person.request('POST', '/v1/users/me/passkeys');
    expect(noBody.status).toBe(400);
    const options = await app.request('POST', '/v1/sessions/passkey/options', { body: { email: 42 } });
    expect(options.status).toBe(422);
    const junk = await signIn(app, { id: 'AAAA', rawId: 'AAAA', type: 'public-key', response: {} });
    expect(junk.status).toBe(422);
  });

  it('is for a signed-in person only: no cookie is a 401, an API key a 403, no CSRF token a 403', async () => {
    const person = await newUser(app);
    expect((await app.request('POST', '/v1/users/me/passkeys/options')).status).toBe(401);
    const key = await app.newAccountKey();
    expect((await app.request('GET', '/v1/users/me/passkeys', { key })).status).toBe(403);
    expect((await person.request('POST', '/v1/users/me/passkeys/options', { csrf: false })).status).toBe(403);
  });
});

describe('signing in with a passkey', { timeout: 60_000 }, () => {
  it('without an email starts the same session as a password, and records the use', async () => {
    const person = await newUser(app);
    const { credential, passkey } = await register(person);
    const options = await signInOptions(app);
    expect(options).toMatchObject({ rpId: new URL(app.url).hostname, userVerification: 'required' });
    expect(options.allowCredentials ?? []).toEqual([]);
    const res = await signIn(app, device.assert(credential, options));
    expect(res.status, res.text).toBe(201);
    expect(res.body).toMatchObject({ object: 'signed_in', user: { id: person.id, email: person.email } });
    const { token, line } = sessionCookieOf(res);
    expect(line).toContain('HttpOnly');
    const session = await asUser(app, token, res.body.csrf_token)('GET', '/v1/session');
    expect(session.status).toBe(200);
    expect(session.body.session.id).toBe(res.body.session.id);
    const [used] = await listOf(person);
    expect(used.id).toBe(passkey.id);
    expect(Date.parse(used.last_used_at)).toBeGreaterThanOrEqual(Date.parse(passkey.created_at));
  });

  it('with an email lists that person’s passkeys only; an unknown email is answered as one without', async () => {
    const person = await newUser(app);
    const { credential } = await register(person);
    const options = await signInOptions(app, person.email.toUpperCase());
    expect(options.allowCredentials).toEqual([
      { id: credential.id.toString('base64url'), type: 'public-key', transports: ['internal'] },
    ]);
    expect((await signIn(app, device.assert(credential, options))).status).toBe(201);
    expect((await signInOptions(app, 'nobody@example.com')).allowCredentials ?? []).toEqual([]);
    // A challenge handed out for someone else's email does not sign this person in.
    const other = await newUser(app);
    await register(other);
    const theirs = await signInOptions(app, other.email);
    expect((await signIn(app, device.assert(credential, theirs))).status).toBe(401);
  });

  it('counts as both factors: no second-factor step with TOTP on', async () => {
    const person = await newUser(app);
    const begun = await person.request('POST', '/v1/users/me/second-factor');
    const on = await person.request('POST', '/v1/users/me/second-factor/confirm', {
      body: { code: totpCode(begun.body.secret) },
    });
    expect(on.status, on.text).toBe(200);
    const password = await app.request('POST', '/v1/sessions', {
      body: { email: person.email, password: STRONG_PASSWORD },
    });
    expect(password.body.type).toBe('/problems/second-factor-required');
    const { credential } = await register(person);
    const res = await signIn(app, device.assert(credential, await signInOptions(app)));
    expect(res.status, res.text).toBe(201);
    sessionCookieOf(res);
  });

  it('refuses a replayed challenge, another origin, an unverified user and an unknown passkey', async () => {
    const person = await newUser(app);
    const { credential } = await register(person);
    const assertion = device.assert(credential, await signInOptions(app));
    expect((await signIn(app, assertion)).status).toBe(201);
    const replayed = await signIn(app, assertion);
    expect(replayed.status).toBe(401);
    expect(replayed.headers.get('set-cookie')).toBeNull();
    expect(replayed.headers.get('content-type')).toContain('application/problem+json');

    const elsewhere = await signIn(
      app,
      device.assert(credential, await signInOptions(app), { origin: 'https://evil.example' }),
    );
    expect(elsewhere.status).toBe(401);
    expect(elsewhere.body.detail).toContain('origin');
    const unverified = await signIn(app, device.assert(credential, await signInOptions(app), { userVerified: false }));
    expect(unverified.status).toBe(401);
    // A registration's challenge does not sign in.
    const crossed = await signIn(app, device.assert(credential, await registrationOptions(person)));
    expect(crossed.status).toBe(401);

    const stranger = device.register(await registrationOptions(person)).credential;
    expect((await signIn(app, device.assert(stranger, await signInOptions(app)))).status).toBe(401);
  });

  it('refuses a signature counter that did not move forward (a cloned authenticator)', async () => {
    const person = await newUser(app);
    const { credential } = await register(person);
    expect((await signIn(app, device.assert(credential, await signInOptions(app), { counter: 5 }))).status).toBe(201);
    const cloned = await signIn(app, device.assert(credential, await signInOptions(app), { counter: 5 }));
    expect(cloned.status).toBe(401);
    expect(cloned.body.detail).toMatch(/counter/i);
    const older = await signIn(app, device.assert(credential, await signInOptions(app), { counter: 3 }));
    expect(older.status).toBe(401);
    expect((await signIn(app, device.assert(credential, await signInOptions(app), { counter: 6 }))).status).toBe(201);
  });

  it('counts toward the sign-in limits of the person and of the address', async () => {
    const limited = await getTestApp({ SIGN_IN_ATTEMPTS_PER_MINUTE: '3' });
    try {
      const limitedDevice = softAuthenticator(limited.url);
      const person = await newUser(limited);
      const options = (await person.request('POST', '/v1/users/me/passkeys/options')).body.options;
      const { credential, response } = limitedDevice.register(options);
      expect((await person.request('POST', '/v1/users/me/passkeys', { body: { name: 'Key', response } })).status).toBe(
        201,
      );
      const attempt = async (tweaks = {}) => {
        const opts = (await limited.request('POST', '/v1/sessions/passkey/options', { body: {} })).body.options;
        return signIn(limited, limitedDevice.assert(credential, opts, tweaks));
      };
      for (let i = 0; i < 3; i++) expect((await attempt({ origin: 'https://evil.example' })).status).toBe(401);
      const refused = await attempt();
      expect(refused.status).toBe(429);
      expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
      // The person's password sign-in is over its limit too.
      const password = await limited.request('POST', '/v1/sessions', {
        body: { email: person.email, password: STRONG_PASSWORD },
      });
      expect(password.status).toBe(429);
    } finally {
      await limited.close();
    }
  });
});

describe('managing passkeys', { timeout: 60_000 }, () => {
  it('renames, and deletes with the password; a deleted passkey signs nobody in', async () => {
    const person = await newUser(app);
    const { credential, passkey } = await register(person);
    await register(person, 'Phone');
    const renamed = await person.request('PATCH', `/v1/users/me/passkeys/${passkey.id}`, {
      body: { name: '  Work laptop ' },
    });
    expect(renamed.status, renamed.text).toBe(200);
    expect(renamed.body).toMatchObject({ id: passkey.id, name: 'Work laptop' });
    expect((await listOf(person)).map((p: any) => p.name)).toEqual(['Work laptop', 'Phone']);
    const blank = await person.request('PATCH', `/v1/users/me/passkeys/${passkey.id}`, { body: { name: ' ' } });
    expect(blank.status).toBe(422);

    const wrong = await person.request('POST', `/v1/users/me/passkeys/${passkey.id}/delete`, {
      body: { password: 'not the password' },
    });
    expect(wrong.status).toBe(422);
    expect(wrong.body.errors).toEqual([{ path: 'password', message: 'is wrong' }]);
    const deleted = await person.request('POST', `/v1/users/me/passkeys/${passkey.id}/delete`, {
      body: { password: STRONG_PASSWORD },
    });
    expect(deleted.status, deleted.text).toBe(204);
    expect((await listOf(person)).map((p: any) => p.name)).toEqual(['Phone']);
    expect((await signIn(app, device.assert(credential, await signInOptions(app)))).status).toBe(401);
  });

  it('keeps another person’s passkeys out of reach: not listed, not renamed, not deleted', async () => {
    const owner = await newUser(app);
    const other = await newUser(app);
    const { passkey } = await register(owner);
    expect(await listOf(other)).toEqual([]);
    const rename = await other.request('PATCH', `/v1/users/me/passkeys/${passkey.id}`, { body: { name: 'Mine' } });
    expect(rename.status).toBe(404);
    const remove = await other.request('POST', `/v1/users/me/passkeys/${passkey.id}/delete`, {
      body: { password: STRONG_PASSWORD },
    });
    expect(remove.status).toBe(404);
    expect(await listOf(owner)).toEqual([passkey]);
  });
});
