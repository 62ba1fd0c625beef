// WEB_CONCURRENCY: real processes, nothing mocked. Which worker answered is read from the
// outside: the workers are the primary's children in the process tree (`ps --ppid`), and each
// worker's request log lines carry its pid, found by the X-Request-Id a probe sent.
// One cluster, started once on MariaDB, serves the tests in order: the last one stops it.
import { execFileSync } from 'node:child_process';
import { once } from 'node:events';
import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { Agent, createServer, request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.ts';
import { createTestDb, type TestDb } from '../support/db.ts';
import { runCli, startServer, type ServerProcess } from '../support/process.ts';

const onMysql = loadConfig().databaseUrl.startsWith('mysql://');
const METRICS_TOKEN = 'cluster-test-metrics-token-0123';

interface Answer {
  status: number;
  body: string;
  location?: string;
}

/**
 * One GET; without an agent, on a connection of its own (the primary hands each new connection
 * to the next worker). Given up after 2 s: a connection the primary handed to a worker that died
 * before taking it is never answered nor closed (node:cluster keeps it), as a client's timeout would.
 */
function get(url: string, headers: Record<string, string> = {}, agent: Agent | false = false): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = request(url, { headers, agent, timeout: 2000 }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (d) => (body += d));
      res.on('end', () => resolve({ status: res.statusCode!, body, location: res.headers.location }));
      res.on('error', reject);
    });
    req.on('timeout', () => req.destroy(new Error('no answer within 2 s')));
    req.on('error', reject);
    req.end();
  });
}

/** The pids of a process's children that run node, from the process tree (tsx may also run an esbuild child). */
function childPids(pid: number): number[] {
  try {
    const rows = execFileSync('ps', ['--ppid', String(pid), '-o', 'pid=,args='], { encoding: 'utf8' })
      .split('\n')
      .filter(Boolean);
    return rows
      .map((row) => /^\s*(\d+) (.*)$/.exec(row)!)
      .filter((m) => m[2]!.startsWith(`${process.execPath} `))
      .map((m) => Number(m[1]))
      .sort();
  } catch {
    return []; // ps exits 1 when there are none
  }
}

/** Pids on the request log lines of the requests whose X-Request-Id starts with `prefix`. */
function pidsThatAnswered(logs: string, prefix: string): number[] {
  const pids = new Set<number>();
  for (const line of logs.split('\n')) {
    if (!line.includes(`"req_id":"${prefix}`)) continue;
    const entry = JSON.parse(line) as { pid?: number; msg: string };
    if (entry.msg === 'request' && entry.pid !== undefined) pids.add(entry.pid);
  }
  return [...pids].sort();
}

/** Sends `count` probes, each on a new connection, and returns the pids that logged them. */
async function probe(server: ServerProcess, prefix: string, count = 8): Promise<number[]> {
  for (let i = 0; i < count; i++)
    expect((await get(`${server.url}/healthz`, { 'x-request-id': `${prefix}-${i}` })).status).toBe(200);
  const last = `"req_id":"${prefix}-${count - 1}"`;
  await server.waitForLog(new RegExp(last));
  return pidsThatAnswered(server.logs(), prefix);
}

/** The value of one sample of a Prometheus exposition (0 when absent). */
function sample(text: string, series: string): number {
  const line = text.split('\n').find((l) => l.startsWith(`${series} `));
  return line ? Number(line.slice(series.length + 1)) : 0;
}

