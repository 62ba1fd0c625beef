// The TOTP second factor over HTTP: enrolment confirmed by a code (a wrong one changes nothing),
// sign-in asking for the code after the password, a code refused the second time, recovery codes
// working once, the challenge's few tries and the sign-in limit, a password reset that still asks
// for the code, turning it off and renewing the codes with the password, and another person's
// codes and sessions out of reach.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getTestApp, type TestApp } from '../support/app.ts';
import { totpCode } from '../support/second-factor.ts';
import { startSmtpServer, type TestSmtpServer } from '../support/smtp-server.ts';
import { asUser, newUser, sessionCookieOf, STRONG_PASSWORD, type TestUser } from '../support/users.ts';

let app: TestApp;
let smtp: TestSmtpServer;

beforeAll(async () => {
  smtp = await startSmtpServer();
  // Every test here signs in from 127.0.0.1: the per-address limit is the limited app's business below.
  app = await getTestApp({ SIGN_IN_ATTEMPTS_PER_MINUTE: '1000', SMTP_URL: smtp.url });
});
afterAll(async () => {
  await app.close();
  await smtp.close();
});

const signIn = (target: TestApp, email: string, password = STRONG_PASSWORD) =>
  target.request('POST', '/v1/sessions', { body: { email, password } });
const secondStep = (target: TestApp, challenge: string, code: string) =>
  target.request('POST', '/v1/sessions/second-factor', { body: { challenge, code } });
const statusOf = async (user: TestUser) => (await user.request('GET', '/v1/users/me/second-factor')).body;

/** Sets the second factor up for `user`; the secret and the recovery codes. */
async function enable(user: TestUser): Promise<{ secret: string; codes: string[] }> {
  const begun = await user.request('POST', '/v1/users/me/second-factor');
  expect(begun.status, begun.text).toBe(201);
  const confirmed = await user.request('POST', '/v1/users/me/second-factor/confirm', {
    body: { code: totpCode(begun.body.secret) },
  });
  expect(confirmed.status, confirmed.text).toBe(200);
  return { secret: begun.body.secret, codes: confirmed.body.codes };
}

/** A password sign-in that must stop at the second factor; its challenge. */
async function challengeFor(target: TestApp, email: string, password = STRONG_PASSWORD): Promise<string> {
  const res = await signIn(target, email, password);
  expect(res.status, res.text).toBe(401);
  expect(res.headers.get('set-cookie')).toBeNull();
  expect(res.body).toMatchObject({ type: '/problems/second-factor-required', status: 401 });
  return res.body.challenge;
}

describe('setting the second factor up', { timeout: 60_000 }, () => {
  it('answers the secret once with its URI and QR code; it is off until a code confirms it', async () => {
    const person = await newUser(app);
    expect(await statusOf(person)).toEqual({
      object: 'second_factor',
      enabled: false,
      enabled_at: null,
      recovery_codes_left: 0,
    });
    const begun = await person.request('POST', '/v1/users/me/second-factor');
    expect(begun.status, begun.text).toBe(201);
    const { secret, otpauth_uri: uri, qr_svg: svg } = begun.body;
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);
    const parsed = new URL(uri);
    expect(parsed.protocol).toBe('otpauth:');
    expect(parsed.searchParams.get('secret')).toBe(secret);
    expect(parsed.searchParams.get('issuer')).toBe(new URL(app.url).host);
    expect(decodeURIComponent(parsed.pathname)).toContain(person.email);
    expect(svg).toMatch(/^<svg[^>]*xmlns="http:\/\/www.w3.org\/2000\/svg"/);

    // Unconfirmed: the password alone still signs in, and the status tells nothing of the secret.
    expect((await signIn(app, person.email)).status).toBe(201);
    expect(JSON.stringify(await statusOf(person))).not.toContain(secret);

    const wrong = await person.request('POST', '/v1/users/me/second-factor/confirm', {
      body: { code: totpCode(secret, 10) },
    });
    expect(wrong.status).toBe(422);
    expect(wrong.body.errors).toEqual([{ path: 'code', message: expect.stringContaining('wrong') }]);
    expect((await statusOf(person)).enabled).toBe(false);

    const confirmed = await person.request('POST', '/v1/users/me/second-factor/confirm', {
      body: { code: totpCode(secret) },
    });
    expect(confirmed.status, confirmed.text).toBe(200);
    const codes: string[] = confirmed.body.codes;
    expect(codes).toHaveLength(10);
    expect(new Set(codes).size).toBe(10);
    for (const code of codes) expect(code).toMatch(/^[a-z2-7]{4}-[a-z2-7]{4}-[a-z2-7]{4}-[a-z2-7]{4}$/);
    expect(await statusOf(person)).toMatchObject({ enabled: true, recovery_codes_left: 10 });

    // On: a new secret is refused, and neither the secret nor the codes are ever answered again.
    expect((await person.request('POST', '/v1/users/me/second-factor')).status).toBe(409);
    const again = JSON.stringify(await statusOf(person));
    expect(again).not.toContain(secret);
    expect(again).not.toContain(codes[0]);
  });

  it('a new secret replaces an unconfirmed one, whose codes no longer confirm', async () => {
    const person = await newUser(app);
    const first = (await person.request('POST', '/v1/users/me/second-factor')).body.secret;
    const second = (await person.request('POST', '/v1/users/me/second-factor')).body.secret;
    expect(second).not.toBe(first);
    const stale = await person.request('POST', '/v1/users/me/second-factor/confirm', {
      body: { code: totpCode(first) },
    });
    expect(stale.status).toBe(422);
    expect((await statusOf(person)).enabled).toBe(false);
  });

  it('is for a signed-in person only: no cookie is a 401, an API key a 403, a missing CSRF token a 403', async () => {
    const person = await newUser(app);
    expect((await app.request('POST', '/v1/users/me/second-factor')).status).toBe(401);
    const key = await app.newAccountKey();
    expect((await app.request('GET', '/v1/users/me/second-factor', { key })).status).toBe(403);
    expect((await person.request('POST', '/v1/users/me/second-factor', { csrf: false })).status).toBe(403);
    expect((await statusOf(person)).enabled).toBe(false);
  });
});

