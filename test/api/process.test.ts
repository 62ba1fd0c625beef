// The real entry points: the key CLI, `npm start`'s main.ts, and graceful shutdown.
import { Agent, request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDb, type TestDb } from '../support/db.ts';
import { runCli, startServer } from '../support/process.ts';

let testDb: TestDb;

beforeAll(async () => {
  testDb = await createTestDb({ migrate: false });
});
afterAll(() => testDb.destroy());

describe('cli keys create', () => {
  it('creates account and key on a fresh database and prints the key alone on stdout', async () => {
    const res = await runCli(['keys', 'create', '--account', 'acme'], { DATABASE_URL: testDb.url });
    expect(res.code, res.stderr).toBe(0);
    // `KEY=$(npm run --silent cli -- keys create ...)` captures exactly the key; the rest is on stderr.
    expect(res.stdout).toMatch(/^qrk_[0-9A-Za-z]{40}\n$/);
    expect(res.stderr).toContain("for account 'acme'");
    expect(await testDb.db('accounts').where({ name: 'acme' })).toHaveLength(1);
  });

  it('exits non-zero with usage when --account is missing', async () => {
    const res = await runCli(['keys', 'create'], { DATABASE_URL: testDb.url });
    expect(res.code).toBe(2);
    expect(res.stderr).toContain('--account');
  });
});

describe('cli exit codes: a failure is never an exit 0', () => {
  it.each([
    ['an unknown command', ['keys', 'revoke'], /Usage:/],
    ['no command', [], /Usage:/],
    ['an unknown option', ['keys', 'create', '--acount', 'acme'], /Unknown option '--acount'[\s\S]*Usage:/],
    ['a missing option value', ['keys', 'create', '--account'], /--account[\s\S]*Usage:/],
  ])('%s: exit 2 with the usage, nothing on stdout', async (_case, args, said) => {
    const res = await runCli(args, { DATABASE_URL: testDb.url });
    expect(res.code, res.stderr).toBe(2);
    expect(res.stderr).toMatch(said);
    expect(res.stdout).toBe('');
  });

  it('a database it cannot reach: exit 1 naming why, no key', async () => {
    // Port 9 (discard) has no MySQL on loopback: the connection is refused at once.
    const res = await runCli(['keys', 'create', '--account', 'acme'], {
      DATABASE_URL: 'mysql://root@127.0.0.1:9/qr',
    });
    expect(res.code).toBe(1);
    expect(res.stderr).toMatch(/ECONNREFUSED/);
    expect(res.stdout).toBe('');
  });

  it('a configuration it refuses: exit 1 naming the setting', async () => {
    const res = await runCli(['migrate'], { DATABASE_URL: testDb.url, PORT: 'eighty' });
    expect(res.code).toBe(1);
    expect(res.stderr).toContain('PORT');
  });
});

describe('main.ts', () => {
  it('serves with a CLI-made key and finishes an in-flight request on SIGTERM before exiting', async () => {
    const key = (await runCli(['keys', 'create', '--account', 'shutdown'], { DATABASE_URL: testDb.url })).stdout
      .trim()
      .split('\n')
      .at(-1)!;
    const server = await startServer({ DATABASE_URL: testDb.url, PUBLIC_BASE_URL: 'http://qr.test' });
    try {
      const health = await fetch(`${server.url}/healthz`);
      expect(health.status).toBe(200);

      // Start a request, send half of its body, then SIGTERM; the rest follows after the signal.
      const body = JSON.stringify({ content: 'https://example.com/in-flight' });
      const half = Math.floor(body.length / 2);
      const response = new Promise<{ status: number; text: string }>((resolve, reject) => {
        const req = request(`${server.url}/v1/codes`, {
          method: 'POST',
          headers: {
            authorization: `Bearer ${key}`,
            'content-type': 'application/json',
            'content-length': String(body.length),
          },
        });
        req.on('response', (res) => {
          let text = '';
          res.on('data', (d) => (text += d));
          res.on('end', () => resolve({ status: res.statusCode!, text }));
        });
        req.on('error', reject);
        req.write(body.slice(0, half));
        setTimeout(() => {
          server.child.kill('SIGTERM');
          setTimeout(() => req.end(body.slice(half)), 300);
        }, 100);
      });

      const answered = await response;
      expect(answered.status, answered.text).toBe(201);
      expect(await server.exited).toBe(0);
      const logs = server.logs();
      expect(logs).toContain('"msg":"stopped"');
      // The request was still in flight when the signal arrived, and was answered after it.
      expect(logs.indexOf('shutting down')).toBeGreaterThan(-1);
      expect(logs.indexOf('"path":"/v1/codes"')).toBeGreaterThan(logs.indexOf('shutting down'));
      const stored = await testDb.db('codes').where({ content: 'https://example.com/in-flight' });
      expect(stored).toHaveLength(1);
    } finally {
      server.child.kill('SIGKILL');
    }
  });
});

