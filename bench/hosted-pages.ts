// npm run bench:pages [-- --requests 2000] [--mysql]
//
// The real service (SQLite in a temp file, or MariaDB with --mysql), one code of each hosted page
// kind (the test fixtures: every field a page has) and one plain redirect, measured in the same
// run: `requests` sequential GETs of each scan URL on one keep-alive connection from a desktop
// User-Agent (so the app download page is shown, not sent to a store), after 200 warm-up ones.
// Prints the median and p99 time to the whole answer and the bytes over the wire (status line,
// headers and body; no compression: the scan path answers before Koa's). Recording is on: each
// page view is a scan written like a redirect's. Targets (issue 36): under 10 ms at the median,
// under 30 KB.
import { request, Agent } from 'node:http';
import { rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { createDb } from '../src/db/knex.ts';
import { runCli } from '../test/support/process.ts';
import { APP_PAGE, CARD, LINKS_PAGE } from '../test/fixtures/pages/pages.ts';
import { startService, stopService } from './service-process.ts';

const { values } = parseArgs({
  options: { requests: { type: 'string', default: '2000' }, mysql: { type: 'boolean', default: false } },
});
const REQUESTS = Number(values.requests);
const ROOT = resolve(import.meta.dirname, '..');
const DESKTOP = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0 Safari/537.36';
const BENCH_DB = `qr_bench_pages_${process.pid}`;

async function databaseUrl(): Promise<string> {
  if (!values.mysql) return `sqlite:${join(tmpdir(), `qr-bench-pages-${process.pid}.sqlite`)}`;
  const admin = createDb('mysql://root@127.0.0.1:3306/');
  await admin.raw('CREATE DATABASE ?? CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci', [BENCH_DB]);
  await admin.destroy();
  return `mysql://root@127.0.0.1:3306/${BENCH_DB}`;
}

async function dropDatabase(url: string): Promise<void> {
  if (url.startsWith('sqlite:')) return rmSync(url.slice('sqlite:'.length), { force: true });
  const admin = createDb('mysql://root@127.0.0.1:3306/');
  await admin.raw('DROP DATABASE IF EXISTS ??', [BENCH_DB]);
  await admin.destroy();
}

/** 50 links of 80-character labels and long URLs: about the 16,000 characters of JSON a page may have. */
const LARGEST_LINKS = {
  kind: 'links',
  title: 'T'.repeat(120),
  links: Array.from({ length: 50 }, (_, i) => ({
    label: `Link ${i} `.padEnd(80, 'x'),
    url: `https://example.com/${String(i).padStart(2, '0')}/${'p'.repeat(190)}`,
  })),
};

const agent = new Agent({ keepAlive: true, maxSockets: 1 });

/** One GET: milliseconds to the answer's last byte, and its bytes as sent (head and body). */
function timedGet(url: string): Promise<{ ms: number; bytes: number; status: number }> {
  return new Promise((done, fail) => {
    const startedAt = performance.now();
    const req = request(url, { agent, headers: { 'user-agent': DESKTOP } }, (res) => {
      let body = 0;
      res.on('data', (chunk: Buffer) => (body += chunk.length));
      res.on('end', () => {
        const head = `HTTP/1.1 ${res.statusCode} ${res.statusMessage}\r\n`;
        // Each `Name: value\r\n` is both parts and 4 bytes; the blank line ends the head.
        const headers = res.rawHeaders.reduce((sum, part) => sum + part.length + 2, 2);
        done({
          ms: performance.now() - startedAt,
          bytes: Buffer.byteLength(head) + headers + body,
          status: res.statusCode!,
        });
      });
    });
    req.on('error', fail);
    req.end();
  });
}

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))]!;

async function measure(name: string, url: string, expected: number): Promise<string> {
  for (let i = 0; i < 200; i++) await timedGet(url);
  const times: number[] = [];
  let bytes = 0;
  for (let i = 0; i < REQUESTS; i++) {
    const answer = await timedGet(url);
    if (answer.status !== expected) throw new Error(`${name}: ${answer.status}, expected ${expected}`);
    times.push(answer.ms);
    bytes = answer.bytes;
  }
  times.sort((a, b) => a - b);
  const ms = (v: number) => v.toFixed(2);
  const [median, p99] = [ms(percentile(times, 0.5)), ms(percentile(times, 0.99))];
  return `| ${name} | ${expected} | ${median} | ${p99} | ${bytes.toLocaleString('en-US')} |`;
}

async function main() {
  const url = await databaseUrl();
  const created = await runCli(
    ['keys', 'create', '--account', 'bench'],
    { DATABASE_URL: url, LOG_LEVEL: 'warn' },
    ROOT,
  );
  if (created.code !== 0) throw new Error(`keys create failed:\n${created.stderr}`);
  const key = created.stdout.trim().split('\n').at(-1)!;
  const service = await startService(ROOT, {
    DATABASE_URL: url,
    RATE_LIMIT_PER_MINUTE: '0',
    SCAN_RATE_LIMIT_PER_MINUTE: '0',
  });
  try {
    const scanUrlOf = async (page: unknown) => {
      const res = await fetch(`${service.url}/v1/codes`, {
        method: 'POST',
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
        body: JSON.stringify({ content: 'https://example.com/landing', ...(page ? { page } : {}) }),
      });
      if (res.status !== 201) throw new Error(`create: ${res.status} ${await res.text()}`);
      return ((await res.json()) as { scan_url: string }).scan_url;
    };
    const rows = [
      await measure('plain redirect', await scanUrlOf(null), 302),
      await measure('business card', await scanUrlOf(CARD), 200),
      await measure('business card vCard (not a scan)', `${await scanUrlOf(CARD)}/contact.vcf`, 200),
      await measure('app download (desktop)', await scanUrlOf(APP_PAGE), 200),
      await measure('list of links', await scanUrlOf(LINKS_PAGE), 200),
      await measure('list of links, near the size cap', await scanUrlOf(LARGEST_LINKS), 200),
    ];
    console.log(
      `${values.mysql ? 'MariaDB' : 'SQLite'}, ${REQUESTS} sequential requests each, one keep-alive connection`,
    );
    console.log('| answer | status | median ms | p99 ms | bytes over the wire |\n|---|---|---|---|---|');
    console.log(rows.join('\n'));
  } finally {
    await stopService(service);
    agent.destroy();
    await dropDatabase(url);
  }
}

await main();
