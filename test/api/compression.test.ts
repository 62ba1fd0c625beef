// Compression as HTTP negotiates it: JSON answers, documents and pages of 1 KiB or more in the
// encoding the client prefers (zstd, brotli, gzip), identity when it asks for none or the answer
// is small; `Vary: Accept-Encoding` wherever the choice was made; the scan redirect and
// GraphQL's event stream never compressed; the dashboard's and GraphiQL's files precompressed,
// cached for good, and the same bytes once decoded.
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { request as httpRequest } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getTestApp, type TestApp } from '../support/app.ts';

let app: TestApp;
let key: string;

beforeAll(async () => {
  app = await getTestApp();
  key = await app.newAccountKey('compression');
});
afterAll(() => app.close());

/** fetch() decodes bodies and hides Content-Encoding's effect on size: node:http shows the wire. */
function raw(
  path: string,
  headers: Record<string, string> = {},
): Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: Buffer }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(`${app.url}${path}`, { headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk) => chunks.push(chunk));
      res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(chunks) }));
    });
    req.on('error', reject);
    req.end();
  });
}

const decode = (encoding: string | undefined, body: Buffer) =>
  encoding === 'br' ? brotliDecompressSync(body) : encoding === 'gzip' ? gunzipSync(body) : body;

describe('JSON and documents', () => {
  it('compresses the OpenAPI document in the encoding asked for, and identical once decoded', async () => {
    const identity = await raw('/v1/openapi.json', { 'accept-encoding': 'identity' });
    expect(identity.headers['content-encoding']).toBeUndefined();
    expect(identity.body.length).toBeGreaterThan(100_000);
    for (const encoding of ['br', 'gzip']) {
      const res = await raw('/v1/openapi.json', { 'accept-encoding': encoding });
      expect(res.headers['content-encoding']).toBe(encoding);
      expect(res.headers.vary).toMatch(/Accept-Encoding/i);
      expect(res.body.length).toBeLessThan(identity.body.length / 5);
      expect(decode(encoding, res.body).equals(identity.body)).toBe(true);
    }
    // A client preferring gzip gets gzip.
    expect(
      (await raw('/v1/openapi.json', { 'accept-encoding': 'gzip;q=1, br;q=0.5' })).headers['content-encoding'],
    ).toBe('gzip');
  });

  it('compresses a large JSON list and a large GraphQL answer, not a small one', async () => {
    for (let i = 0; i < 12; i++)
      await app.request('POST', '/v1/codes', { key, body: { content: `https://example.com/compression/${i}` } });
    const list = await raw('/v1/codes?limit=12', { authorization: `Bearer ${key}`, 'accept-encoding': 'br, gzip' });
    expect(list.status).toBe(200);
    expect(list.headers['content-encoding']).toBe('br');
    expect(JSON.parse(decode('br', list.body).toString()).data).toHaveLength(12);
    const small = await raw('/healthz', { 'accept-encoding': 'br, gzip' });
    expect(small.headers['content-encoding']).toBeUndefined();
    const graphql = await fetch(`${app.url}/graphql`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json', 'accept-encoding': 'gzip' },
      body: JSON.stringify({ query: '{ codes(first: 12) { edges { node { id content scanUrl createdAt } } } }' }),
    });
    expect(graphql.headers.get('content-encoding')).toBe('gzip');
    expect((await graphql.json()).data.codes.edges).toHaveLength(12);
  });

  it('compresses the streamed raw-scan CSV export, the same rows once decoded', async () => {
    const code = (await app.request('POST', '/v1/codes', { key, body: { content: 'https://example.com/exported' } }))
      .body;
    for (let i = 0; i < 40; i++)
      await fetch(code.scan_url, {
        redirect: 'manual',
        headers: { 'user-agent': `Mozilla/5.0 (X11; Linux x86_64) Chrome/131.0.${i}` },
      });
    await app.services.scans.recorder.flush();
    const path = `/v1/codes/${code.id}/scans/raw?format=csv`;
    const identity = await raw(path, { authorization: `Bearer ${key}`, 'accept-encoding': 'identity' });
    expect(identity.body.toString().trim().split('\n')).toHaveLength(41);
    const gzip = await raw(path, { authorization: `Bearer ${key}`, 'accept-encoding': 'gzip' });
    expect(gzip.headers['content-encoding']).toBe('gzip');
    expect(gzip.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(decode('gzip', gzip.body).toString()).toBe(identity.body.toString());
  });

  it('never compresses the scan redirect', async () => {
    const code = (
      await app.request('POST', '/v1/codes', { key, body: { content: `https://example.com/${'long/'.repeat(300)}` } })
    ).body;
    const scan = await raw(new URL(code.scan_url).pathname, { 'accept-encoding': 'br, gzip' });
    expect(scan.status).toBe(302);
    expect(scan.headers['content-encoding']).toBeUndefined();
  });

  it('never compresses GraphQL event streams', async () => {
    const controller = new AbortController();
    const res = await fetch(
      `${app.url}/graphql?query=${encodeURIComponent('subscription { scanCreated { codeId } }')}`,
      {
        headers: { authorization: `Bearer ${key}`, accept: 'text/event-stream', 'accept-encoding': 'br, gzip' },
        signal: controller.signal,
      },
    );
    expect(res.headers.get('content-type')).toContain('text/event-stream');
    // yoga marks its streams `none`, which keeps every compressor (ours, a proxy's) off.
    expect(res.headers.get('content-encoding')).toBe('none');
    controller.abort();
  });
});

describe('precompressed files', () => {
  it('sends the dashboard script as the build compressed it, with Vary, cached for good', async () => {
    const page = await (await fetch(`${app.url}/dashboard/`)).text();
    const script = /src="(\/dashboard\/assets\/[^"]+\.js)"/.exec(page)![1]!;
    const identity = await raw(script, { 'accept-encoding': 'identity' });
    expect(identity.headers.vary).toMatch(/Accept-Encoding/i);
    for (const encoding of ['br', 'gzip']) {
      const res = await raw(script, { 'accept-encoding': encoding });
      expect(res.headers['content-encoding']).toBe(encoding);
      expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
      expect(Number(res.headers['content-length'])).toBe(res.body.length);
      expect(decode(encoding, res.body).equals(identity.body)).toBe(true);
    }
  });

  it('serves GraphiQL as a small page and its files cached for good and compressed', async () => {
    const page = await raw('/graphql', { accept: 'text/html', 'accept-encoding': 'br' });
    expect(page.status).toBe(200);
    const html = decode(page.headers['content-encoding'] as string | undefined, page.body).toString();
    expect(html.length).toBeLessThan(2000);
    const files = [...html.matchAll(/(?:src|href)="(\/graphql\/assets\/[^"]+)"/g)].map((m) => m[1]!);
    expect(files).toHaveLength(3);
    for (const file of files) {
      const identity = await raw(file, { 'accept-encoding': 'identity' });
      expect(identity.status).toBe(200);
      expect(identity.headers['cache-control']).toBe('public, max-age=31536000, immutable');
      if (file.endsWith('.ico')) continue;
      const br = await raw(file, { 'accept-encoding': 'br' });
      expect(br.headers['content-encoding']).toBe('br');
      expect(decode('br', br.body).equals(identity.body)).toBe(true);
    }
    const script = files.find((file) => file.endsWith('.js'))!;
    const br = await raw(script, { 'accept-encoding': 'br' });
    // The 9 MB script travels as about 2 MB, once.
    expect(br.body.length).toBeLessThan(2.5 * 1024 * 1024);
    expect((await raw('/graphql/assets/graphiql-0000000000000000.js')).status).toBe(404);
  });
});
