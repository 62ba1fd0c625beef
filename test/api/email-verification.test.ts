// Email verification over real HTTP, with a real SMTP server on loopback reading the mail: a
// signed-in person asks for a link, the mailed link verifies their address once (reuse, a
// replaced link and an expired one are refused), requests count against the sign-in limit, 501
// without mail; a mailed invitation accepted and a password reset completed verify the address
// too, a copied invitation link does not; someone else's link verifies only its own user.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ParsedMail } from 'mailparser';
import { getTestApp, type TestApp } from '../support/app.ts';
import { startSmtpServer, type TestSmtpServer } from '../support/smtp-server.ts';
import { newUser, STRONG_PASSWORD, type TestUser } from '../support/users.ts';

const HOUR = 3_600_000;
let smtp: TestSmtpServer;
let app: TestApp;
let clock = Date.now();

beforeAll(async () => {
  smtp = await startSmtpServer();
  app = await getTestApp({ SMTP_URL: smtp.url, SIGN_IN_ATTEMPTS_PER_MINUTE: '1000' }, { now: () => clock });
});
afterAll(async () => {
  await app?.close();
  await smtp?.close();
});

const ask = (person: TestUser) => person.request('POST', '/v1/users/me/email-verification');
const confirm = (token: unknown) => app.request('POST', '/v1/email-verification/confirm', { body: { token } });
const verified = async (person: TestUser) => (await person.request('GET', '/v1/users/me')).body.email_verified;

/** The token of the newest verification mail to `email`, once `count` such mails have come. */
async function mailedToken(email: string, count = 1): Promise<string> {
  const toEmail = (m: ParsedMail) => !Array.isArray(m.to) && m.to?.text === email;
  const mails = await smtp.waitFor(count, (m) => m.subject === 'Verify your email address' && toEmail(m));
  const link = /(http\S+\/dashboard\/verify-email\?token=qrverify_\w+)/.exec(mails.at(-1)!.text!)![1]!;
  return new URL(link).searchParams.get('token')!;
}

