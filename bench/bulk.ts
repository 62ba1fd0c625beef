// npm run bench:bulk [-- --sqlite] [--runs 3]
//
// POST /v1/codes/bulk with 10,000 codes (half with a routing rule, all with a design) against
// the real service on MariaDB, beside a plain Knex batchInsert of the same rows (slugs, codes,
// rules) in one transaction, in the same run. Prints times, the ratio and the service's peak RSS.
// Each run also posts 10,000 distinct static texts (1 to 300 characters, so QR versions 1 to 13),
// whose scannability is checked per design and QR version (budget: under 10 s).
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { createDb } from '../src/db/knex.ts';
import { addToCodeCount } from '../src/modules/codes/code-counts.ts';
import { newId, randomBase62 } from '../src/shared/ids.ts';
import { runCli } from '../test/support/process.ts';

const { values } = parseArgs({
  options: { sqlite: { type: 'boolean', default: false }, runs: { type: 'string', default: '3' } },
});
const runs = Number(values.runs);
const COUNT = 10_000;

const items = () =>
  Array.from({ length: COUNT }, (_, i) => ({
    content: `https://example.com/print/${i}`,
    design: { style: i % 2 ? 'dots' : 'branded', fg_color: '#1d4ed8' },
    ...(i % 2 ? {} : { routing: { rules: [{ condition: 'country:DE', destination: `https://example.de/${i}` }] } }),
  }));

/** Distinct texts of many lengths: the check cannot reuse one decode for all of them. */
const texts = (run: number) =>
  Array.from({ length: COUNT }, (_, i) => ({
    type: 'text',
    content: { text: `Run ${run}, lot ${i}: ${'x'.repeat(i % 300)}` },
    design: { style: 'dots', fg_color: '#1d4ed8' },
  }));

async function databaseUrl(): Promise<string> {
  if (values.sqlite) return `sqlite:/tmp/qr-bench-bulk-${process.pid}.sqlite`;
  const admin = createDb('mysql://root@127.0.0.1:3306/');
  await admin.raw('DROP DATABASE IF EXISTS qr_bench_bulk');
  await admin.raw('CREATE DATABASE qr_bench_bulk CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci');
  await admin.destroy();
  return 'mysql://root@127.0.0.1:3306/qr_bench_bulk';
}

/** The same rows the endpoint writes, straight through knex.batchInsert: the floor. */
async function plainInsert(url: string, accountId: string): Promise<number> {
  const db = createDb(url);
  const now = Date.now();
  const codes = items().map((item) => ({ item, id: newId('qr'), slug: randomBase62(7) }));
  const started = performance.now();
  await db.transaction(async (trx) => {
    await trx.batchInsert(
      'slugs',
      codes.map((c) => ({ slug: c.slug, created_at: now })),
      500,
    );
    await trx.batchInsert(
      'codes',
      codes.map((c) => ({
        id: c.id,
        account_id: accountId,
        type: 'url',
        content: c.item.content,
        design: JSON.stringify(c.item.design),
        logo_id: null,
        routing_enabled: Boolean(c.item.routing),
        slug: c.slug,
        batch_id: null,
        created_at: now,
        updated_at: now,
      })),
      500,
    );
    await addToCodeCount(trx, accountId, codes.length);
    await trx.batchInsert(
      'routing_rules',
      codes
        .filter((c) => c.item.routing)
        .map((c) => ({
          id: newId('rule'),
          code_id: c.id,
          priority: 1,
          position: 0,
          type: 'geo',
          conditions: '{"countries":["DE"]}',
          destination: c.item.routing!.rules[0]!.destination,
          created_at: now,
        })),
      500,
    );
  });
  const ms = performance.now() - started;
  await db.destroy();
  return ms;
}

function peakRssMiB(pid: number): number {
  const line = readFileSync(`/proc/${pid}/status`, 'utf8')
    .split('\n')
    .find((l) => l.startsWith('VmHWM:'));
  return Math.round(Number(line?.replace(/\D+/g, '') ?? 0) / 1024);
}

async function main() {
  const url = await databaseUrl();
  const key = (await runCli(['keys', 'create', '--account', 'bench'], { DATABASE_URL: url })).stdout
    .trim()
    .split('\n')
    .at(-1)!;
  const service = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
    env: { ...process.env, DATABASE_URL: url, PORT: '0', LOG_LEVEL: 'info', NODE_ENV: 'production' },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let output = '';
  const serviceUrl = await new Promise<string>((resolve) =>
    service.stdout!.on('data', (d) => {
      output += d;
      const match = /"url":"(http:\/\/[^"]+)"/.exec(output);
      if (match) resolve(match[1]!);
    }),
  );
  const body = JSON.stringify({ codes: items() });
  const rssBefore = peakRssMiB(service.pid!);
  const endpoint: number[] = [];
  const plain: number[] = [];
  const statics: number[] = [];
  const post = async (payload: string) => {
    const started = performance.now();
    const res = await fetch(`${serviceUrl}/v1/codes/bulk`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: payload,
    });
    const answer = (await res.json()) as { created: number };
    if (res.status !== 201 || answer.created !== COUNT)
      throw new Error(`bulk answered ${res.status}: ${JSON.stringify(answer).slice(0, 300)}`);
    return performance.now() - started;
  };
  const lookup = createDb(url);
  const accountId = (await lookup('accounts').first()).id as string;
  await lookup.destroy();
  for (let run = 0; run < runs; run++) {
    endpoint.push(await post(body));
    plain.push(await plainInsert(url, accountId));
    statics.push(await post(JSON.stringify({ codes: texts(run) })));
  }
  const peak = peakRssMiB(service.pid!);
  service.kill('SIGTERM');
  await once(service, 'exit');
  if (!values.sqlite) {
    const admin = createDb('mysql://root@127.0.0.1:3306/');
    await admin.raw('DROP DATABASE IF EXISTS qr_bench_bulk');
    await admin.destroy();
  }
  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
  console.log(
    `\nbench:bulk, ${values.sqlite ? 'SQLite' : 'MariaDB'}, ${COUNT} codes (half with a rule, all with a design), ` +
      `${runs} runs, body ${(body.length / 2 ** 20).toFixed(1)} MiB`,
  );
  console.log('| path | runs (ms) | median ms |');
  console.log('|---|---|---|');
  console.log(
    `| POST /v1/codes/bulk over HTTP (validation, scannability check, slugs, insert, answer) | ` +
      `${endpoint.map((v) => v.toFixed(0)).join(', ')} | ${median(endpoint).toFixed(0)} |`,
  );
  console.log(
    `| plain knex.batchInsert of the same rows | ${plain.map((v) => v.toFixed(0)).join(', ')} | ` +
      `${median(plain).toFixed(0)} |`,
  );
  console.log(
    `| POST /v1/codes/bulk, ${COUNT} distinct static texts (versions 1-13) | ` +
      `${statics.map((v) => v.toFixed(0)).join(', ')} | ${median(statics).toFixed(0)} |`,
  );
  console.log(`\ndistinct static texts: median ${median(statics) < 10_000 ? 'under' : 'OVER'} 10 s`);
  console.log(
    `\nratio (endpoint / plain insert): ${(median(endpoint) / median(plain)).toFixed(2)}x (target ≤ 2x); endpoint ` +
      `median ${median(endpoint) < 1500 ? 'under' : 'OVER'} 1.5 s`,
  );
  console.log(`service peak RSS: ${peak} MiB (${rssBefore} MiB before the first call)`);
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
