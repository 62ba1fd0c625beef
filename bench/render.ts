// npm run bench:render [-- --iterations 200] [--duration 8] [--connections 50] [--mysql]
//
// Two parts in one run:
// 1. In process, uncached: a 512 px PNG of each style (square, dots, rounded, branded; branded
//    also with a logo and with a banner frame), renderSvg + svgToPng, timed beside qrcode's own
//    toBuffer at the same width and error-correction level. Prints renders/s and the ratio
//    (our time / qrcode's time); target: branded within 3x. Also prints the size of resvg's own
//    PNG of the SVG (anti-aliased, RGBA), which is what svgToPng answered before png.ts.
// 2. Over HTTP, cached: the real service (SQLite in a temp file, or MariaDB/MySQL with --mysql),
//    one branded code whose PNG is fetched once to fill the image cache, then autocannon on
//    GET /v1/codes/:id/image?format=png&size=512 and on the code's scan URL (the redirect, not
//    followed). Prints req/s, p50/p99 and the ratio (redirect / cached image); target: within 2x.
//    autocannon appends every response body to a JS string, i.e. decodes PNG bytes as UTF-8 on
//    the same two cores the server runs on; so every run is made twice: as autocannon comes, and
//    with the client dropping bodies unread (as a browser or curl never pays that cost).
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import os, { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import { Resvg } from '@resvg/resvg-js';
import autocannon from 'autocannon';
import QRCode from 'qrcode';
import { createDb } from '../src/db/knex.ts';
import { resolveDesign } from '../src/modules/codes/model.ts';
import type { DesignInput } from '../src/modules/codes/schemas.ts';
import { decodeQr } from '../src/modules/images/decode.ts';
import type { RenderLogo } from '../src/modules/images/design.ts';
import { svgToPng, svgToRgba } from '../src/modules/images/raster.ts';
import { renderDesignOf } from '../src/modules/images/service.ts';
import { hasOnlyStraightEdges, renderSvg } from '../src/modules/images/render.ts';
import { runCli } from '../test/support/process.ts';

const { values } = parseArgs({
  options: {
    /** Renders per style (and as many qrcode.toBuffer calls beside them). */
    iterations: { type: 'string', default: '200' },
    /** Seconds of autocannon load per HTTP run. */
    duration: { type: 'string', default: '8' },
    connections: { type: 'string', default: '50' },
    mysql: { type: 'boolean', default: false },
  },
});
const iterations = Number(values.iterations);
const duration = Number(values.duration);
const connections = Number(values.connections);
/** Untimed renders before each timed loop (JIT, resvg's first allocations). */
const WARMUP_RENDERS = 20;
/** Seconds of untimed load before each HTTP run. */
const WARMUP_SECONDS = 2;
const SIZE = 512;
/** What a dynamic code encodes: its scan URL, as the service builds it (7-character slug). */
const PAYLOAD = 'http://localhost:3000/AbC1234';
const MYSQL_ADMIN = 'mysql://root@127.0.0.1:3306/';
const MYSQL_DB = 'qr_bench_render';
const IPHONE =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 ' +
  'Mobile/15E148 Safari/604.1';

const fmt = (n: number, digits = 0) =>
  n.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits });

// ---------------------------------------------------------------------------------------------
// Part 1: in-process renders

/** A 64×64 PNG logo (drawn with shapes only, so no fonts are involved). */
function makeLogo(): RenderLogo {
  const svg =
    '<svg xmlns="http://www.w3.org/2000/svg" width="64" height="64" viewBox="0 0 64 64">' +
    '<rect width="64" height="64" rx="12" fill="#1d4ed8"/>' +
    '<circle cx="32" cy="32" r="18" fill="#ffffff"/>' +
    '<path d="M24 24h16v16h-16z" fill="#f59e0b"/>' +
    '</svg>';
  const png = new Resvg(svg).render().asPng();
  return { dataUri: `data:image/png;base64,${png.toString('base64')}`, width: 64, height: 64 };
}

interface Case {
  name: string;
  design: DesignInput;
  logo: RenderLogo | null;
  /** Rows held against the 3x target. */
  branded: boolean;
}

interface RenderRow {
  name: string;
  level: string;
  oursPerSec: number;
  qrcodePerSec: number;
  /** Our time per render / qrcode's time per render. */
  ratio: number;
  oursBytes: number;
  qrcodeBytes: number;
  readsBack: boolean;
  branded: boolean;
  /** resvg's own PNG of the SVG (anti-aliased, 8-bit RGBA): what svgToPng answered before png.ts. */
  resvgBytes: number;
}

