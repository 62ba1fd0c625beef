// First run: with no user yet the server logs a one-time setup link, and `cli users
// create-owner` prints one from a shell (for an existing account, bound to an email). Each
// link creates an owner once, who is signed in.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDb, type TestDb } from '../support/db.ts';
import { runCli, startServer, stopServerTree } from '../support/process.ts';
import { STRONG_PASSWORD } from '../support/users.ts';

let testDb: TestDb;
beforeAll(async () => {
  testDb = await createTestDb();
});
afterAll(() => testDb.destroy());

const setup = (url: string, body: Record<string, unknown>) =>
  fetch(`${url}/v1/setup`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ display_name: 'Owner', password: STRONG_PASSWORD, ...body }),
  });
const tokenOf = (link: string) => new URL(link).searchParams.get('token')!;

describe('first run', { timeout: 120_000 }, () => {
  it('the server logs a setup link while no user exists; the CLI prints one for an account and an email', async () => {
    const server = await startServer({ DATABASE_URL: testDb.url, PUBLIC_BASE_URL: 'http://qr.test' });
    try {
      const [, link] = await server.waitForLog(/"setup_url":"([^"]+)"/);
      expect(link).toMatch(/^http:\/\/qr\.test\/dashboard\/setup\?token=qrsetup_/);
      const first = await setup(server.url, { token: tokenOf(link!), email: 'founder@example.com' });
      expect(first.status, await first.clone().text()).toBe(201);
      expect(first.headers.getSetCookie()[0]).toMatch(/^qr_session=qrs_/);
      const again = await setup(server.url, { token: tokenOf(link!), email: 'second@example.com' });
      expect(again.status).toBe(401);

      const env = { DATABASE_URL: testDb.url, PUBLIC_BASE_URL: 'http://qr.test' };
      expect((await runCli(['keys', 'create', '--account', 'agency'], env)).code).toBe(0);
      const cli = await runCli(['users', 'create-owner', '--email', 'Boss@Example.com', '--account', 'agency'], env);
      expect(cli.code, cli.stderr).toBe(0);
      const cliLink = cli.stdout.trim().split('\n').at(-1)!;
      expect(cli.stderr).toContain("owner of 'agency'");
      const otherEmail = await setup(server.url, { token: tokenOf(cliLink), email: 'intruder@example.com' });
      expect(otherEmail.status).toBe(422);
      const joined = await setup(server.url, { token: tokenOf(cliLink), email: 'boss@example.com' });
      expect(joined.status).toBe(201);
      const body = (await joined.json()) as { workspaces: { name: string; role: string }[] };
      expect(body.workspaces).toEqual([expect.objectContaining({ name: 'agency', role: 'owner' })]);
      expect((await runCli(['users', 'create-owner', '--email', 'x@example.com', '--account', 'nope'], env)).code).toBe(
        1,
      );
      expect((await runCli(['users', 'create-owner'], env)).code).toBe(2);
    } finally {
      await stopServerTree(server);
    }
  });
});