describe('signing in with the second factor', { timeout: 60_000 }, () => {
  it('asks for a code after the password; a wrong one signs nobody in, a current one does, once', async () => {
    const person = await newUser(app);
    const { secret } = await enable(person);
    const challenge = await challengeFor(app, person.email);
    expect(challenge).toMatch(/^qrmfa_/);

    const wrong = await secondStep(app, challenge, totpCode(secret, 10));
    expect(wrong.status).toBe(401);
    expect(wrong.headers.get('set-cookie')).toBeNull();
    expect(wrong.body.type).toBe('/problems/unauthorized');

    // The confirming code's step is used: the next one (within the accepted window) signs in.
    const code = totpCode(secret, 1);
    const done = await secondStep(app, challenge, code);
    expect(done.status, done.text).toBe(201);
    expect(done.body).toMatchObject({ object: 'signed_in', user: { id: person.id } });
    const signedIn = asUser(app, sessionCookieOf(done).token, done.body.csrf_token);
    expect((await signedIn('GET', '/v1/users/me')).status).toBe(200);

    // The challenge worked once; the code is refused on a new one (and so is an older step's).
    expect((await secondStep(app, challenge, code)).status).toBe(401);
    const next = await challengeFor(app, person.email);
    expect((await secondStep(app, next, code)).status).toBe(401);
    expect((await secondStep(app, next, totpCode(secret))).status).toBe(401);
  });

  it('a recovery code works once, in any case and with spaces; the count goes down', async () => {
    const person = await newUser(app);
    const { codes } = await enable(person);
    const typed = codes[3]!.toUpperCase().replace(/-/g, ' ');
    const done = await secondStep(app, await challengeFor(app, person.email), typed);
    expect(done.status, done.text).toBe(201);
    expect((await secondStep(app, await challengeFor(app, person.email), codes[3]!)).status).toBe(401);
    expect((await statusOf(person)).recovery_codes_left).toBe(9);
  });

  it('a wrong password is still the plain 401, with no challenge', async () => {
    const person = await newUser(app);
    await enable(person);
    const res = await signIn(app, person.email, 'not the password at all');
    expect(res.status).toBe(401);
    expect(res.body.type).toBe('/problems/unauthorized');
    expect(res.body.challenge).toBeUndefined();
  });

  it('a challenge takes five wrong codes, then the password is needed again', async () => {
    const person = await newUser(app);
    const { codes } = await enable(person);
    const challenge = await challengeFor(app, person.email);
    for (let i = 0; i < 5; i++) expect((await secondStep(app, challenge, '000000')).status).toBe(401);
    const gone = await secondStep(app, challenge, codes[0]!);
    expect(gone.status).toBe(401);
    expect(gone.body.detail).toContain('sign in with your password again');
    // The refused try did not use the recovery code up.
    expect((await secondStep(app, await challengeFor(app, person.email), codes[0]!)).status).toBe(201);
  });

  it('an unknown challenge, or a malformed body, changes nothing', async () => {
    expect((await secondStep(app, 'qrmfa_unknown', '123456')).status).toBe(401);
    const malformed = await app.request('POST', '/v1/sessions/second-factor', { body: { code: '123456' } });
    expect(malformed.status).toBe(422);
  });

  it('one person’s recovery code does not complete another’s sign-in', async () => {
    const ada = await newUser(app);
    const grace = await newUser(app);
    const adaCodes = (await enable(ada)).codes;
    await enable(grace);
    expect((await secondStep(app, await challengeFor(app, grace.email), adaCodes[0]!)).status).toBe(401);
    expect((await statusOf(ada)).recovery_codes_left).toBe(10);
  });

  it('a password reset by mail still asks for the code before signing in', async () => {
    const person = await newUser(app);
    const { codes } = await enable(person);
    expect((await app.request('POST', '/v1/password-resets', { body: { email: person.email } })).status).toBe(202);
    const mail = (await smtp.waitFor(1, (m) => m.subject === 'Reset your password'))[0]!;
    const token = /token=(qrreset_\w+)/.exec(mail.text!)![1]!;
    const reset = await app.request('POST', '/v1/password-resets/complete', {
      body: { token, password: 'violet harbour engine 77' },
    });
    expect(reset.status, reset.text).toBe(401);
    expect(reset.body.type).toBe('/problems/second-factor-required');
    expect(reset.headers.get('set-cookie')).toBeNull();
    // The new password is set, and every earlier session ended.
    expect((await person.request('GET', '/v1/users/me')).status).toBe(401);
    expect((await secondStep(app, reset.body.challenge, codes[0]!)).status).toBe(201);
  });
});

