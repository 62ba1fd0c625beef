// Coherence across instances: two real server processes (src/main.ts) on one database. A change
// made through A must reach B's caches within 1 s with REDIS_URL. Both run with 60 s cache TTLs
// (codes and keys), so only the invalidation can explain B seeing a change sooner; B's caches are
// warmed first, then the change is made on A and B polled every 10 ms. Without REDIS_URL, B stays
// stale until its entry's TTL runs out, as the README says.
import { randomBytes } from 'node:crypto';
import { rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SUBSCRIBER_NAME } from '../../src/shared/invalidation.ts';
import { createTestDb, type TestDb } from '../support/db.ts';
import { authorize, basic, consent, pkce, postForm } from '../support/oauth.ts';
import { callServer as call, cliKey, startServer, type ServerProcess } from '../support/process.ts';

const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
const LONG_TTL = '60000';
const LIMIT_MS = 1000;
const POLL_MS = 10;
const REDIRECT_URI = 'http://127.0.0.1:9/callback';

let testDb: TestDb;
const keysFile = join(tmpdir(), `qr-coherence-keys-${randomBytes(6).toString('hex')}.json`);

beforeAll(async () => {
  testDb = await createTestDb({ migrate: false });
});
afterAll(async () => {
  await testDb.destroy();
  rmSync(keysFile, { force: true });
});

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/**
 * A and B on the test database, A first (it migrates). They share the OAuth keys file and the
 * issuer (A's URL), so a token A issues verifies on B, as it would behind one load balancer.
 */
async function startPair(env: Record<string, string>): Promise<[ServerProcess, ServerProcess]> {
  const port = await freePort();
  const shared = {
    DATABASE_URL: testDb.url,
    OAUTH_KEYS_FILE: keysFile,
    PUBLIC_BASE_URL: `http://127.0.0.1:${port}`,
    // Polling must never be refused.
    RATE_LIMIT_PER_MINUTE: '0',
    SCAN_RATE_LIMIT_PER_MINUTE: '0',
    WEBHOOK_WORKER: 'false',
    ...env,
  };
  const a = await startServer({ ...shared, PORT: String(port) });
  try {
    return [a, await startServer(shared)];
  } catch (err) {
    a.child.kill('SIGKILL');
    throw err;
  }
}

async function stop(...servers: ServerProcess[]): Promise<void> {
  for (const server of servers) server.child.kill('SIGTERM');
  await Promise.all(servers.map((server) => server.exited));
}

const newKey = (account: string) => cliKey(testDb.url, account);