async function renderBench(): Promise<RenderRow[]> {
  const logo = makeLogo();
  const cases: Case[] = [
    { name: 'square', design: { style: 'square' }, logo: null, branded: false },
    { name: 'dots', design: { style: 'dots' }, logo: null, branded: false },
    { name: 'rounded', design: { style: 'rounded' }, logo: null, branded: false },
    { name: 'branded', design: { style: 'branded' }, logo: null, branded: true },
    // resolveDesign raises the default level to H when a logo is set.
    {
      name: 'branded + 64 px logo',
      design: { style: 'branded', logo_url: 'https://example.com/logo.png' },
      logo,
      branded: true,
    },
    { name: 'branded + banner', design: { style: 'branded', frame: 'banner' }, logo: null, branded: true },
  ];

  const rows: RenderRow[] = [];
  for (const c of cases) {
    const resolved = resolveDesign(c.design);
    const design = renderDesignOf(resolved);
    const level = design.errorCorrection;
    // Rasterised as the images service does: square designs with crisp edges.
    const crispEdges = hasOnlyStraightEdges(design);
    const ours = () => svgToPng(renderSvg(PAYLOAD, design, c.logo, SIZE), SIZE, { crispEdges });
    const theirs = () => QRCode.toBuffer(PAYLOAD, { width: SIZE, errorCorrectionLevel: level });

    // Sanity: what we time is a real, scannable image.
    const svg = renderSvg(PAYLOAD, design, c.logo, SIZE);
    const readsBack = decodeQr(svgToRgba(svg, SIZE, { crispEdges })) === PAYLOAD;
    const resvgBytes = new Resvg(svg, { fitTo: { mode: 'width', value: SIZE }, font: { loadSystemFonts: false } })
      .render()
      .asPng().length;

    for (let i = 0; i < WARMUP_RENDERS; i++) ours();
    for (let i = 0; i < WARMUP_RENDERS; i++) await theirs();

    let oursBytes = 0;
    let start = performance.now();
    for (let i = 0; i < iterations; i++) oursBytes = ours().length;
    const oursMs = performance.now() - start;

    let qrcodeBytes = 0;
    start = performance.now();
    for (let i = 0; i < iterations; i++) qrcodeBytes = (await theirs()).length;
    const qrcodeMs = performance.now() - start;

    rows.push({
      name: c.name,
      level,
      oursPerSec: (iterations * 1000) / oursMs,
      qrcodePerSec: (iterations * 1000) / qrcodeMs,
      ratio: oursMs / qrcodeMs,
      oursBytes,
      qrcodeBytes,
      readsBack,
      branded: c.branded,
      resvgBytes,
    });
    process.stderr.write(`  rendered ${c.name}\n`);
  }
  return rows;
}

// ---------------------------------------------------------------------------------------------
// Part 2: the service over HTTP

async function databaseUrl(): Promise<{ url: string; cleanup: () => Promise<void> }> {
  if (!values.mysql) {
    const file = join(os.tmpdir(), `qr-bench-render-${process.pid}.sqlite`);
    return {
      url: `sqlite:${file}`,
      cleanup: async () => {
        for (const suffix of ['', '-wal', '-shm', '-journal']) rmSync(file + suffix, { force: true });
      },
    };
  }
  const admin = createDb(MYSQL_ADMIN);
  await admin.raw(`DROP DATABASE IF EXISTS ${MYSQL_DB}`);
  await admin.raw(`CREATE DATABASE ${MYSQL_DB} CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci`);
  await admin.destroy();
  return {
    url: `${MYSQL_ADMIN}${MYSQL_DB}`,
    cleanup: async () => {
      const db = createDb(MYSQL_ADMIN);
      await db.raw(`DROP DATABASE IF EXISTS ${MYSQL_DB}`);
      await db.destroy();
    },
  };
}

/** A port free right now on loopback: with LOG_LEVEL=warn the service does not log the one it took. */
async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

