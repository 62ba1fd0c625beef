// GET /metrics (Prometheus): off by default, behind METRICS_TOKEN on the main port, or on its
// own token-free port (METRICS_PORT). Counts are checked exactly, as differences between two
// scrapes of the same app.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getTestApp, type TestApp } from '../support/app.ts';
import { createTestDb, type TestDb } from '../support/db.ts';
import { createCode } from '../support/factories.ts';
import { startServer } from '../support/process.ts';
import { startReceiver, type Receiver } from '../support/webhook-receiver.ts';

const TOKEN = 'test-metrics-token-0123456789';
const PROMETHEUS_TEXT = 'text/plain; version=0.0.4; charset=utf-8';

interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

const SAMPLE = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (\S+)$/;
const LABEL = /([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"/g;

/** As Prometheus reads a value (Go's ParseFloat): Inf and NaN in any case; prom-client writes `Nan`. */
function parseValue(text: string): number {
  if (/^[+-]?inf$/i.test(text)) return text.startsWith('-') ? -Infinity : Infinity;
  if (/^nan$/i.test(text)) return NaN;
  const value = Number(text);
  if (Number.isNaN(value)) throw new Error(`not a number: ${text}`);
  return value;
}

/** The text exposition as samples; throws on any line that is neither a comment nor a sample. */
function parseExposition(text: string): Sample[] {
  const samples: Sample[] = [];
  for (const line of text.split('\n')) {
    if (line === '' || line.startsWith('# HELP ') || line.startsWith('# TYPE ')) continue;
    const match = SAMPLE.exec(line);
    if (!match) throw new Error(`not a sample line: ${line}`);
    const value = parseValue(match[3]!);
    const labels = Object.fromEntries([...(match[2] ?? '').matchAll(LABEL)].map((m) => [m[1]!, m[2]!]));
    samples.push({ name: match[1]!, labels, value });
  }
  return samples;
}

/** The value of the sample with exactly these labels, or 0 when there is none (a counter not yet touched). */
function valueOf(samples: Sample[], name: string, labels: Record<string, string> = {}): number {
  const wanted = Object.entries(labels);
  const found = samples.find(
    (s) =>
      s.name === name && Object.keys(s.labels).length === wanted.length && wanted.every(([k, v]) => s.labels[k] === v),
  );
  return found?.value ?? 0;
}

async function scrape(app: TestApp): Promise<Sample[]> {
  const res = await app.request('GET', '/metrics', { key: TOKEN });
  expect(res.status, res.text).toBe(200);
  return parseExposition(res.text);
}

/** Runs `action` between two scrapes; returns what changed of a sample, by name and labels. */
async function deltas(app: TestApp, action: () => Promise<void>) {
  const before = await scrape(app);
  await action();
  const after = await scrape(app);
  return (name: string, labels: Record<string, string> = {}) =>
    valueOf(after, name, labels) - valueOf(before, name, labels);
}

const requests = (method: string, route: string, status: number) => ({ method, route, status: String(status) });

describe('without METRICS_TOKEN or METRICS_PORT', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await getTestApp();
  });
  afterAll(() => app.close());

  it('does not serve /metrics: 404, with or without a token', async () => {
    const res = await app.request('GET', '/metrics');
    expect(res.status).toBe(404);
    expect(res.headers.get('content-type')).toContain('application/problem+json');
    expect((await app.request('GET', '/metrics', { key: TOKEN })).status).toBe(404);
  });
});

