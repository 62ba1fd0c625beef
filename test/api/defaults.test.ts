// The service started the documented way (`npm start`, NODE_ENV unset) is production-safe:
// no GraphiQL, no introspection, https-only webhooks; the README's first steps still work.
// `npm run dev` (NODE_ENV=development) keeps GraphiQL. `npm start` runs the compiled service
// (dist/server) with plain node, its worker threads too.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDb, type TestDb } from '../support/db.ts';
import { PACKAGE_VERSION } from '../support/package.ts';
import { runCli, startServer, stopServerTree, type ServerProcess } from '../support/process.ts';

let testDb: TestDb;
let server: ServerProcess;
let key: string;

beforeAll(async () => {
  testDb = await createTestDb();
  key = (await runCli(['keys', 'create', '--account', 'defaults'], { DATABASE_URL: testDb.url })).stdout
    .trim()
    .split('\n')
    .at(-1)!;
  server = await startServer({ DATABASE_URL: testDb.url }, undefined, 'npm start');
}, 60_000);
afterAll(async () => {
  if (server) await stopServerTree(server);
  await testDb?.destroy();
});

const api = (method: string, path: string, body?: unknown) =>
  fetch(`${server.url}${path}`, {
    method,
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });

describe('npm start with NODE_ENV unset', () => {
  it("reports package.json's version on /healthz, from the compiled tree too", async () => {
    expect(await (await fetch(`${server.url}/healthz`)).json()).toEqual({ status: 'ok', version: PACKAGE_VERSION });
  });

  it('serves no GraphiQL: a browser gets a 401', async () => {
    const res = await fetch(`${server.url}/graphql`, { headers: { accept: 'text/html' } });
    expect(res.status).toBe(401);
    expect(await res.text()).not.toContain('GraphiQL');
  });

  it('refuses introspection, even with a key', async () => {
    const res = await api('POST', '/graphql', { query: '{ __schema { queryType { name } } }' });
    const body = await res.json();
    expect(body.errors?.[0]?.message).toMatch(/introspection/i);
    expect(JSON.stringify(body)).not.toContain('"Query"');
  });

  it('refuses http:// webhook URLs (checked before any lookup)', async () => {
    const res = await api('POST', '/v1/webhooks', { url: 'http://hooks.example.com/qr', events: ['code.created'] });
    expect(res.status).toBe(422);
    expect((await res.json()).errors).toEqual([
      { path: 'url', message: expect.stringMatching(/must be an https:\/\/ URL/) },
    ]);
  });

  it('still does what the README shows: create a code and scan it', async () => {
    const created = await api('POST', '/v1/codes', { content: 'https://example.com/hello' });
    expect(created.status).toBe(201);
    const code = await created.json();
    const scan = await fetch(`${server.url}${new URL(code.scan_url).pathname}`, { redirect: 'manual' });
    expect(scan.status).toBe(302);
    expect(scan.headers.get('location')).toBe('https://example.com/hello');
  });

  it('runs compiled threads: a render thread draws an image; on MySQL the writer thread stores the scan', async () => {
    expect(server.commandLine()).toContain('dist/server/src/main.js');
    const code = await (await api('POST', '/v1/codes', { content: 'https://example.com/threads' })).json();
    const png = await api('GET', `/v1/codes/${code.id}/image?format=png&size=256`);
    expect(png.status).toBe(200);
    expect(png.headers.get('content-type')).toBe('image/png');
    const browser = {
      'user-agent': 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0 Safari/537.36',
    };
    expect(
      (await fetch(`${server.url}${new URL(code.scan_url).pathname}`, { redirect: 'manual', headers: browser })).status,
    ).toBe(302);
    await expect
      .poll(async () => (await (await api('GET', `/v1/codes/${code.id}/scans`)).json()).total_scans, {
        timeout: 10_000,
      })
      .toBe(1);
  });
});