async function waitForHealthy(url: string, child: ChildProcess): Promise<void> {
  let exited = false;
  child.once('exit', () => (exited = true));
  const deadline = Date.now() + 30_000;
  while (Date.now() < deadline) {
    if (exited) throw new Error('service exited before it was ready');
    try {
      const res = await fetch(`${url}/healthz`);
      if (res.ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error('service did not become healthy within 30 s');
}

/** How autocannon treats response bodies: `decoded` as it comes, `dropped` unread. */
type Client = 'decoded' | 'dropped';
const CLIENTS: Client[] = ['decoded', 'dropped'];

/**
 * autocannon (9.x) appends each body chunk to a string, which decodes binary bodies as UTF-8:
 * measured on this machine, a bare server sending 31 KB of random bytes did ~3,000 req/s that
 * way and ~22,000 with the body dropped. The hook is internal, so fail loudly if it moves.
 */
function dropBodies(client: unknown): void {
  const queue = (client as { pipelinedRequests?: { addBody?: unknown } }).pipelinedRequests;
  if (typeof queue?.addBody !== 'function')
    throw new Error('autocannon internals changed: no pipelinedRequests.addBody to replace');
  queue.addBody = () => {};
}

function load(url: string, path: string, headers: Record<string, string>, seconds: number, client: Client) {
  return autocannon({
    url: `${url}${path}`,
    connections,
    duration: seconds,
    headers,
    ...(client === 'dropped' ? { setupClient: dropBodies } : {}),
  });
}

type LoadResult = Awaited<ReturnType<typeof load>>;

interface RouteResults {
  image: LoadResult;
  redirect: LoadResult;
  /** A bare node:http server sending the same PNG bytes from memory: what the body alone costs. */
  barePng: LoadResult;
}

interface HttpResults {
  byClient: Record<Client, RouteResults>;
  imageBytes: number;
  database: string;
}

async function httpBench(): Promise<HttpResults> {
  const db = await databaseUrl();
  let service: ChildProcess | null = null;
  try {
    const created = await runCli(['keys', 'create', '--account', 'bench'], { DATABASE_URL: db.url });
    if (created.code !== 0) throw new Error(`keys create failed:\n${created.stderr}`);
    const key = created.stdout.trim().split('\n').at(-1)!;

    const port = await freePort();
    const serviceUrl = `http://127.0.0.1:${port}`;
    service = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
      // Rate limits off: one key and one address make every request here, so a limit would turn
      // the runs into a measure of 429 answers.
      env: {
        ...process.env,
        DATABASE_URL: db.url,
        PORT: String(port),
        HOST: '127.0.0.1',
        LOG_LEVEL: 'warn',
        NODE_ENV: 'production',
        RATE_LIMIT_PER_MINUTE: '0',
        SCAN_RATE_LIMIT_PER_MINUTE: '0',
      },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    // Warnings and errors, if any, go to our stderr so they never mix into the tables.
    service.stdout!.pipe(process.stderr);
    await waitForHealthy(serviceUrl, service);

    const res = await fetch(`${serviceUrl}/v1/codes`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ content: 'https://example.com/landing', design: { style: 'branded' } }),
    });
    if (res.status !== 201 && res.status !== 200) throw new Error(`create code: ${res.status} ${await res.text()}`);
    const code = (await res.json()) as { id: string; scan_url: string };
    const imagePath = `/v1/codes/${code.id}/image?format=png&size=${SIZE}`;
    const scanPath = new URL(code.scan_url).pathname;

    // One request renders and fills the cache; every later one is answered from it.
    const first = await fetch(`${serviceUrl}${imagePath}`, { headers: { authorization: `Bearer ${key}` } });
    const firstBody = Buffer.from(await first.arrayBuffer());
    if (first.status !== 200 || first.headers.get('content-type') !== 'image/png') {
      throw new Error(`first image: ${first.status} ${first.headers.get('content-type')}`);
    }

    const imageHeaders = { authorization: `Bearer ${key}`, 'user-agent': IPHONE };
    const scanHeaders = { 'user-agent': IPHONE, 'accept-language': 'de-DE,en;q=0.8' };
    const measure = async (name: string, path: string, headers: Record<string, string>, client: Client) => {
      process.stderr.write(`  ${name}, bodies ${client}: warming up, then measuring\n`);
      await load(serviceUrl, path, headers, WARMUP_SECONDS, client);
      return load(serviceUrl, path, headers, duration, client);
    };
    const byClient = {} as Record<Client, RouteResults>;
    for (const client of CLIENTS) {
      byClient[client] = {
        image: await measure('the image route', imagePath, imageHeaders, client),
        redirect: await measure('the scan redirect', scanPath, scanHeaders, client),
        barePng: await bareBodyBench(firstBody, client),
      };
    }

    return { byClient, imageBytes: firstBody.length, database: values.mysql ? 'MySQL/MariaDB' : 'SQLite' };
  } finally {
    if (service && service.exitCode === null) {
      const exited = once(service, 'exit');
      service.kill('SIGTERM');
      await exited;
    }
    await db.cleanup();
  }
}

