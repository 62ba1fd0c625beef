// bench:session: what authenticating a request by session cookie costs against a bearer API key,
// measured at the edge's resolver (no HTTP around it): the key path is the accounts module's
// cached lookup; the session path resolves the session, its user and the membership, cached for
// SESSION_CACHE_TTL_MS (SESSION_CACHE_TTL_MS=0 measures the database reads on every request).
// Runs on SQLite unless DATABASE_URL names a MySQL/MariaDB server (a fresh database either way).
// Usage: [SESSION_CACHE_TTL_MS=0] npm run bench:session [-- --requests 20000]
import { parseArgs } from 'node:util';
import { loadConfig } from '../src/config.ts';
import { bearerAuthenticator } from '../src/http/auth.ts';
import { createLogger } from '../src/logger.ts';
import { createServices } from '../src/services.ts';
import { createTestDb } from '../test/support/db.ts';

const { values } = parseArgs({ options: { requests: { type: 'string', default: '20000' } } });
const REQUESTS = Number(values.requests);

const testDb = await createTestDb();
const config = loadConfig({ ...process.env, DATABASE_URL: testDb.url, LOG_LEVEL: 'silent', NODE_ENV: 'production' });
const services = await createServices(testDb.db, config, createLogger(config));

const { key, accountId } = await services.accounts.issueKey('bench-session');
const { token: setupToken } = await services.setup.issueToken({ accountId });
const { token } = await services.setup.complete(
  { token: setupToken, email: 'bench@example.com', display_name: 'Bench', password: 'tangerine orbit canvas 42' },
  { userAgent: 'bench', addressHash: null },
);

const bearer = bearerAuthenticator(services);
const { resolver } = services.sessionEdge;
const bySession = async () => {
  const signedIn = await resolver.session(token);
  return resolver.principal(signedIn!.userId, accountId);
};

/** Microseconds per call, sorted, after a warm-up of a tenth of the calls. */
async function time(check: () => Promise<unknown>): Promise<number[]> {
  for (let i = 0; i < REQUESTS / 10; i++) await check();
  const samples: number[] = [];
  for (let i = 0; i < REQUESTS; i++) {
    const started = process.hrtime.bigint();
    await check();
    samples.push(Number(process.hrtime.bigint() - started) / 1000);
  }
  return samples.sort((a, b) => a - b);
}

const summary = (samples: number[]) => {
  const at = (q: number) => samples[Math.min(samples.length - 1, Math.floor(q * samples.length))]!.toFixed(1);
  const mean = samples.reduce((sum, s) => sum + s, 0) / samples.length;
  return { mean: mean.toFixed(1), p50: at(0.5), p90: at(0.9), p99: at(0.99) };
};

const keyTimes = summary(await time(() => bearer(key)));
const sessionTimes = summary(await time(bySession));
console.log(`engine: ${testDb.url.split(':')[0]}, ${REQUESTS} checks each, µs per check`);
const sessionLabel = config.sessionCacheTtlMs > 0 ? 'session cookie (cached)' : 'session cookie (database)';
console.table({ 'bearer API key (cached)': keyTimes, [sessionLabel]: sessionTimes });
console.log(`a session check adds ${(Number(sessionTimes.mean) - Number(keyTimes.mean)).toFixed(1)} µs on average`);

await services.close();
await testDb.destroy();