describe('with METRICS_TOKEN', () => {
  let app: TestApp;
  let key: string;

  beforeAll(async () => {
    // Scans stay buffered until a test flushes them, so the buffer's depth is known. Retries
    // have no delay, so a failing delivery runs its whole schedule at once.
    app = await getTestApp({
      METRICS_TOKEN: TOKEN,
      SCAN_FLUSH_INTERVAL_MS: '60000',
      ALLOW_PRIVATE_NETWORK_TARGETS: 'true',
      WEBHOOK_RETRY_SCALE: '0',
      WEBHOOK_POLL_INTERVAL_MS: '20',
    });
    app.services.webhookWorker.start();
    key = await app.newAccountKey();
  });
  afterAll(() => app.close());

  it('answers 401 problem+json without the token, with a wrong one, or with another scheme', async () => {
    const attempts: Record<string, string>[] = [
      {},
      { authorization: `Bearer ${TOKEN.slice(0, -1)}x` },
      { authorization: 'Bearer short' },
      { authorization: `Basic ${TOKEN}` },
    ];
    for (const headers of attempts) {
      const res = await app.request('GET', '/metrics', { headers });
      expect(res.status).toBe(401);
      expect(res.headers.get('content-type')).toContain('application/problem+json');
      expect(res.headers.get('www-authenticate')).toContain('Bearer');
      expect(res.body.detail).toContain('METRICS_TOKEN');
      expect(res.text).not.toContain('http_requests_total');
    }
  });

  it('serves the Prometheus text format with the token: every line parses, process metrics included', async () => {
    const res = await app.request('GET', '/metrics', { key: TOKEN });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe(PROMETHEUS_TEXT);
    for (const line of [
      '# TYPE http_requests_total counter',
      '# TYPE http_request_duration_seconds histogram',
      '# TYPE scans_recorded_total counter',
      '# TYPE scan_buffer_depth gauge',
      '# TYPE webhook_deliveries_total counter',
      '# TYPE db_pool_connections gauge',
      '# TYPE db_pool_pending_acquires gauge',
      '# TYPE process_cpu_user_seconds_total counter',
      '# TYPE nodejs_eventloop_lag_seconds gauge',
    ]) {
      expect(res.text).toContain(line);
    }
    const samples = parseExposition(res.text);
    expect(samples.find((s) => s.name === 'nodejs_version_info')?.labels.version).toBe(process.version);
    // Every delivery outcome is there from the start, before any delivery.
    for (const outcome of ['succeeded', 'retrying', 'failed'])
      expect(res.text).toContain(`webhook_deliveries_total{outcome="${outcome}"} 0\n`);
  });

  it('counts REST, GraphQL and OAuth requests under their route templates, never raw paths', async () => {
    let codeId = '';
    const changed = await deltas(app, async () => {
      codeId = (await createCode(app, key)).id;
      await createCode(app, key);
      expect((await app.request('POST', '/v1/codes', { key, body: {} })).status).toBe(422);
      expect((await app.request('GET', `/v1/codes/${codeId}`, { key })).status).toBe(200);
      expect((await app.request('GET', '/v1/codes/code_doesnotexist', { key })).status).toBe(404);
      expect((await app.request('GET', '/v1/codes')).status).toBe(401);
      expect((await app.request('DELETE', '/healthz')).status).toBe(405);
      expect((await app.request('GET', '/no/such/route')).status).toBe(404);
      expect((await app.graphql(key, '{ codes(first: 1) { edges { cursor } } }')).status).toBe(200);
      expect((await app.request('GET', '/oauth/.well-known/openid-configuration')).status).toBe(200);
    });
    expect(changed('http_requests_total', requests('POST', '/v1/codes', 201))).toBe(2);
    expect(changed('http_requests_total', requests('POST', '/v1/codes', 422))).toBe(1);
    expect(changed('http_requests_total', requests('GET', '/v1/codes/:id', 200))).toBe(1);
    expect(changed('http_requests_total', requests('GET', '/v1/codes/:id', 404))).toBe(1);
    expect(changed('http_requests_total', requests('GET', '/v1/codes', 401))).toBe(1);
    expect(changed('http_requests_total', requests('DELETE', '/healthz', 405))).toBe(1);
    expect(changed('http_requests_total', requests('GET', 'unmatched', 404))).toBe(1);
    expect(changed('http_requests_total', requests('POST', '/graphql', 200))).toBe(1);
    expect(changed('http_requests_total', requests('GET', '/oauth/*', 200))).toBe(1);
    // The first scrape, counted once it was answered.
    expect(changed('http_requests_total', requests('GET', '/metrics', 200))).toBe(1);

    const after = await scrape(app);
    const routes = new Set(after.filter((s) => s.name === 'http_requests_total').map((s) => s.labels.route));
    expect(
      [...routes].some(
        (route) => route!.includes(codeId) || route!.includes('doesnotexist') || route!.includes('/no/such'),
      ),
    ).toBe(false);
    // The histogram has the same label sets; its +Inf bucket and count equal the counter.
    const labels = requests('POST', '/v1/codes', 201);
    const count = valueOf(after, 'http_request_duration_seconds_count', labels);
    expect(count).toBe(valueOf(after, 'http_requests_total', labels));
    expect(valueOf(after, 'http_request_duration_seconds_bucket', { ...labels, le: '+Inf' })).toBe(count);
    expect(valueOf(after, 'http_request_duration_seconds_sum', labels)).toBeGreaterThan(0);
  });

  it('counts scans answered by the lean scan route as /:slug, and scans recorded as their batch commits', async () => {
    const code = await createCode(app, key);
    const path = new URL(code.scan_url).pathname;
    await app.services.scans.recorder.flush();

    const answered = await deltas(app, async () => {
      for (let i = 0; i < 3; i++) expect((await app.request('GET', path)).status).toBe(302);
      expect((await app.request('HEAD', path)).status).toBe(302);
      expect((await app.request('GET', '/Zz00000000')).status).toBe(404);
    });
    expect(answered('http_requests_total', requests('GET', '/:slug', 302))).toBe(3);
    expect(answered('http_request_duration_seconds_count', requests('GET', '/:slug', 302))).toBe(3);
    expect(answered('http_requests_total', requests('HEAD', '/:slug', 302))).toBe(1);
    expect(answered('http_requests_total', requests('GET', '/:slug', 404))).toBe(1);
    // Answered, not yet written: HEAD is not a scan, and nothing has been flushed.
    expect(answered('scans_recorded_total')).toBe(0);
    expect(valueOf(await scrape(app), 'scan_buffer_depth')).toBe(3);

    const flushed = await deltas(app, () => app.services.scans.recorder.flush());
    expect(flushed('scans_recorded_total')).toBe(3);
    expect(flushed('scan_buffer_depth')).toBe(-3);
    expect(valueOf(await scrape(app), 'scan_buffer_depth')).toBe(0);
  });

  describe('webhook deliveries', () => {
    let receiver: Receiver;
    beforeAll(async () => {
      const seen = new Map<string, number>();
      receiver = await startReceiver((request) => {
        const n = (seen.get(request.path) ?? 0) + 1;
        seen.set(request.path, n);
        if (request.path === '/ok') return 200;
        if (request.path === '/flaky') return n === 1 ? 500 : 200;
        return 500;
      });
    });
    afterAll(() => receiver.close());

    it('counts every attempt recorded by its outcome: succeeded, retrying, failed', async () => {
      const owner = await app.newAccountKey();
      for (const path of ['/ok', '/flaky', '/dead']) {
        const res = await app.request('POST', '/v1/webhooks', {
          key: owner,
          body: { url: receiver.url(path), events: ['code.created'] },
        });
        expect(res.status, res.text).toBe(201);
      }
      const before = await scrape(app);
      await createCode(app, owner);
      // ok: 1 attempt; flaky: 2; dead: every attempt of the schedule (8), the last one final.
      await receiver.waitFor((rs) => rs.length === 11);
      const expected = { succeeded: 2, retrying: 1 + 7, failed: 1 };
      // An outcome is counted once its attempt is recorded, just after the receiver answered.
      const deadline = Date.now() + 10_000;
      let counted: typeof expected;
      do {
        await new Promise((resolve) => setTimeout(resolve, 20));
        const after = await scrape(app);
        const delta = (outcome: string) =>
          valueOf(after, 'webhook_deliveries_total', { outcome }) -
          valueOf(before, 'webhook_deliveries_total', { outcome });
        counted = { succeeded: delta('succeeded'), retrying: delta('retrying'), failed: delta('failed') };
      } while (counted.succeeded + counted.retrying + counted.failed < 11 && Date.now() < deadline);
      expect(counted).toEqual(expected);
    });
  });

  it('reports the database pool: connections by state and queries waiting', async () => {
    // A query just now, so that MySQL's pool (min 0) still holds its connection, idle.
    expect((await app.request('GET', '/readyz')).status).toBe(200);
    const samples = await scrape(app);
    const state = (s: string) => samples.filter((x) => x.name === 'db_pool_connections' && x.labels.state === s);
    for (const s of ['used', 'free', 'pending_create']) expect(state(s)).toHaveLength(1);
    const open =
      valueOf(samples, 'db_pool_connections', { state: 'used' }) +
      valueOf(samples, 'db_pool_connections', { state: 'free' });
    // SQLite has its one connection; MySQL has up to 10.
    expect(open).toBeGreaterThanOrEqual(1);
    expect(open).toBeLessThanOrEqual(app.testDb.dialect === 'sqlite' ? 1 : 10);
    expect(samples.some((s) => s.name === 'db_pool_pending_acquires')).toBe(true);
  });
});