/** Serves `body` as image/png from a bare node:http child process and loads it like the image route. */
async function bareBodyBench(body: Buffer, client: Client): Promise<LoadResult> {
  process.stderr.write(`  a bare node:http server sending the same PNG, bodies ${client}\n`);
  const file = join(tmpdir(), `qr-bench-png-${process.pid}.png`);
  writeFileSync(file, body);
  const port = await freePort();
  const script = `import { createServer } from 'node:http'; import { readFileSync } from 'node:fs';
    const body = readFileSync(process.env.BODY_FILE);
    createServer((req, res) => {
      res.writeHead(200, { 'Content-Type': 'image/png', 'Content-Length': body.length });
      res.end(body);
    }).listen(Number(process.env.PORT), '127.0.0.1', () => console.log('ready'));`;
  const bare = spawn(process.execPath, ['--input-type=module', '-e', script], {
    env: { ...process.env, BODY_FILE: file, PORT: String(port) },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  try {
    await once(bare.stdout!, 'data');
    await load(`http://127.0.0.1:${port}`, '/', {}, WARMUP_SECONDS, client);
    return await load(`http://127.0.0.1:${port}`, '/', {}, duration, client);
  } finally {
    bare.kill('SIGTERM');
    rmSync(file, { force: true });
  }
}

// ---------------------------------------------------------------------------------------------

function machine(): string {
  const cpus = os.cpus();
  return (
    `${cpus.length} cores (${cpus[0]?.model.trim() ?? 'unknown CPU'}), ${Math.round(os.totalmem() / 2 ** 30)} ` +
    `GiB, ${os.platform()} ${os.release()}, Node ${process.versions.node}`
  );
}

const unexpected = (r: LoadResult, expected: '2xx' | '3xx') =>
  r['1xx'] + r['2xx'] + r['3xx'] + r['4xx'] + r['5xx'] - r[expected];

function httpRow(name: string, client: Client, r: LoadResult, expected: '2xx' | '3xx'): string {
  return (
    `| ${name} | ${client} | ${fmt(r.requests.average)} | ${r.latency.p50} | ${r.latency.p99} | ` +
    `${fmt(r.throughput.average / 2 ** 20, 1)} | ${fmt(r[expected])} | ${unexpected(r, expected)} | ` +
    `${r.errors + r.timeouts} |`
  );
}

async function main() {
  const started = new Date();
  process.stderr.write('part 1: in-process renders\n');
  const rows = await renderBench();
  process.stderr.write('part 2: service over HTTP\n');
  const http = await httpBench();

  const out: string[] = [];
  out.push('');
  out.push(
    `### ${started.toISOString().slice(0, 10)} — bench:render on ${machine()}; ` +
      `${iterations} renders per row after ${WARMUP_RENDERS} warm-up, ${SIZE} px PNG, payload ${PAYLOAD}; ` +
      (`HTTP: ${http.database}, ${connections} connections, ${duration} s per run after ${WARMUP_SECONDS} s warm-up, ` +
        `NODE_ENV=production, LOG_LEVEL=warn`),
  );
  out.push('');
  out.push(
    `Uncached, in process: renderSvg + svgToPng vs qrcode.toBuffer (width ${SIZE}, same level), one after the other`,
  );
  out.push('');
  out.push(
    '| style | level | ours renders/s | qrcode renders/s | ratio (ours time / qrcode time) | target ≤ 3x | ours PNG ' +
      'bytes | resvg RGBA PNG bytes | qrcode PNG bytes | ours reads back |',
  );
  out.push('|---|---|---|---|---|---|---|---|---|---|');
  for (const r of rows) {
    const target = r.branded ? (r.ratio <= 3 ? 'met' : 'MISSED') : '—';
    out.push(
      `| ${r.name} | ${r.level} | ${fmt(r.oursPerSec, 1)} | ${fmt(r.qrcodePerSec, 1)} | ${fmt(r.ratio, 2)}x | ` +
        `${target} | ${fmt(r.oursBytes)} | ${fmt(r.resvgBytes)} | ${fmt(r.qrcodeBytes)} | ` +
        `${r.readsBack ? 'yes' : 'NO'} |`,
    );
  }
  out.push('');
  out.push(
    `Cached image vs scan redirect, over HTTP (one branded code; PNG ${fmt(http.imageBytes)} bytes, rendered once ` +
      `before the runs)`,
  );
  out.push('');
  out.push(
    '| route | client bodies | req/s | p50 ms | p99 ms | MiB/s | expected answers | other answers | errors + ' +
      'timeouts |',
  );
  out.push('|---|---|---|---|---|---|---|---|---|');
  for (const client of CLIENTS) {
    const r = http.byClient[client];
    out.push(httpRow(`GET /v1/codes/:id/image?format=png&size=${SIZE} (cached, 200)`, client, r.image, '2xx'));
    out.push(httpRow('GET /:slug scan redirect (302, recorded)', client, r.redirect, '3xx'));
    out.push(httpRow('bare node:http sending the same PNG bytes (reference)', client, r.barePng, '2xx'));
  }
  out.push('');
  for (const client of CLIENTS) {
    const r = http.byClient[client];
    const ratio = r.redirect.requests.average / r.image.requests.average;
    const verdict =
      unexpected(r.image, '2xx') + unexpected(r.redirect, '3xx') > 0
        ? 'NOT COMPARABLE (other answers than 200 and 302)'
        : ratio <= 2
          ? 'met'
          : 'MISSED';
    out.push(
      `- throughput ratio, bodies ${client} (redirect req/s / cached image req/s): ${fmt(ratio, 2)}x — target ≤ 2x: ` +
        `${verdict}`,
    );
  }
  console.log(out.join('\n'));
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
