// GET /v1/batches/:batch_id/images.zip: a bulk call's images and manifest as one streamed ZIP,
// downloaded over HTTP to a temporary file (never buffered whole) and read back with yauzl.
import { createWriteStream } from 'node:fs';
import { mkdtemp, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import type { ReadableStream as WebReadableStream } from 'node:stream/web';
import { parse } from 'csv-parse/sync';
import { stringify } from 'csv-stringify/sync';
import fc from 'fast-check';
import QRCode from 'qrcode';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import yauzl from 'yauzl';
import { BATCH_PAGE_SIZE } from '../../src/modules/batches/service.ts';
import { decodeQr } from '../../src/modules/images/decode.ts';
import { svgToRgba } from '../../src/modules/images/raster.ts';
import { MIN_PIXELS_PER_MODULE } from '../../src/modules/images/scannable-size.ts';
import { getTestApp, type TestApp } from '../support/app.ts';
import { rasterisePdf, requireDecoderTools, zbarRead } from '../support/decoders.ts';

let app: TestApp;
let key: string;
let dir: string;

beforeAll(async () => {
  app = await getTestApp();
  key = await app.newAccountKey();
  dir = await mkdtemp(join(tmpdir(), 'qr-batches-test-'));
});
afterAll(async () => {
  await app.close();
  await rm(dir, { recursive: true, force: true });
});

const STYLES = ['square', 'dots', 'rounded', 'branded'] as const;
const COLORS = ['#000000', '#1d4ed8', '#7c2d12'];

/** `n` url codes in mixed styles and colors. */
const urlItems = (n: number, tag: string) =>
  Array.from({ length: n }, (_, i) => ({
    content: `https://example.com/${tag}/${i}`,
    design: { style: STYLES[i % STYLES.length], fg_color: COLORS[i % COLORS.length] },
  }));

async function bulk(apiKey: string, codes: unknown[]): Promise<{ batchId: string; codes: any[] }> {
  const res = await app.request('POST', '/v1/codes/bulk', { key: apiKey, body: { codes } });
  if (res.status !== 201) throw new Error(`bulk failed: ${res.status} ${res.text.slice(0, 300)}`);
  return { batchId: res.body.batch_id, codes: res.body.data };
}

let downloads = 0;

/** Streams the ZIP to a file; a non-200 answer is returned parsed instead. */
async function download(batchId: string, query = '', apiKey = key, signal?: AbortSignal) {
  const response = await fetch(`${app.url}/v1/batches/${batchId}/images.zip${query}`, {
    headers: { authorization: `Bearer ${apiKey}` },
    signal,
  });
  if (response.status !== 200)
    return { status: response.status, headers: response.headers, body: (await response.json()) as any, path: '' };
  const path = join(dir, `download-${++downloads}.zip`);
  await pipeline(Readable.fromWeb(response.body as WebReadableStream<Uint8Array>), createWriteStream(path));
  return { status: 200, headers: response.headers, body: undefined, path };
}

/** Every entry's name in order, and the bytes of the entries `keep` asks for. */
async function readZip(path: string, keep: (name: string) => boolean = () => true) {
  const zip = await yauzl.openPromise(path);
  const names: string[] = [];
  const files = new Map<string, Buffer>();
  for await (const entry of zip.eachEntry()) {
    names.push(entry.fileName);
    if (!keep(entry.fileName)) continue;
    const chunks: Buffer[] = [];
    for await (const chunk of await zip.openReadStreamPromise(entry)) chunks.push(chunk as Buffer);
    files.set(entry.fileName, Buffer.concat(chunks));
  }
  return { names, files };
}

/** Decodes a PNG by wrapping it in an SVG for resvg, the same rasterizer the service uses. */
function decodePng(png: Buffer): string | null {
  const width = png.readUInt32BE(16); // IHDR width
  const svg =
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${width}"><image ` +
    `href="data:image/png;base64,${png.toString('base64')}" width="${width}" height="${width}"/></svg>`;
  return decodeQr(svgToRgba(svg, width));
}

describe('GET /v1/batches/:batch_id/images.zip', () => {
  it('zips every code of a 251-code batch as PNG, with a manifest that matches the codes', async () => {
    const text = { type: 'text', content: { text: 'Print run, "batch" 7; ☕' }, design: { style: 'rounded' } };
    const { batchId, codes } = await bulk(key, [...urlItems(250, 'print'), text]);
    expect(codes.length).toBeGreaterThan(BATCH_PAGE_SIZE); // more than one page is read

    const res = await download(batchId, '?format=png&size=512');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/zip');
    expect(res.headers.get('content-disposition')).toBe(`attachment; filename="${batchId}.zip"`);

    const dots = codes.find((c) => c.design.style === 'dots')!;
    const staticCode = codes.find((c) => c.type === 'text')!;
    const { names, files } = await readZip(
      res.path,
      (name) => name === 'manifest.csv' || name === `${dots.id}.png` || name === `${staticCode.id}.png`,
    );
    expect(names).toHaveLength(252);
    expect(names.at(-1)).toBe('manifest.csv');
    expect(names.slice(0, -1).sort()).toEqual(codes.map((c) => `${c.id}.png`).sort());

    const rows: Record<'id' | 'type' | 'content' | 'payload' | 'scan_url', string>[] = parse(
      files.get('manifest.csv')!,
      { columns: true },
    );
    expect(Object.keys(rows[0]!)).toEqual(['id', 'type', 'content', 'payload', 'scan_url']);
    // In the database's id order, the same as the images'.
    expect(rows.map((row) => `${row.id}.png`)).toEqual(names.slice(0, -1));
    const byId = new Map(codes.map((c) => [c.id, c]));
    for (const row of rows) {
      const code = byId.get(row.id)!;
      expect(row).toEqual({
        id: code.id,
        type: code.type,
        content: code.type === 'url' ? code.content : JSON.stringify(code.content),
        payload: code.payload,
        scan_url: code.scan_url ?? '',
      });
    }
    expect(JSON.parse(rows.find((row) => row.id === staticCode.id)!.content)).toEqual(text.content);

    for (const code of [dots, staticCode]) {
      const png = files.get(`${code.id}.png`)!;
      expect(png.subarray(1, 4).toString()).toBe('PNG');
      expect(png.readUInt32BE(16)).toBe(512);
      expect(decodePng(png)).toBe(code.payload);
    }
    expect(staticCode.payload).toBe(text.content.text);
    expect(dots.payload).toBe(dots.scan_url);
  });

  it('writes text a spreadsheet would run as a formula with a leading apostrophe', async () => {
    const formulas = ['=HYPERLINK("http://evil.example","x")', '+1+cmd', '-2+3', '@SUM(1)'];
    const { batchId, codes } = await bulk(
      key,
      formulas.map((text) => ({ type: 'text', content: { text } })),
    );
    const res = await download(batchId, '?format=svg&size=128');
    const { files } = await readZip(res.path, (name) => name === 'manifest.csv');
    const rows: Record<string, string>[] = parse(files.get('manifest.csv')!, { columns: true });
    const payloadOf = new Map(rows.map((row) => [row.id, row.payload]));
    for (const code of codes) expect(payloadOf.get(code.id)).toBe(`'${code.payload}`);
    expect(codes.map((code) => code.payload).sort()).toEqual([...formulas].sort());
  });

  it('writes a manifest whose type and content columns the CSV import reads back unchanged (property)', async () => {
    const importer = await app.newAccountKey('manifest-round-trip');
    // Text a CSV writer and reader must agree on: separators, quotes, line ends, formula
    // starters, spaces, and any other character.
    const unit = fc.oneof(
      fc.constantFrom('=', '+', '-', '@', '\t', '\r', '\n', '\r\n', ',', ';', '"', "'", ' ', '{', '}', '\\'),
      fc.string({ unit: 'grapheme', minLength: 1, maxLength: 1 }),
    );
    const text = fc.string({ unit, minLength: 1, maxLength: 40 }).filter((value) => value.trim() !== '');
    const item = fc.oneof(
      text.map((value) => ({ type: 'text', content: { text: value } })),
      fc
        .webPath()
        .map((path) => ({ type: 'url', content: `https://example.com${path.startsWith('/') ? '' : '/'}${path}` })),
    );
    await fc.assert(
      fc.asyncProperty(fc.array(item, { minLength: 1, maxLength: 6 }), async (items) => {
        const { batchId, codes } = await bulk(key, items);
        const { files } = await readZip(
          (await download(batchId, '?format=svg&size=128')).path,
          (name) => name === 'manifest.csv',
        );
        const rows: Record<string, string>[] = parse(files.get('manifest.csv')!, { columns: true });
        const csv = stringify(
          rows.map((row) => ({ type: row.type, content: row.content })),
          { header: true, columns: ['type', 'content'] },
        );
        const imported = await app.request('POST', '/v1/codes/bulk', {
          key: importer,
          rawBody: csv,
          headers: { 'content-type': 'text/csv; charset=utf-8' },
        });
        expect(imported.status, imported.text).toBe(201);
        const original = new Map(codes.map((code) => [code.id, code]));
        expect(imported.body.data.map((code: any) => ({ type: code.type, content: code.content }))).toEqual(
          rows.map((row) => ({ type: original.get(row.id)!.type, content: original.get(row.id)!.content })),
        );
      }),
      { numRuns: 12 },
    );
  });

  it('serves SVG (the default) and PDF entries, honouring size and margin', async () => {
    const { batchId, codes } = await bulk(key, [
      ...urlItems(3, 'formats'),
      { type: 'text', content: { text: 'hello' } },
    ]);
    const svg = await download(batchId, '?size=300&margin=6');
    const svgZip = await readZip(svg.path);
    expect(svgZip.names.sort()).toEqual([...codes.map((c) => `${c.id}.svg`), 'manifest.csv'].sort());
    for (const code of codes) {
      const image = svgZip.files.get(`${code.id}.svg`)!.toString();
      expect(image).toMatch(/^<svg[^>]+width="300"/);
      expect(decodeQr(svgToRgba(image, 600))).toBe(code.payload);
    }
    // The same bytes as the single-image endpoint with the same query.
    const single = await fetch(`${app.url}/v1/codes/${codes[0].id}/image?size=300&margin=6`, {
      headers: { authorization: `Bearer ${key}` },
    });
    expect(Buffer.from(await single.arrayBuffer()).equals(svgZip.files.get(`${codes[0].id}.svg`)!)).toBe(true);

    const pdf = await readZip((await download(batchId, '?format=pdf&size=256')).path);
    expect(pdf.names.sort()).toEqual([...codes.map((c) => `${c.id}.pdf`), 'manifest.csv'].sort());
    // Rasterised by poppler at one pixel a point, and read by zbar: nothing of ours in the way.
    await requireDecoderTools();
    for (const code of codes) {
      const bytes = pdf.files.get(`${code.id}.pdf`)!;
      expect(bytes.subarray(0, 5).toString()).toBe('%PDF-');
      const path = join(dir, `${code.id}.pdf`);
      await writeFile(path, bytes);
      expect((await zbarRead([await rasterisePdf(path)], code.payload))[0]).toBe(code.payload);
    }
  });

  it('draws each image at least at the smallest size its code scans at, as the image endpoint does', async () => {
    await requireDecoderTools();
    const text = 'Lorem ipsum dolor sit amet, consectetur adipiscing elit. '.repeat(6).slice(0, 290);
    const { batchId, codes } = await bulk(key, [
      { type: 'text', content: { text }, design: { style: 'dots' } },
      ...urlItems(2, 'small'),
    ]);
    const { files } = await readZip((await download(batchId, '?format=png&size=64')).path);
    for (const code of codes) {
      const png = files.get(`${code.id}.png`)!;
      const width = png.readUInt32BE(16); // IHDR width
      const across =
        QRCode.create(code.payload, { errorCorrectionLevel: code.design.error_correction }).modules.size +
        2 * code.design.margin;
      expect(width).toBe(MIN_PIXELS_PER_MODULE * across);
      const single = await fetch(`${app.url}/v1/codes/${code.id}/image?format=png&size=64`, {
        headers: { authorization: `Bearer ${key}` },
      });
      expect(single.headers.get('image-width')).toBe(String(width));
      const path = join(dir, `small-${code.id}.png`);
      await writeFile(path, png);
      expect((await zbarRead([path], code.payload))[0]).toBe(code.payload);
    }
  });

  it("answers 404 alike for an unknown batch and another account's batch", async () => {
    const { batchId } = await bulk(key, urlItems(2, 'mine'));
    const other = await app.newAccountKey();
    const theirs = await download(batchId, '', other);
    const unknown = await download('batch_doesnotexist000000', '', other);
    for (const [res, id] of [
      [theirs, batchId],
      [unknown, 'batch_doesnotexist000000'],
    ] as const) {
      expect(res.status).toBe(404);
      expect(res.headers.get('content-type')).toContain('application/problem+json');
      expect(res.headers.get('content-disposition')).toBeNull();
      const { request_id: _r, instance: _i, ...problem } = res.body;
      expect(problem).toEqual({
        type: expect.any(String),
        title: 'Not found',
        status: 404,
        detail: `No batch with id '${id}'.`,
      });
    }
    // Unknown ids do not leak either: both problems differ only in the id they repeat.
    expect({ ...theirs.body, request_id: 0, instance: 0, detail: 0 }).toEqual({
      ...unknown.body,
      request_id: 0,
      instance: 0,
      detail: 0,
    });
    expect((await download(batchId)).status).toBe(200);
  });

  it('validates the query like the image endpoint (422)', async () => {
    const { batchId } = await bulk(key, urlItems(1, 'query'));
    for (const [query, path] of [
      ['?size=10', 'size'],
      ['?size=5000', 'size'],
      ['?size=big', 'size'],
      ['?format=gif', 'format'],
      ['?margin=1', 'margin'],
      ['?color=red', 'color'],
    ]) {
      const res = await app.request('GET', `/v1/batches/${batchId}/images.zip${query}`, { key });
      expect(res.status, query).toBe(422);
      expect(res.body.errors[0].path, query).toBe(path);
    }
    // The query is checked before the batch is looked up.
    expect((await app.request('GET', '/v1/batches/batch_unknown/images.zip?size=10', { key })).status).toBe(422);
  });

  it('renders without the image cache of the single-image endpoint', async () => {
    const { batchId } = await bulk(key, urlItems(3, 'cache'));
    const render = vi.spyOn(app.services.images, 'renderCodeImage');
    const cached = vi.spyOn(app.services.images, 'image');
    try {
      expect((await download(batchId, '?format=png&size=128')).status).toBe(200);
      expect(render).toHaveBeenCalledTimes(3);
      expect(cached).not.toHaveBeenCalled();
    } finally {
      render.mockRestore();
      cached.mockRestore();
    }
  });

  it('aborts the download when rendering fails after streaming began', async () => {
    const { batchId } = await bulk(key, urlItems(6, 'broken'));
    const render = app.services.images.renderCodeImage;
    let calls = 0;
    const spy = vi.spyOn(app.services.images, 'renderCodeImage').mockImplementation(async (accountId, code, params) => {
      if (++calls === 4) throw new Error('renderer exploded');
      return render(accountId, code, params);
    });
    try {
      await expect(download(batchId, '?format=png&size=128')).rejects.toThrow();
      expect(calls).toBe(4);
    } finally {
      spy.mockRestore();
    }
    expect((await download(batchId, '?format=png&size=128')).status).toBe(200);
  });
});

// Drawing and streaming 1,000 large PNGs (and stopping when the client goes away) touches the
// database only to read a page of codes at a time, so it runs once, on SQLite (listed in
// .ci/vitest-counts.mjs): on MariaDB it would spend the same three minutes of CI (on a 2-core
// machine) proving the same thing again.
describe.skipIf((process.env.DATABASE_URL ?? '').startsWith('mysql://'))('large batches', () => {
  const COUNT = 1000;
  let big: { batchId: string; codes: any[] };

  beforeAll(async () => {
    // Gradient designs: their PNGs stay truecolor (tens of KiB), so the archive is far larger
    // than the memory bound below and holding the images could not pass unnoticed. (Flat
    // designs now encode as small palette PNGs.)
    const gradient = { type: 'linear', from: '#000000', to: '#1d4ed8', angle: 30 };
    big = await bulk(
      key,
      urlItems(COUNT, 'memory').map((item) => ({ ...item, design: { ...item.design, gradient } })),
    );
  }, 120_000);

  it(`streams ${COUNT} PNGs with flat memory`, async () => {
    // What is measured is memory the download keeps, not garbage V8 has yet to collect: each
    // sample follows a full GC. One a second: a full GC of this heap (~110 MiB, the server's and
    // the test's) takes the thread that also feeds the render thread, and with one every 100 or
    // 250 ms the download of 1,000 images used 668 s of CPU on a loaded machine (the time in GC
    // is logged). Holding the images would grow the samples steadily, so one a second sees it.
    // Images are drawn on the render worker threads, whose pixmaps and
    // encoder buffers come and go with each image whatever the batch size; what the download
    // keeps is on this thread: JS objects and the image bytes handed over (heapUsed + external,
    // which counts every Buffer and ArrayBuffer of this thread). The process's RSS is logged.
    setFlagsFromString('--expose-gc');
    const gc = runInNewContext('gc') as () => void;
    gc();
    const MiB = 1024 * 1024;
    const kept = () => {
      const usage = process.memoryUsage();
      return usage.heapUsed + usage.external;
    };
    const baseline = kept();
    const rssBaseline = process.memoryUsage().rss;
    const samples: number[] = [];
    let rssPeak = rssBaseline;
    let gcMs = 0;
    const sampler = setInterval(() => {
      rssPeak = Math.max(rssPeak, process.memoryUsage().rss);
      const gcStart = performance.now();
      gc();
      gcMs += performance.now() - gcStart;
      samples.push(kept());
    }, 1000);
    const started = performance.now();
    let res;
    try {
      res = await download(big.batchId, '?format=png&size=1024');
    } finally {
      clearInterval(sampler);
    }
    const seconds = (performance.now() - started) / 1000;
    const zipBytes = (await stat(res.path)).size;
    const peakGrowth = Math.max(...samples) - baseline;
    console.log(
      `batch ZIP: ${COUNT} PNGs at 1024 px, ${(zipBytes / MiB).toFixed(1)} MiB in ${seconds.toFixed(1)} s; ` +
        (`kept on this thread: baseline ${(baseline / MiB).toFixed(0)} MiB, peak growth ` +
          `${(peakGrowth / MiB).toFixed(1)} MiB (${samples.length} samples, ${(gcMs / 1000).toFixed(1)} s in GC); `) +
        `process RSS peak growth ${((rssPeak - rssBaseline) / MiB).toFixed(1)} MiB`,
    );
    // The bound: the download keeps at most MAX_IMAGES_AHEAD + 1 PNGs (~100 KiB each here), one
    // page of 200 codes, the manifest (~0.15 MiB) and the streams' buffers (some 100 KiB); each
    // sample follows a full collection, so garbage is not counted. Measured after a collection:
    // +11 MiB over 2,000 images (the heap's own drift). Holding the images instead adds the whole
    // archive, which is larger than the bound: +183 MiB measured over 2,000 images with yazl's
    // addBuffer (it references every added buffer until the ZIP is dropped). 1,000 images (~90 MiB)
    // show that as well as 2,000 did, in half the time.
    expect(zipBytes).toBeGreaterThan(80 * MiB);
    expect(peakGrowth).toBeLessThan(48 * MiB);

    const { names } = await readZip(res.path, () => false);
    expect(names).toHaveLength(COUNT + 1);
    expect(new Set(names)).toEqual(new Set([...big.codes.map((c) => `${c.id}.png`), 'manifest.csv']));
    // 1,000 renders at 1024 px on one render thread: 3 minutes on CI's 2 cores, more when other work shares them.
  }, 600_000);

  it('stops rendering when the client goes away', async () => {
    const spy = vi.spyOn(app.services.images, 'renderCodeImage');
    try {
      const controller = new AbortController();
      const response = await fetch(`${app.url}/v1/batches/${big.batchId}/images.zip?format=png&size=1024`, {
        headers: { authorization: `Bearer ${key}` },
        signal: controller.signal,
      });
      expect(response.status).toBe(200);
      const reader = response.body!.getReader();
      await reader.read();
      controller.abort();
      await new Promise((resolve) => setTimeout(resolve, 300));
      const rendered = spy.mock.calls.length;
      await new Promise((resolve) => setTimeout(resolve, 500));
      expect(spy.mock.calls.length).toBe(rendered);
      expect(rendered).toBeLessThan(COUNT / 10);
    } finally {
      spy.mockRestore();
    }
  });
});
