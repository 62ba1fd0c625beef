// "Forgot your password" over real HTTP with a real SMTP server on loopback: the same 202 for a
// known and an unknown email, a mail only for the known one, a link that works once (a weak
// password leaves it usable), every old session ended and a new one started, the new password
// signing in; the limit per email; 501 when the service sends no mail.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getTestApp, type TestApp } from '../support/app.ts';
import { startSmtpServer, type TestSmtpServer } from '../support/smtp-server.ts';
import { newUser, sessionCookieOf, STRONG_PASSWORD, type TestUser } from '../support/users.ts';

const NEW_PASSWORD = 'violet harbour engine 77';
let smtp: TestSmtpServer;
let app: TestApp;
let person: TestUser;

beforeAll(async () => {
  smtp = await startSmtpServer();
  app = await getTestApp({ SMTP_URL: smtp.url, SIGN_IN_ATTEMPTS_PER_MINUTE: '5' });
  person = await newUser(app, { email: 'forgetful@example.com' });
});
afterAll(async () => {
  await app?.close();
  await smtp?.close();
});

const request = (email: string) => app.request('POST', '/v1/password-resets', { body: { email } });
const complete = (token: string, password: string) =>
  app.request('POST', '/v1/password-resets/complete', { body: { token, password } });
const signIn = (password: string) => app.request('POST', '/v1/sessions', { body: { email: person.email, password } });

describe('password reset', { timeout: 60_000 }, () => {
  it('mails a single-use link to a known email only, answering both alike; the reset ends every session', async () => {
    const known = await request('Forgetful@Example.com');
    const unknown = await request('nobody@example.com');
    expect(known.status).toBe(202);
    expect(unknown.status).toBe(202);
    expect(unknown.body).toEqual(known.body);
    const [mail] = await smtp.waitFor(1);
    expect(mail!.to).toMatchObject({ text: 'forgetful@example.com' });
    // The unknown email's request had the same time to be mailed: still only one message.
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(smtp.messages).toHaveLength(1);
    const link = /(http\S+reset-password\?token=qrreset_\w+)/.exec(mail!.text!)![1]!;
    const token = new URL(link).searchParams.get('token')!;

    // A second link, mailed before the reset below, must not work once the password changed.
    expect((await request(person.email)).status).toBe(202);
    const [, second] = await smtp.waitFor(2);
    const otherToken = /token=(qrreset_\w+)/.exec(second!.text!)![1]!;

    const weak = await complete(token, 'password1');
    expect(weak.status).toBe(422);
    expect((await person.request('GET', '/v1/session')).status).toBe(200);

    const done = await complete(token, NEW_PASSWORD);
    expect(done.status, done.text).toBe(201);
    expect(done.body.user.email).toBe('forgetful@example.com');
    const fresh = sessionCookieOf(done).token;
    expect((await person.request('GET', '/v1/session')).status).toBe(401);
    const current = await app.request('GET', '/v1/session', { headers: { cookie: `qr_session=${fresh}` } });
    expect(current.status).toBe(200);
    expect((await complete(token, 'another harbour engine 78')).status).toBe(401);
    expect((await complete(otherToken, 'another harbour engine 78')).status).toBe(401);
    expect((await signIn(STRONG_PASSWORD)).status).toBe(401);
    expect((await signIn(NEW_PASSWORD)).status).toBe(201);
  });

  it('refuses bad input, a made-up token, and requests past the sign-in limit', async () => {
    expect((await request('not an email')).status).toBe(422);
    expect((await complete('qrreset_madeup', NEW_PASSWORD)).status).toBe(401);
    // An app of its own: this file's other requests came from the same address and counted too.
    const limited = await getTestApp({ SMTP_URL: smtp.url, SIGN_IN_ATTEMPTS_PER_MINUTE: '5' });
    try {
      const statuses: number[] = [];
      for (let i = 0; i < 6; i++)
        statuses.push(
          (await limited.request('POST', '/v1/password-resets', { body: { email: 'limited@example.com' } })).status,
        );
      expect(statuses).toEqual([202, 202, 202, 202, 202, 429]);
    } finally {
      await limited.close();
    }
  });

  it('answers 501 when the service sends no mail', async () => {
    const mailless = await getTestApp();
    try {
      const res = await mailless.request('POST', '/v1/password-resets', { body: { email: 'a@example.com' } });
      expect(res.status).toBe(501);
      expect(res.body.detail).toContain('SMTP_URL');
    } finally {
      await mailless.close();
    }
  });
});
