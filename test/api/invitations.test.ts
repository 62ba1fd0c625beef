// Invitations to a workspace over real HTTP, with a real SMTP server on loopback reading the mail:
// by email (mailed) and by link, accepted once by a new user or a signed-in one, for the email it
// names only, revoked, expired; who may invite whom; nothing changes on a refusal.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getTestApp, type TestApp } from '../support/app.ts';
import { startSmtpServer, type TestSmtpServer } from '../support/smtp-server.ts';
import { newUser, sessionCookieOf, STRONG_PASSWORD, type TestUser } from '../support/users.ts';

const DAY = 86_400_000;
let smtp: TestSmtpServer;
let app: TestApp;
let clock = Date.now();
let owner: TestUser;

beforeAll(async () => {
  smtp = await startSmtpServer();
  app = await getTestApp({ SMTP_URL: smtp.url, MAIL_FROM: 'QR codes <qr@example.test>' }, { now: () => clock });
  owner = await newUser(app);
});
afterAll(async () => {
  await app?.close();
  await smtp?.close();
});

const tokenOf = (link: string) => new URL(link).searchParams.get('token')!;
const invite = (by: TestUser, body: Record<string, unknown>, workspace = by.workspaceId) =>
  by.request('POST', `/v1/workspaces/${workspace}/invitations`, { body });
const preview = (token: string) => app.request('POST', '/v1/invitations/preview', { body: { token } });
const register = (body: Record<string, unknown>) => app.request('POST', '/v1/invitations/register', { body });

