// npm run bench:render-flood [-- --seconds 10] [--flooders 8] [--tree DIR]
//
// Does a flood of image renders slow the scan redirect and /healthz? The real service (SQLite in
// a temp file, NODE_ENV=production, rate limits off) is started from this tree, and with
// `--tree DIR` also from another checkout (say, the commit before render worker threads), one
// after the other in the same run. For each: 10 connections of autocannon on the scan redirect
// and on /healthz, first alone, then while `flooders` loops (spread over 4 accounts) fetch
// uncached PNGs of 4000-4095 px, one after another each. Prints p50/p99 of both routes with and
// without the flood, the renders completed and the 429s. Loopback only; every loop ends with its
// run. Target: p99 < 10 ms for the redirect and /healthz during the flood.
import { rmSync } from 'node:fs';
import os from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';
import { runCli } from '../test/support/process.ts';
import { startService, stopService, type Service } from './service-process.ts';

const { values } = parseArgs({
  options: {
    seconds: { type: 'string', default: '10' },
    flooders: { type: 'string', default: '8' },
    tree: { type: 'string' },
  },
});
const SECONDS = Number(values.seconds);
const FLOODERS = Number(values.flooders);
const ACCOUNTS = 4;
const ROOT = resolve(import.meta.dirname, '..');

async function keyFor(tree: string, databaseUrl: string, account: string): Promise<string> {
  const created = await runCli(
    ['keys', 'create', '--account', account],
    { DATABASE_URL: databaseUrl, LOG_LEVEL: 'warn' },
    tree,
  );
  if (created.code !== 0) throw new Error(`keys create failed in ${tree}:\n${created.stderr}`);
  return created.stdout.trim().split('\n').at(-1)!;
}

/** The service with rate limits off: the flood measures rendering, not the limiter. */
const start = (tree: string, databaseUrl: string) =>
  startService(tree, { DATABASE_URL: databaseUrl, RATE_LIMIT_PER_MINUTE: '0', SCAN_RATE_LIMIT_PER_MINUTE: '0' });

/** autocannon on one path for `seconds`, 10 connections: latency is what is read, not throughput. */
const probe = (url: string, seconds: number) => autocannon({ url, connections: 10, duration: seconds });

/** Loops fetching uncached PNGs until `until`; counts what came back. */
async function flood(service: Service, targets: { key: string; codeId: string }[], until: number) {
  const counts = { rendered: 0, refused: 0, other: 0 };
  await Promise.all(
    Array.from({ length: FLOODERS }, async (_, i) => {
      const { key, codeId } = targets[i % targets.length]!;
      for (let n = 0; Date.now() < until; n++) {
        const size = 4000 + ((i * 997 + n * 31) % 96);
        try {
          const res = await fetch(
            `${service.url}/v1/codes/${codeId}/image?format=png&size=${size}&margin=${2 + (n % 15)}`,
            { headers: { authorization: `Bearer ${key}` } },
          );
          await res.arrayBuffer();
          if (res.status === 200) counts.rendered++;
          else if (res.status === 429) counts.refused++;
          else counts.other++;
        } catch {
          // A connection the server dropped (seen with the synchronous renderer): counted, not fatal.
          counts.other++;
        }
      }
    }),
  );
  return counts;
}

interface Row {
  tree: string;
  phase: string;
  redirect: autocannon.Result;
  healthz: autocannon.Result;
  flood?: { rendered: number; refused: number; other: number };
}