describe('the sign-in limit on codes', { timeout: 60_000 }, () => {
  it('counts code tries like passwords: 429 with Retry-After', async () => {
    const limited = await getTestApp({ SIGN_IN_ATTEMPTS_PER_MINUTE: '4' });
    try {
      const person = await newUser(limited);
      const { codes } = await enable(person);
      const challenge = await challengeFor(limited, person.email);
      // The confirmation counted one, the password one: two more tries, then the limit.
      for (let i = 0; i < 2; i++) expect((await secondStep(limited, challenge, '000000')).status).toBe(401);
      const refused = await secondStep(limited, challenge, codes[0]!);
      expect(refused.status).toBe(429);
      expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
      expect((await statusOf(person)).recovery_codes_left).toBe(10);
    } finally {
      await limited.close();
    }
  });
});

describe('turning it off and renewing the codes', { timeout: 60_000 }, () => {
  it('renewing needs the password; the old codes stop working', async () => {
    const person = await newUser(app);
    const { codes } = await enable(person);
    const path = '/v1/users/me/second-factor/recovery-codes';
    const wrong = await person.request('POST', path, { body: { password: 'not the password at all' } });
    expect(wrong.status).toBe(422);
    expect(wrong.body.errors).toEqual([{ path: 'password', message: 'is wrong' }]);
    const renewed = await person.request('POST', path, { body: { password: STRONG_PASSWORD } });
    expect(renewed.status, renewed.text).toBe(201);
    expect(renewed.body.codes).toHaveLength(10);
    expect(renewed.body.codes).not.toContain(codes[0]);
    expect((await secondStep(app, await challengeFor(app, person.email), codes[0]!)).status).toBe(401);
    expect((await secondStep(app, await challengeFor(app, person.email), renewed.body.codes[0])).status).toBe(201);
  });

  it('turning it off needs the password; then the password alone signs in again', async () => {
    const person = await newUser(app);
    const { codes } = await enable(person);
    const path = '/v1/users/me/second-factor/disable';
    expect((await person.request('POST', path, { body: { password: 'not the password at all' } })).status).toBe(422);
    expect((await statusOf(person)).enabled).toBe(true);
    expect((await person.request('POST', path, { body: { password: STRONG_PASSWORD } })).status).toBe(204);
    expect(await statusOf(person)).toMatchObject({ enabled: false, recovery_codes_left: 0 });
    expect((await signIn(app, person.email)).status).toBe(201);
    // The old recovery codes went with it: set up anew, they are not the new ones.
    const again = await enable(person);
    expect(again.codes).not.toContain(codes[0]);
  });

  it('another person’s password or session touches neither my factor nor my sessions', async () => {
    const ada = await newUser(app);
    const grace = await newUser(app);
    await enable(ada);
    const adaSession = (await ada.request('GET', '/v1/session')).body.session.id;
    // Grace turns her own (unset) factor off with her password: Ada's stays on.
    expect(
      (await grace.request('POST', '/v1/users/me/second-factor/disable', { body: { password: STRONG_PASSWORD } }))
        .status,
    ).toBe(204);
    expect((await statusOf(ada)).enabled).toBe(true);
    expect((await statusOf(grace)).enabled).toBe(false);
    expect((await grace.request('DELETE', `/v1/sessions/${adaSession}`)).status).toBe(404);
    expect((await ada.request('GET', '/v1/users/me')).status).toBe(200);
  });
});

describe('the password change', { timeout: 60_000 }, () => {
  it('signs out every other session, the second factor’s included, and keeps the factor on', async () => {
    const person = await newUser(app);
    const { codes } = await enable(person);
    const done = await secondStep(app, await challengeFor(app, person.email), codes[0]!);
    const other = asUser(app, sessionCookieOf(done).token, done.body.csrf_token);
    expect((await other('GET', '/v1/users/me')).status).toBe(200);
    const changed = await person.request('POST', '/v1/users/me/password', {
      body: { current_password: STRONG_PASSWORD, new_password: 'violet harbour engine 77' },
    });
    expect(changed.status, changed.text).toBe(204);
    expect((await other('GET', '/v1/users/me')).status).toBe(401);
    expect((await person.request('GET', '/v1/users/me')).status).toBe(200);
    expect((await statusOf(person)).enabled).toBe(true);
    await challengeFor(app, person.email, 'violet harbour engine 77');
  });
});
