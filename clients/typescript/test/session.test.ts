// A person's session through the client, against a running service. Nobody can sign in on a fresh
// service: the first owner is made with the token of the setup link `cli users create-owner`
// prints (QR_SETUP_TOKEN, for QR_SETUP_EMAIL; CI makes both, a token of their own for this
// client). Without them the test is skipped, and CI counts a skip as a failure.
import { describe, expect, it } from 'vitest';
import { createQrClient, unwrap } from '../src/index.ts';

const baseUrl = process.env.QR_BASE_URL;
const setupToken = process.env.QR_SETUP_TOKEN;
const setupEmail = process.env.QR_SETUP_EMAIL;

/** The `qr_session` cookie's value among an answer's Set-Cookie headers. */
const sessionCookieOf = (response: Response) =>
  response.headers
    .getSetCookie()
    .map((header) => /^qr_session=([^;]+)/.exec(header)?.[1])
    .find(Boolean);

describe.skipIf(!baseUrl || !setupToken || !setupEmail)('a person’s session', () => {
  it('sets the owner up, then uses the person-only routes with the cookie and CSRF token', async () => {
    const anonymous = createQrClient({ baseUrl: baseUrl! });
    const setUp = await anonymous.api.POST('/setup', {
      body: {
        token: setupToken!,
        email: setupEmail!,
        display_name: 'TS Owner',
        password: 'ts client tangerine orbit 42',
      },
    });
    expect(setUp.response.status).toBe(201);
    const { csrf_token: csrfToken, workspaces } = setUp.data!;
    const workspace = workspaces[0]!.id;
    const cookie = sessionCookieOf(setUp.response);
    const person = createQrClient({ baseUrl: baseUrl!, session: { cookie, csrfToken, workspace } });

    expect((await unwrap(person.api.GET('/users/me'))).email).toBe(setupEmail);
    const invitation = await unwrap(
      person.api.POST('/workspaces/{id}/invitations', {
        params: { path: { id: workspace } },
        body: { role: 'editor' },
      }),
    );
    const pending = await unwrap(
      person.api.GET('/workspaces/{id}/invitations', { params: { path: { id: workspace } } }),
    );
    expect(pending.data.map((i) => i.id)).toContain(invitation.id);
    // The workspace's own routes take the session too, changes only with the CSRF token.
    const code = await unwrap(person.api.POST('/codes', { body: { content: 'https://example.com/ts-session' } }));
    const forged = createQrClient({ baseUrl: baseUrl!, session: { cookie, csrfToken: 'not-the-token', workspace } });
    const refused = await forged.api.DELETE('/codes/{id}', { params: { path: { id: code.id } } });
    expect(refused.response.status).toBe(403);

    await unwrap(person.api.DELETE('/session'));
    expect((await person.api.GET('/users/me')).response.status).toBe(401);
  });
});