describe('invitations', { timeout: 60_000 }, () => {
  it('by email: mailed with its link, previewed, and accepted once by a new user who is signed in', async () => {
    const made = await invite(owner, { email: 'Grace@Example.com', role: 'editor' });
    expect(made.status, made.text).toBe(201);
    expect(made.body).toMatchObject({
      object: 'invitation',
      workspace_id: owner.workspaceId,
      email: 'grace@example.com',
      role: 'editor',
      invited_by: owner.id,
      email_sent: true,
    });
    expect(made.body.link).toMatch(/\/dashboard\/invite\?token=qrinv_[0-9A-Za-z]{40}$/);
    const [mail] = await smtp.waitFor(1, (m) => m.subject?.includes('invited') ?? false);
    expect(mail!.to).toMatchObject({ text: 'grace@example.com' });
    expect(mail!.from).toMatchObject({ text: '"QR codes" <qr@example.test>' });
    expect(mail!.text).toContain(made.body.link);
    expect(mail!.text).toContain('as editor');

    const token = tokenOf(made.body.link);
    const seen = await preview(token);
    expect(seen.status, seen.text).toBe(200);
    expect(seen.body).toMatchObject({ object: 'invitation_preview', role: 'editor', email: 'grace@example.com' });

    const joined = await register({ token, display_name: 'Grace Hopper', password: STRONG_PASSWORD });
    expect(joined.status, joined.text).toBe(201);
    sessionCookieOf(joined);
    expect(joined.body.user.email).toBe('grace@example.com');
    expect(joined.body.workspaces).toEqual([expect.objectContaining({ id: owner.workspaceId, role: 'editor' })]);

    // Once only.
    expect((await preview(token)).status).toBe(401);
    const again = await register({ token, email: 'other@example.com', display_name: 'X', password: STRONG_PASSWORD });
    expect(again.status).toBe(401);
    const members = await owner.request('GET', `/v1/workspaces/${owner.workspaceId}/members`);
    expect(members.body.data.map((m: { role: string }) => m.role).sort()).toEqual(['editor', 'owner']);
    const audit = await owner.request('GET', '/v1/audit-log?limit=50');
    const actions = audit.body.data.map((e: { action: string }) => e.action);
    expect(actions).toEqual(expect.arrayContaining(['invitation.created', 'member.added']));
  });

  it('by link: a signed-in person joins with the token; a member already gets 409', async () => {
    const made = await invite(owner, { role: 'viewer' });
    expect(made.status, made.text).toBe(201);
    expect(made.body).toMatchObject({ email: null, email_sent: false });
    const someone = await newUser(app);
    const accepted = await someone.request('POST', '/v1/invitations/accept', {
      body: { token: tokenOf(made.body.link) },
    });
    expect(accepted.status, accepted.text).toBe(200);
    expect(accepted.body).toMatchObject({ id: owner.workspaceId, role: 'viewer' });
    const codes = await someone.request('GET', '/v1/codes', { workspace: owner.workspaceId });
    expect(codes.status).toBe(200);

    const second = await invite(owner, { role: 'viewer' });
    const twice = await someone.request('POST', '/v1/invitations/accept', {
      body: { token: tokenOf(second.body.link) },
    });
    expect(twice.status).toBe(409);
    // The refused one is still pending.
    expect((await preview(tokenOf(second.body.link))).status).toBe(200);
  });

  it('for an email: nobody else can accept it, and a refusal creates no user', async () => {
    const made = await invite(owner, { email: 'only.me@example.com', role: 'editor' });
    const token = tokenOf(made.body.link);
    const stranger = await newUser(app);
    const refused = await stranger.request('POST', '/v1/invitations/accept', { body: { token } });
    expect(refused.status).toBe(403);
    const wrongEmail = await register({
      token,
      email: 'not.me@example.com',
      display_name: 'Not me',
      password: STRONG_PASSWORD,
    });
    expect(wrongEmail.status).toBe(403);
    const signIn = await app.request('POST', '/v1/sessions', {
      body: { email: 'not.me@example.com', password: STRONG_PASSWORD },
    });
    expect(signIn.status).toBe(401);
    // A weak password is a 422 that leaves the invitation usable.
    const weak = await register({ token, display_name: 'Only me', password: 'password1' });
    expect(weak.status).toBe(422);
    expect((await preview(token)).status).toBe(200);
  });

  it('revoked or expired, its link stops working; the pending list shows neither', async () => {
    const revokedOne = await invite(owner, { email: 'revoked@example.com', role: 'viewer' });
    const revoke = await owner.request(
      'DELETE',
      `/v1/workspaces/${owner.workspaceId}/invitations/${revokedOne.body.id}`,
    );
    expect(revoke.status).toBe(204);
    expect((await preview(tokenOf(revokedOne.body.link))).status).toBe(401);
    expect(
      (await owner.request('DELETE', `/v1/workspaces/${owner.workspaceId}/invitations/${revokedOne.body.id}`)).status,
    ).toBe(404);

    const expiring = await invite(owner, { role: 'viewer' });
    const pendingBefore = await owner.request('GET', `/v1/workspaces/${owner.workspaceId}/invitations`);
    expect(pendingBefore.body.data.map((i: { id: string }) => i.id)).toContain(expiring.body.id);
    expect(pendingBefore.body.data.map((i: { id: string }) => i.id)).not.toContain(revokedOne.body.id);
    clock += 7 * DAY + 1;
    try {
      expect((await preview(tokenOf(expiring.body.link))).status).toBe(401);
    } finally {
      clock -= 7 * DAY + 1;
    }
  });

  it('owners invite any role, admins no owner, editors and viewers nobody; outsiders see a 404', async () => {
    const admin = await newUser(app, { accountId: owner.workspaceId, role: 'admin' });
    const editor = await newUser(app, { accountId: owner.workspaceId, role: 'editor' });
    expect((await invite(owner, { role: 'owner' })).status).toBe(201);
    expect((await invite(admin, { role: 'admin' }, owner.workspaceId)).status).toBe(201);
    const adminOwner = await invite(admin, { role: 'owner' }, owner.workspaceId);
    expect(adminOwner.status).toBe(403);
    expect((await invite(editor, { role: 'viewer' }, owner.workspaceId)).status).toBe(403);
    const outsider = await newUser(app);
    expect((await invite(outsider, { role: 'viewer' }, owner.workspaceId)).status).toBe(404);
    expect((await outsider.request('GET', `/v1/workspaces/${owner.workspaceId}/invitations`)).status).toBe(404);
    // Another workspace's invitation is not found from here.
    const theirs = await invite(outsider, { role: 'viewer' });
    expect(
      (await owner.request('DELETE', `/v1/workspaces/${owner.workspaceId}/invitations/${theirs.body.id}`)).status,
    ).toBe(404);
    expect((await preview(tokenOf(theirs.body.link))).status).toBe(200);
    // A member's email, a bad role, an API key: refused.
    expect((await invite(owner, { email: editor.email, role: 'viewer' })).status).toBe(409);
    expect((await invite(owner, { role: 'boss' })).status).toBe(422);
    const key = await app.newAccountKey();
    const byKey = await app.request('POST', `/v1/workspaces/${owner.workspaceId}/invitations`, {
      key,
      body: { role: 'viewer' },
    });
    expect(byKey.status).toBe(403);
  });

  it('made by someone removed or demoted since, no longer stands', async () => {
    const admin = await newUser(app, { accountId: owner.workspaceId, role: 'admin' });
    const byRemoved = await invite(admin, { role: 'admin' }, owner.workspaceId);
    const byDemoted = await invite(admin, { role: 'editor' }, owner.workspaceId);
    expect(byRemoved.status, byRemoved.text).toBe(201);
    expect((await preview(tokenOf(byRemoved.body.link))).status).toBe(200);
    const ws = `/v1/workspaces/${owner.workspaceId}/members/${admin.id}`;
    expect((await owner.request('PATCH', ws, { body: { role: 'editor' } })).status).toBe(200);
    // An editor grants nothing: neither invitation can be used.
    expect((await preview(tokenOf(byDemoted.body.link))).status).toBe(401);
    expect((await owner.request('DELETE', ws)).status).toBe(204);
    const taken = await register({
      token: tokenOf(byRemoved.body.link),
      email: 'back@example.com',
      display_name: 'B',
      password: STRONG_PASSWORD,
    });
    expect(taken.status).toBe(401);
  });

  it('without a reachable SMTP server, the invitation stands and its link is in the answer', async () => {
    const closed = await startSmtpServer();
    const url = closed.url;
    await closed.close();
    const offline = await getTestApp({ SMTP_URL: url });
    try {
      const someone = await newUser(offline);
      const made = await invite(someone, { email: 'late@example.com', role: 'viewer' });
      expect(made.status, made.text).toBe(201);
      expect(made.body.email_sent).toBe(false);
      const seen = await offline.request('POST', '/v1/invitations/preview', {
        body: { token: tokenOf(made.body.link) },
      });
      expect(seen.status).toBe(200);
    } finally {
      await offline.close();
    }
  });
});