describe('email verification', { timeout: 60_000 }, () => {
  it('mails a link that verifies the address once; the user answers show it', async () => {
    const person = await newUser(app);
    expect(await verified(person)).toBe(false);
    const sent = await ask(person);
    expect(sent.status, sent.text).toBe(202);
    expect(sent.body).toMatchObject({ object: 'email_verification_sent', email: person.email });
    const token = await mailedToken(person.email);

    const done = await confirm(token);
    expect(done.status, done.text).toBe(200);
    expect(done.body).toMatchObject({ object: 'email_verified', email: person.email });
    expect(await verified(person)).toBe(true);
    expect((await person.request('GET', '/v1/session')).body.user.email_verified).toBe(true);
    const members = await person.request('GET', `/v1/workspaces/${person.workspaceId}/members`);
    expect(members.body.data[0].user).toMatchObject({ email: person.email, email_verified: true });

    const again = await confirm(token);
    expect(again.status).toBe(401);
    expect(again.body.detail).toContain('unknown, used or expired');
    const twice = await ask(person);
    expect(twice.status).toBe(409);
  });

  it('a new request replaces the link before; an expired link is refused', async () => {
    const person = await newUser(app);
    expect((await ask(person)).status).toBe(202);
    const first = await mailedToken(person.email, 1);
    expect((await ask(person)).status).toBe(202);
    const second = await mailedToken(person.email, 2);
    expect(second).not.toBe(first);
    expect((await confirm(first)).status).toBe(401);

    clock += 24 * HOUR + 60_000;
    try {
      expect((await confirm(second)).status).toBe(401);
    } finally {
      clock = Date.now();
    }
    expect(await verified(person)).toBe(false);
  });

  it('someone else’s link verifies its own user only; bad input is a 4xx', async () => {
    const ada = await newUser(app);
    const bob = await newUser(app);
    expect((await ask(ada)).status).toBe(202);
    const adas = await mailedToken(ada.email);
    // Bob, signed in, opens Ada's link: the link speaks for Ada's mailbox, not for whoever holds a session.
    const opened = await app.request('POST', '/v1/email-verification/confirm', {
      body: { token: adas },
      headers: { cookie: `qr_session=${bob.token}`, 'x-csrf-token': bob.csrf },
    });
    expect(opened.status).toBe(200);
    expect(opened.body.email).toBe(ada.email);
    expect(await verified(bob)).toBe(false);
    expect(await verified(ada)).toBe(true);

    expect((await confirm('qrverify_madeup')).status).toBe(401);
    expect((await confirm(7)).status).toBe(422);
    expect((await confirm('')).status).toBe(422);
    expect((await app.request('POST', '/v1/users/me/email-verification')).status).toBe(401);
  });

  it('accepting a mailed invitation verifies the address; a copied link does not', async () => {
    const owner = await newUser(app);
    const invited = await owner.request('POST', `/v1/workspaces/${owner.workspaceId}/invitations`, {
      body: { email: 'mailed-guest@example.com', role: 'viewer' },
    });
    expect(invited.status, invited.text).toBe(201);
    expect(invited.body.email_sent).toBe(true);
    const token = new URL(invited.body.link).searchParams.get('token')!;
    const joined = await app.request('POST', '/v1/invitations/register', {
      body: { token, display_name: 'Mailed Guest', password: STRONG_PASSWORD },
    });
    expect(joined.status, joined.text).toBe(201);
    expect(joined.body.user).toMatchObject({ email: 'mailed-guest@example.com', email_verified: true });

    // A signed-in person accepting a mailed invitation to their address.
    const member = await newUser(app);
    const other = await newUser(app);
    const forMember = await other.request('POST', `/v1/workspaces/${other.workspaceId}/invitations`, {
      body: { email: member.email, role: 'editor' },
    });
    expect(forMember.body.email_sent).toBe(true);
    const accepted = await member.request('POST', '/v1/invitations/accept', {
      body: { token: new URL(forMember.body.link).searchParams.get('token') },
    });
    expect(accepted.status, accepted.text).toBe(200);
    expect(await verified(member)).toBe(true);
    expect((await member.request('GET', '/v1/session')).body.user.email_verified).toBe(true);

    // A link naming no email is copied, not mailed: joining with it proves no address.
    const byLink = await owner.request('POST', `/v1/workspaces/${owner.workspaceId}/invitations`, {
      body: { role: 'viewer' },
    });
    const copied = await app.request('POST', '/v1/invitations/register', {
      body: {
        token: new URL(byLink.body.link).searchParams.get('token'),
        email: 'copied-link@example.com',
        display_name: 'Copied Link',
        password: STRONG_PASSWORD,
      },
    });
    expect(copied.status, copied.text).toBe(201);
    expect(copied.body.user.email_verified).toBe(false);
  });

  it('completing a password reset from its mailed link verifies the address', async () => {
    const person = await newUser(app);
    expect((await app.request('POST', '/v1/password-resets', { body: { email: person.email } })).status).toBe(202);
    const [mail] = await smtp.waitFor(1, (m) => m.subject === 'Reset your password' && m.text!.includes('qrreset_'));
    const token = /token=(qrreset_\w+)/.exec(mail!.text!)![1]!;
    const reset = await app.request('POST', '/v1/password-resets/complete', {
      body: { token, password: 'violet harbour engine 77' },
    });
    expect(reset.status, reset.text).toBe(201);
    expect(reset.body.user).toMatchObject({ email: person.email, email_verified: true });
  });

  it('requests count against the sign-in limit; 501 without mail', async () => {
    const limited = await getTestApp({ SMTP_URL: smtp.url, SIGN_IN_ATTEMPTS_PER_MINUTE: '3' });
    try {
      // The setup of the user is no sign-in attempt; the requests are.
      const person = await newUser(limited);
      const statuses: number[] = [];
      for (let i = 0; i < 4; i++)
        statuses.push((await person.request('POST', '/v1/users/me/email-verification')).status);
      expect(statuses).toEqual([202, 202, 202, 429]);
    } finally {
      await limited.close();
    }
    const mailless = await getTestApp();
    try {
      const person = await newUser(mailless);
      const res = await person.request('POST', '/v1/users/me/email-verification');
      expect(res.status).toBe(501);
      expect(res.body.detail).toContain('SMTP_URL');
    } finally {
      await mailless.close();
    }
  });
});
