// People in tests: a user made through a setup token (as the CLI's link makes them) and the
// requests they send with their session cookie and CSRF token.
import { expect } from 'vitest';
import type { Role } from '../../src/shared/roles.ts';
import type { RequestOptions, TestApp, TestResponse } from './app.ts';

/** A password zxcvbn scores 4. */
export const STRONG_PASSWORD = 'tangerine orbit canvas 42';

let counter = 0;

export interface TestUser {
  id: string;
  email: string;
  /** The session cookie's value. */
  token: string;
  csrf: string;
  /** The workspace made for them, or the one they joined. */
  workspaceId: string;
  /** A request with the session cookie, the CSRF token unless `csrf: false`, and any other headers. */
  request<T = any>(
    method: string,
    path: string,
    options?: RequestOptions & { csrf?: boolean; workspace?: string },
  ): Promise<TestResponse<T>>;
}

/** The value of the session cookie a response sets, and the whole Set-Cookie line. */
export function sessionCookieOf(res: TestResponse): { token: string; line: string } {
  const line = res.headers.getSetCookie().find((c) => c.startsWith('qr_session='));
  expect(line, 'a qr_session cookie').toBeDefined();
  return { token: /^qr_session=([^;]*)/.exec(line!)![1]!, line: line! };
}

export function asUser(app: TestApp, token: string, csrf: string) {
  return <T = any>(
    method: string,
    path: string,
    options: RequestOptions & { csrf?: boolean; workspace?: string } = {},
  ) =>
    app.request<T>(method, path, {
      ...options,
      headers: {
        cookie: `qr_session=${token}`,
        ...(options.csrf === false ? {} : { 'x-csrf-token': csrf }),
        ...(options.workspace ? { 'qr-workspace': options.workspace } : {}),
        ...options.headers,
      },
    });
}

/** A new user through a setup token: the owner of a new workspace, or `role` in `accountId`. */
export async function newUser(
  app: TestApp,
  options: { accountId?: string; role?: Role; email?: string; password?: string } = {},
): Promise<TestUser> {
  const email = options.email ?? `person-${process.pid}-${++counter}@example.com`;
  const { token: setupToken } = await app.services.setup.issueToken({
    accountId: options.accountId,
    role: options.role,
  });
  const res = await app.request('POST', '/v1/setup', {
    body: {
      token: setupToken,
      email,
      display_name: `Person ${counter}`,
      password: options.password ?? STRONG_PASSWORD,
      workspace_name: `Workspace ${counter}`,
    },
  });
  expect(res.status, res.text).toBe(201);
  const { token } = sessionCookieOf(res);
  return {
    id: res.body.user.id,
    email,
    token,
    csrf: res.body.csrf_token,
    workspaceId: options.accountId ?? res.body.workspaces[0].id,
    request: asUser(app, token, res.body.csrf_token),
  };
}