describe('with METRICS_PORT (the real main.ts)', () => {
  let testDb: TestDb;
  beforeAll(async () => {
    testDb = await createTestDb({ migrate: false });
  });
  afterAll(() => testDb.destroy());

  it('serves /metrics on the internal port without a token, 404 on the main port; SIGTERM closes both', async () => {
    const server = await startServer({ DATABASE_URL: testDb.url, METRICS_PORT: '0' });
    try {
      const metricsUrl = /"metrics_url":"(http:\/\/[^"]+)"/.exec(server.logs())?.[1];
      expect(metricsUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/metrics$/);
      expect((await fetch(`${server.url}/healthz`)).status).toBe(200);

      const res = await fetch(metricsUrl!);
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toBe(PROMETHEUS_TEXT);
      const samples = parseExposition(await res.text());
      expect(valueOf(samples, 'http_requests_total', requests('GET', '/healthz', 200))).toBe(1);

      expect((await fetch(`${server.url}/metrics`)).status).toBe(404);
      expect((await fetch(`${server.url}/metrics`, { headers: { authorization: `Bearer ${TOKEN}` } })).status).toBe(
        404,
      );
      expect((await fetch(metricsUrl!.replace('/metrics', '/healthz'))).status).toBe(404);
    } finally {
      server.child.kill('SIGTERM');
    }
    expect(await server.exited).toBe(0);
  });
});