async function measureTree(label: string, tree: string): Promise<Row[]> {
  const file = join(os.tmpdir(), `qr-bench-flood-${process.pid}-${label}.sqlite`);
  const databaseUrl = `sqlite:${file}`;
  const targets: { key: string; codeId: string }[] = [];
  for (let a = 0; a < ACCOUNTS; a++) targets.push({ key: await keyFor(tree, databaseUrl, `flood-${a}`), codeId: '' });
  const service = await start(tree, databaseUrl);
  try {
    for (const target of targets) {
      const res = await fetch(`${service.url}/v1/codes`, {
        method: 'POST',
        headers: { authorization: `Bearer ${target.key}`, 'content-type': 'application/json' },
        body: JSON.stringify({ content: 'https://example.com/flood', design: { style: 'branded' } }),
      });
      const body = (await res.json()) as { id: string; scan_url: string };
      target.codeId = body.id;
    }
    const scan = (await (
      await fetch(`${service.url}/v1/codes/${targets[0]!.codeId}`, {
        headers: { authorization: `Bearer ${targets[0]!.key}` },
      })
    ).json()) as { scan_url: string };
    const redirectUrl = `${service.url}${new URL(scan.scan_url).pathname}`;
    process.stderr.write(`${label}: quiet\n`);
    const quiet: Row = {
      tree: label,
      phase: 'alone',
      redirect: await probe(redirectUrl, SECONDS),
      healthz: await probe(`${service.url}/healthz`, SECONDS),
    };
    process.stderr.write(`${label}: flood\n`);
    const floodUntil = Date.now() + 2 * SECONDS * 1000 + 1000;
    const flooding = flood(service, targets, floodUntil);
    await new Promise((r) => setTimeout(r, 1000));
    const redirect = await probe(redirectUrl, SECONDS);
    const healthz = await probe(`${service.url}/healthz`, SECONDS);
    return [quiet, { tree: label, phase: `during ${FLOODERS} PNG loops`, redirect, healthz, flood: await flooding }];
  } finally {
    await stopService(service);
    for (const suffix of ['', '-wal', '-shm']) rmSync(file + suffix, { force: true });
  }
}

const ms = (n: number) => n.toFixed(1);

async function main() {
  const rows = await measureTree('this tree', ROOT);
  if (values.tree) rows.push(...(await measureTree(values.tree, resolve(values.tree))));
  const out = [
    '',
    `### ${new Date().toISOString().slice(0, 10)} — bench:render-flood on ${os.cpus().length} cores ` +
      `(${os.cpus()[0]?.model.trim()}), Node ${process.version}; SQLite, ${SECONDS} s per probe, 10 connections, ` +
      `${FLOODERS} loops of uncached 4000-4095 px PNGs over ${ACCOUNTS} accounts`,
    '',
    '| tree | phase | redirect req/s | redirect p50 ms | redirect p99 ms | /healthz req/s | /healthz p50 ms | ' +
      '/healthz p99 ms | probe errors + timeouts | PNGs drawn | 429s | other answers or dropped connections | p99 ' +
      '< 10 ms |',
    '|---|---|---|---|---|---|---|---|---|---|---|---|---|',
    ...rows.map((r) => {
      // A route that answered nothing (its event loop blocked) has no latency to speak of.
      const answered = (a: autocannon.Result) => a.requests.total > 0 && a.errors + a.timeouts === 0;
      const met =
        answered(r.redirect) && answered(r.healthz) && r.redirect.latency.p99 < 10 && r.healthz.latency.p99 < 10
          ? 'met'
          : 'MISSED';
      return (
        `| ${r.tree} | ${r.phase} | ${Math.round(r.redirect.requests.average)} | ${ms(r.redirect.latency.p50)} ` +
        `| ${ms(r.redirect.latency.p99)} | ${Math.round(r.healthz.requests.average)} | ` +
        `${ms(r.healthz.latency.p50)} | ${ms(r.healthz.latency.p99)} | ` +
        `${r.redirect.errors + r.redirect.timeouts + r.healthz.errors + r.healthz.timeouts} | ` +
        `${r.flood?.rendered ?? '—'} | ${r.flood?.refused ?? '—'} | ${r.flood?.other ?? '—'} | ` +
        `${r.flood ? met : '—'} |`
      );
    }),
  ];
  console.log(out.join('\n'));
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