/** Where B sends a scan of `slug` right now: the Location, or the status when it is no redirect. */
async function scan(server: ServerProcess, slug: string, headers: Record<string, string> = {}): Promise<string> {
  const res = await fetch(`${server.url}/${slug}`, { redirect: 'manual', headers });
  await res.arrayBuffer();
  return res.status === 302 ? res.headers.get('location')! : String(res.status);
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Milliseconds until `check` holds, polling every `pollMs`; Infinity once `giveUpMs` passed. */
async function timeUntil(check: () => Promise<boolean>, giveUpMs = 3000, pollMs = POLL_MS): Promise<number> {
  const start = performance.now();
  for (;;) {
    if (await check()) return performance.now() - start;
    if (performance.now() - start > giveUpMs) return Infinity;
    await sleep(pollMs);
  }
}

async function newCode(server: ServerProcess, key: string, body: Record<string, unknown> = {}) {
  const created = await call(server, key, 'POST', '/v1/codes', { content: 'https://example.com/before', ...body });
  expect(created.status, created.text).toBe(201);
  // The create's own invalidation reaches B too: let it land before B is warmed, so that only the
  // change under test can drop B's entry afterwards.
  await sleep(200);
  return { id: created.body.id as string, slug: new URL(created.body.scan_url).pathname.slice(1) };
}

const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;

describe('with REDIS_URL: a change on A reaches B within 1 s', () => {
  let a: ServerProcess;
  let b: ServerProcess;
  let key: string;

  beforeAll(async () => {
    key = await newKey('coherence');
    [a, b] = await startPair({ REDIS_URL, CODE_CACHE_TTL_MS: LONG_TTL, API_KEY_CACHE_TTL_MS: LONG_TTL });
    // B listens for invalidations before it is warmed; otherwise a message could pass unseen.
    expect(
      await timeUntil(async () => [a, b].every((s) => s.logs().includes('Cache invalidation subscribed')), 5000),
    ).toBeLessThan(Infinity);
  }, 60_000);
  afterAll(() => stop(a, b));

  it('a destination change', async () => {
    const code = await newCode(a, key);
    expect(await scan(b, code.slug)).toBe('https://example.com/before');
    expect(
      (await call(a, key, 'PATCH', `/v1/codes/${code.id}`, { destination: 'https://example.com/after' })).status,
    ).toBe(200);
    expect(await timeUntil(async () => (await scan(b, code.slug)) === 'https://example.com/after')).toBeLessThan(
      LIMIT_MS,
    );
  });

  it('a routing change', async () => {
    const code = await newCode(a, key);
    const german = { 'accept-language': 'de-DE,de;q=0.9' };
    expect(await scan(b, code.slug, german)).toBe('https://example.com/before');
    const put = await call(a, key, 'PUT', `/v1/codes/${code.id}/routing`, {
      enabled: true,
      rules: [{ condition: 'language:de', destination: 'https://example.de/' }],
    });
    expect(put.status, put.text).toBe(200);
    expect(await timeUntil(async () => (await scan(b, code.slug, german)) === 'https://example.de/')).toBeLessThan(
      LIMIT_MS,
    );
  });

  it('a design change: B renders the new image', async () => {
    const code = await newCode(a, key);
    const etag = async () => (await call(b, key, 'GET', `/v1/codes/${code.id}/image`)).headers.get('etag');
    const before = await etag();
    expect(before).toBeTruthy();
    expect((await call(a, key, 'PATCH', `/v1/codes/${code.id}`, { design: { fg_color: '#1a237e' } })).status).toBe(200);
    expect(await timeUntil(async () => (await etag()) !== before)).toBeLessThan(LIMIT_MS);
  });

  it('a delete: the slug answers 404 on B', async () => {
    const code = await newCode(a, key);
    expect(await scan(b, code.slug)).toBe('https://example.com/before');
    expect((await call(a, key, 'DELETE', `/v1/codes/${code.id}`)).status).toBe(204);
    expect(await timeUntil(async () => (await scan(b, code.slug)) === '404')).toBeLessThan(LIMIT_MS);
  });

  it('a key revoked on A is refused by B', async () => {
    const created = await call(a, key, 'POST', '/v1/api-keys', { name: 'to revoke', scopes: ['codes:read'] });
    expect(created.status, created.text).toBe(201);
    const secret = created.body.key as string;
    expect((await call(b, secret, 'GET', '/v1/codes')).status).toBe(200);
    expect((await call(a, key, 'DELETE', `/v1/api-keys/${created.body.id}`)).status).toBe(204);
    expect(await timeUntil(async () => (await call(b, secret, 'GET', '/v1/codes')).status === 401)).toBeLessThan(
      LIMIT_MS,
    );
  });

  it('a key rotated on A with grace_period_seconds 0: B refuses the old key', async () => {
    const created = await call(a, key, 'POST', '/v1/api-keys', { name: 'to rotate', scopes: ['codes:read'] });
    const secret = created.body.key as string;
    expect((await call(b, secret, 'GET', '/v1/codes')).status).toBe(200);
    const rotated = await call(a, key, 'POST', `/v1/api-keys/${created.body.id}/rotate`, { grace_period_seconds: 0 });
    expect(rotated.status, rotated.text).toBe(201);
    expect(await timeUntil(async () => (await call(b, secret, 'GET', '/v1/codes')).status === 401)).toBeLessThan(
      LIMIT_MS,
    );
    expect((await call(b, rotated.body.key, 'GET', '/v1/codes')).status).toBe(200);
  });

  it('an OAuth client deleted on A: B refuses its client-credentials token', async () => {
    const client = await call(a, key, 'POST', '/v1/oauth-clients', {
      name: 'job',
      scopes: ['codes:read'],
      grant_types: ['client_credentials'],
    });
    expect(client.status, client.text).toBe(201);
    const token = await postForm(
      `${a.url}/oauth/token`,
      { grant_type: 'client_credentials', scope: 'codes:read' },
      { authorization: basic(client.body.client_id, client.body.client_secret) },
    );
    expect(token.status, token.text).toBe(200);
    const bearer = token.body.access_token as string;
    expect((await call(b, bearer, 'GET', '/v1/codes')).status).toBe(200);
    expect((await call(a, key, 'DELETE', `/v1/oauth-clients/${client.body.client_id}`)).status).toBe(204);
    expect(await timeUntil(async () => (await call(b, bearer, 'GET', '/v1/codes')).status === 401)).toBeLessThan(
      LIMIT_MS,
    );
  });

  it('a grant withdrawn on A: B refuses the access tokens issued under it', async () => {
    const client = await call(a, key, 'POST', '/v1/oauth-clients', {
      name: 'app',
      scopes: ['codes:read'],
      grant_types: ['authorization_code'],
      redirect_uris: [REDIRECT_URI],
    });
    expect(client.status, client.text).toBe(201);
    const { verifier, challenge } = pkce();
    const { jar, consentUrl } = await authorize(a.url, {
      clientId: client.body.client_id,
      scope: 'codes:read',
      challenge,
      redirectUri: REDIRECT_URI,
    });
    const { final } = await consent(a.url, jar, consentUrl, [
      ['api_key', key],
      ['scope', 'codes:read'],
      ['decision', 'approve'],
    ]);
    const tokens = await postForm(
      `${a.url}/oauth/token`,
      {
        grant_type: 'authorization_code',
        code: final!.searchParams.get('code')!,
        redirect_uri: REDIRECT_URI,
        code_verifier: verifier,
      },
      { authorization: basic(client.body.client_id, client.body.client_secret) },
    );
    expect(tokens.status, tokens.text).toBe(200);
    const bearer = tokens.body.access_token as string;
    expect((await call(b, bearer, 'GET', '/v1/codes')).status).toBe(200);
    const [grant] = (await call(a, key, 'GET', '/v1/oauth-grants')).body.data;
    expect((await call(a, key, 'DELETE', `/v1/oauth-grants/${grant.id}`)).status).toBe(204);
    expect(await timeUntil(async () => (await call(b, bearer, 'GET', '/v1/codes')).status === 401)).toBeLessThan(
      LIMIT_MS,
    );
  });

  it('a missed message: when B resubscribes after losing Redis, it drops its caches', async () => {
    const code = await newCode(a, key);
    expect(await scan(b, code.slug)).toBe('https://example.com/before');
    // A change nobody announces (as if its message were lost), then both lose their subscription.
    await testDb.db('codes').where({ id: code.id }).update({ content: 'https://example.com/unannounced' });
    expect(await scan(b, code.slug)).toBe('https://example.com/before');
    const redis = new Redis(REDIS_URL);
    try {
      const subscribedBefore = b.logs().split('Cache invalidation subscribed').length;
      // Every bus's subscriber (other test files' too: for them it only empties caches).
      const list = (await redis.client('LIST')) as string;
      const ids = list
        .split('\n')
        .filter((line) => line.includes(`name=${SUBSCRIBER_NAME} `))
        .map((line) => /\bid=(\d+)/.exec(line)![1]!);
      expect(ids.length).toBeGreaterThanOrEqual(2);
      for (const id of ids) await redis.client('KILL', 'ID', id);
      expect(
        await timeUntil(async () => b.logs().split('Cache invalidation subscribed').length > subscribedBefore, 5000),
      ).toBeLessThan(Infinity);
    } finally {
      redis.disconnect();
    }
    expect(await scan(b, code.slug)).toBe('https://example.com/unannounced');
  });

  it('propagation latency over 50 destination changes and 25 key revocations (printed, p99 under 1 s)', async () => {
    const code = await newCode(a, key);
    const changes: number[] = [];
    for (let i = 0; i < 50; i++) {
      const destination = `https://example.com/v${i}`;
      // Warm B on the current destination, so each change replaces a cached entry.
      await scan(b, code.slug);
      expect((await call(a, key, 'PATCH', `/v1/codes/${code.id}`, { destination })).status).toBe(200);
      changes.push(await timeUntil(async () => (await scan(b, code.slug)) === destination, 3000, 2));
    }
    const revocations: number[] = [];
    for (let i = 0; i < 25; i++) {
      const created = await call(a, key, 'POST', '/v1/api-keys', { name: `lat ${i}`, scopes: ['codes:read'] });
      const secret = created.body.key as string;
      expect((await call(b, secret, 'GET', '/v1/codes?limit=1')).status).toBe(200);
      expect((await call(a, key, 'DELETE', `/v1/api-keys/${created.body.id}`)).status).toBe(204);
      revocations.push(
        await timeUntil(async () => (await call(b, secret, 'GET', '/v1/codes?limit=1')).status === 401, 3000, 2),
      );
    }
    const summary = (name: string, samples: number[]) => {
      const sorted = [...samples].sort((x, y) => x - y);
      return {
        name,
        n: sorted.length,
        p50: +percentile(sorted, 50).toFixed(1),
        p99: +percentile(sorted, 99).toFixed(1),
        max: +sorted.at(-1)!.toFixed(1),
      };
    };
    const results = [
      summary('destination change -> B redirects to it', changes),
      summary('key revocation -> B answers 401', revocations),
    ];
    console.info(
      `coherence latency (${testDb.dialect}, ms from A's answer to B's first new answer, polled every 2 ms): ` +
        `${JSON.stringify(results)}`,
    );
    for (const r of results) expect(r.p99).toBeLessThan(LIMIT_MS);
  }, 120_000);
});

describe('without REDIS_URL: B sees a change when its cached entry expires (CODE_CACHE_TTL_MS)', () => {
  const TTL = 2000;
  let a: ServerProcess;
  let b: ServerProcess;
  let key: string;

  beforeAll(async () => {
    key = await newKey('coherence-ttl');
    [a, b] = await startPair({ CODE_CACHE_TTL_MS: String(TTL), API_KEY_CACHE_TTL_MS: String(TTL) });
  }, 60_000);
  afterAll(() => stop(a, b));

  it('keeps redirecting to the old destination until the entry B cached ages out', async () => {
    const code = await newCode(a, key);
    const cachedAt = performance.now();
    expect(await scan(b, code.slug)).toBe('https://example.com/before');
    expect(
      (await call(a, key, 'PATCH', `/v1/codes/${code.id}`, { destination: 'https://example.com/after' })).status,
    ).toBe(200);
    expect(await scan(b, code.slug)).toBe('https://example.com/before');
    await timeUntil(async () => (await scan(b, code.slug)) === 'https://example.com/after', TTL + 2000);
    const seenAfter = performance.now() - cachedAt;
    expect(seenAfter).toBeGreaterThan(TTL - 100);
    expect(seenAfter).toBeLessThan(TTL + 1000);
  });
});