describe('draining for a rolling restart (SHUTDOWN_DRAIN_MS)', () => {
  /** One request on a fresh keep-alive connection: status and the Connection header. */
  const probe = (url: string) =>
    new Promise<{ status: number; connection: string | undefined }>((resolve, reject) => {
      const agent = new Agent({ keepAlive: true });
      request(url, { agent }, (res) => {
        res.resume();
        res.on('end', () => {
          agent.destroy();
          resolve({ status: res.statusCode!, connection: res.headers.connection });
        });
      })
        .on('error', reject)
        .end();
    });

  it('answers /readyz 503 and asks clients to reconnect while still serving, then closes and exits 0', async () => {
    const server = await startServer({ DATABASE_URL: testDb.url, SHUTDOWN_DRAIN_MS: '1500' });
    try {
      expect((await probe(`${server.url}/readyz`)).status).toBe(200);
      expect((await probe(`${server.url}/healthz`)).connection).toBe('keep-alive');
      server.child.kill('SIGTERM');
      await server.waitForLog(/"msg":"draining/);
      expect(await probe(`${server.url}/readyz`)).toEqual({ status: 503, connection: 'close' });
      // Still answering meanwhile: a load balancer may send one more request before it notices.
      expect(await probe(`${server.url}/healthz`)).toEqual({ status: 200, connection: 'close' });
      expect(await server.exited).toBe(0);
      // The listener closed only after the drain.
      expect(server.logs().indexOf('shutting down')).toBeGreaterThan(server.logs().indexOf('draining'));
    } finally {
      server.child.kill('SIGKILL');
    }
  });
});

describe('scan durability', () => {
  it('fires N scans, SIGTERM, start again: exactly N are stored', async () => {
    const key = (await runCli(['keys', 'create', '--account', 'durability'], { DATABASE_URL: testDb.url })).stdout
      .trim()
      .split('\n')
      .at(-1)!;
    // A flush interval longer than the test: only the shutdown drain can write these scans.
    const env = { DATABASE_URL: testDb.url, SCAN_FLUSH_INTERVAL_MS: '60000', SCAN_BATCH_SIZE: '10000' };
    const first = await startServer(env);
    let codeId: string;
    try {
      const created = await fetch(`${first.url}/v1/codes`, {
        method: 'POST',
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
        body: JSON.stringify({ content: 'https://example.com/durable' }),
      });
      const code = await created.json();
      codeId = code.id;
      const path = new URL(code.scan_url).pathname;
      const N = 300;
      let redirects = 0;
      for (let i = 0; i < N; i += 50) {
        const answers = await Promise.all(
          Array.from({ length: 50 }, () => fetch(first.url + path, { redirect: 'manual' })),
        );
        redirects += answers.filter((a) => a.status === 302).length;
      }
      expect(redirects).toBe(N);
      expect(await testDb.db('scans').where({ code_id: codeId })).toHaveLength(0);
      first.child.kill('SIGTERM');
      expect(await first.exited).toBe(0);
    } finally {
      first.child.kill('SIGKILL');
    }
    const second = await startServer(env);
    try {
      expect((await fetch(`${second.url}/readyz`)).status).toBe(200);
      expect(await testDb.db('scans').where({ code_id: codeId })).toHaveLength(300);
    } finally {
      second.child.kill('SIGTERM');
      await second.exited;
    }
  });
});