async function until(condition: () => boolean | Promise<boolean>, what: string, timeoutMs = 15_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

describe('WEB_CONCURRENCY on SQLite', () => {
  it('is refused before anything starts, with the reason', async () => {
    const file = join(tmpdir(), `qr-cluster-${randomBytes(4).toString('hex')}.sqlite`);
    const started = startServer({ DATABASE_URL: `sqlite:${file}`, WEB_CONCURRENCY: '2' });
    await expect(started).rejects.toThrow(
      /WEB_CONCURRENCY: 2 worker processes need MySQL or MariaDB.*SQLite lets one process write at a time/s,
    );
    // Refused by the configuration: not even the database file was made.
    expect(existsSync(file)).toBe(false);
  });
});

describe.runIf(onMysql)('WEB_CONCURRENCY=2 on MariaDB', () => {
  let testDb: TestDb;
  let server: ServerProcess;
  let primary: number;
  let workers: number[];
  let metricsUrl: string;
  const keysFile = join(tmpdir(), `qr-cluster-keys-${randomBytes(4).toString('hex')}.json`);

  beforeAll(async () => {
    // Unmigrated: the primary migrates, once, before it forks.
    testDb = await createTestDb({ migrate: false });
    server = await startServer({
      DATABASE_URL: testDb.url,
      WEB_CONCURRENCY: '2',
      METRICS_PORT: '0',
      METRICS_TOKEN,
      // A key file that does not exist yet: both workers start at once and find none.
      OAUTH_KEYS_FILE: keysFile,
      // Longer than the test: only a worker's drain can write its scans.
      SCAN_FLUSH_INTERVAL_MS: '60000',
      SCAN_BATCH_SIZE: '10000',
    });
    const ready = await server.waitForLog(/"pids":\[(\d+),(\d+)\],"msg":"every worker listening"/);
    workers = [Number(ready[1]), Number(ready[2])].sort();
    primary = server.child.pid!;
    metricsUrl = /"metrics_url":"([^"]+)"/.exec(server.logs())![1]!;
  }, 30_000);
  afterAll(async () => {
    if (server && server.child.exitCode === null) {
      server.child.kill('SIGKILL');
      for (const pid of childPids(primary)) process.kill(pid, 'SIGKILL');
    }
    rmSync(keysFile, { force: true });
    await testDb?.destroy();
  });

  it('migrates once, in the primary, and forks two workers that both answer on the one port', async () => {
    const migrated = server
      .logs()
      .split('\n')
      .filter((line) => line.includes('"msg":"migrations applied"'));
    expect(migrated).toHaveLength(1);
    expect(migrated[0]).not.toContain('"pid"');
    expect(childPids(primary)).toEqual(workers);
    expect(workers).not.toContain(primary);
    expect(await probe(server, 'two-workers')).toEqual(workers);
  });

  it('ends with one OAuth key set that every worker publishes, though both started without the file', async () => {
    expect(server.logs().match(/OAuth keys created into OAUTH_KEYS_FILE/g)).toHaveLength(1);
    const file = JSON.parse(readFileSync(keysFile, 'utf8')) as { signing: { kid: string }[] };
    expect(file.signing).toHaveLength(1);
    const answers = await Promise.all(
      Array.from({ length: 6 }, (_, i) => get(`${server.url}/oauth/jwks`, { 'x-request-id': `jwks-${i}` })),
    );
    for (const answer of answers) {
      expect(answer.status).toBe(200);
      expect((JSON.parse(answer.body) as { keys: { kid: string }[] }).keys.map((k) => k.kid)).toEqual([
        file.signing[0]!.kid,
      ]);
    }
    await server.waitForLog(/"req_id":"jwks-5"/);
    expect(pidsThatAnswered(server.logs(), 'jwks-')).toEqual(workers);
  });

  it('sums every worker in /metrics, on METRICS_PORT (the primary) and on the main port', async () => {
    const series = 'http_requests_total{method="GET",route="/healthz",status="200"}';
    const before = sample(await (await fetch(metricsUrl)).text(), series);
    // On new connections: half reach each worker, so only a sum sees all of them.
    for (let i = 0; i < 10; i++) expect((await get(`${server.url}/healthz`)).status).toBe(200);
    const internal = await (await fetch(metricsUrl)).text();
    expect(sample(internal, series) - before).toBe(10);
    expect(sample(internal, 'cluster_workers')).toBe(2);
    // Whichever worker this scrape reaches asks the primary for the same sum.
    const main = await get(`${server.url}/metrics`, { authorization: `Bearer ${METRICS_TOKEN}` });
    expect(main.status).toBe(200);
    expect(sample(main.body, series) - before).toBe(10);
  });

  it(
    'replaces a worker killed with SIGKILL while requests keep succeeding, and backs off when the replacement dies ' +
      'at once',
    async () => {
      const [victim, survivor] = workers as [number, number];
      let answered = 0;
      let failed = 0;
      let running = true;
      const traffic = (async () => {
        while (running) {
          await get(`${server.url}/healthz`).then(
            (answer) => (answer.status === 200 ? answered++ : failed++),
            () => failed++,
          );
        }
      })();
      process.kill(victim, 'SIGKILL');
      await server.waitForLog(
        new RegExp(`"pid":${victim},"code":null,"signal":"SIGKILL","uptime_ms":\\d+,"restart_in_ms":0,`),
      );
      // Its replacement is forked at once; kill that one too before it is up: a second quick death.
      let replacement = 0;
      await until(
        () => (replacement = childPids(primary).find((pid) => pid !== survivor) ?? 0) > 0,
        'the replacement to be forked',
      );
      process.kill(replacement, 'SIGKILL');
      await server.waitForLog(
        new RegExp(`"pid":${replacement},"code":null,"signal":"SIGKILL","uptime_ms":\\d+,"restart_in_ms":500,`),
      );
      // A scrape while the next one boots leaves it out rather than waiting for it and failing.
      await until(() => childPids(primary).length === 2, 'the next replacement to be forked');
      const duringBoot = await fetch(metricsUrl);
      expect(duringBoot.status).toBe(200);
      expect(sample(await duringBoot.text(), 'cluster_workers')).toBe(2);
      const listening = await server.waitForLog(/"pid":(\d+),"msg":"replacement worker listening"/);
      const third = Number(listening[1]);
      // The traffic goes on: counted, not timed (a busy machine answers slowly). A request handed
      // to the worker as it died may hang until it gives up; everything else is answered.
      await until(() => answered > 10, 'more than ten answers');
      running = false;
      await traffic;

      // The survivor answered throughout: at most the one request in flight on the killed worker failed.
      expect(failed).toBeLessThanOrEqual(1);
      expect(childPids(primary)).toEqual([survivor, third].sort());
      expect(await probe(server, 'after-restart')).toEqual([survivor, third].sort());
      workers = [survivor, third].sort();
      expect(sample(await (await fetch(metricsUrl)).text(), 'cluster_worker_restarts_total')).toBe(2);
    },
    30_000,
  );

  it('on SIGTERM drains every worker: each scan answered with a 302 is stored, then the primary exits 0', async () => {
    const created = await runCli(['keys', 'create', '--account', 'cluster'], { DATABASE_URL: testDb.url });
    const key = created.stdout.trim().split('\n').at(-1)!;
    const res = await fetch(`${server.url}/v1/codes`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ content: 'https://example.com/cluster' }),
    });
    const code = (await res.json()) as { id: string; scan_url: string };
    const path = new URL(code.scan_url).pathname;

    // Lanes of one keep-alive connection each; a lane's first request tells which worker holds it.
    const lanes = Array.from({ length: 6 }, (_, i) => ({
      id: `lane-${i}`,
      agent: new Agent({ keepAlive: true, maxSockets: 1 }),
    }));
    for (const lane of lanes)
      expect((await get(`${server.url}/healthz`, { 'x-request-id': lane.id }, lane.agent)).status).toBe(200);
    await server.waitForLog(/"req_id":"lane-5"/);
    expect(pidsThatAnswered(server.logs(), 'lane-')).toEqual(workers);

    let redirects = 0;
    let signalled = false;
    const send = async (agent: Agent) => {
      // Until the service stops answering: the last requests meet a closed port.
      for (;;) {
        const answer = await get(server.url + path, {}, agent).catch(() => null);
        if (!answer) return;
        if (answer.status === 302) redirects++;
        if (redirects >= 300 && !signalled) {
          signalled = true;
          server.child.kill('SIGTERM');
        }
      }
    };
    await Promise.all(lanes.map((lane) => send(lane.agent)));
    lanes.forEach((lane) => lane.agent.destroy());

    expect(await server.exited).toBe(0);
    const logs = server.logs();
    for (const pid of workers) expect(logs).toContain(`"pid":${pid},"msg":"stopped"`);
    expect(logs.lastIndexOf('"exit_code":0,"msg":"stopped"')).toBeGreaterThan(
      Math.max(...workers.map((pid) => logs.indexOf(`"pid":${pid},"msg":"stopped"`))),
    );
    expect(childPids(primary)).toEqual([]);
    expect(redirects).toBeGreaterThanOrEqual(300);
    const stored = await testDb.db('scans').where({ code_id: code.id }).count({ n: '*' }).first();
    expect(Number(stored!.n)).toBe(redirects);
  }, 30_000);

  it('stops with exit 1 when a worker cannot start, as a single process would', async () => {
    const taken = createServer().listen(0, '127.0.0.1');
    await once(taken, 'listening');
    const port = (taken.address() as { port: number }).port;
    try {
      const started = startServer({
        DATABASE_URL: testDb.url,
        WEB_CONCURRENCY: '2',
        PORT: String(port),
        OAUTH_KEYS_FILE: keysFile,
      });
      // The worker's error, the primary's reason and its exit, in this order (no regex syntax in them).
      const inOrder = [
        'EADDRINUSE',
        'a worker exited before every worker was listening: stopping',
        '"exit_code":1,"msg":"stopped"',
      ];
      await expect(started).rejects.toThrow(new RegExp(inOrder.join('[\\s\\S]*')));
    } finally {
      taken.close();
    }
  }, 30_000);
});
