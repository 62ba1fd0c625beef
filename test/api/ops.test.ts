import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getTestApp, type TestApp } from '../support/app.ts';
import { PACKAGE_VERSION } from '../support/package.ts';

let app: TestApp;

beforeAll(async () => {
  app = await getTestApp();
});
afterAll(() => app.close());

describe('operations', () => {
  it("GET /healthz answers without a key, with package.json's version", async () => {
    const res = await app.request('GET', '/healthz');
    expect(res.status).toBe(200);
    expect(PACKAGE_VERSION).toMatch(/^\d+\.\d+\.\d+/);
    expect(res.body).toEqual({ status: 'ok', version: PACKAGE_VERSION });
  });

  it('GET /readyz checks the database', async () => {
    const res = await app.request('GET', '/readyz');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ status: 'ready' });
  });

  it('gives every answer a request id, keeping a sane one the caller sent', async () => {
    const own = await app.request('GET', '/healthz', { headers: { 'x-request-id': 'trace-123' } });
    expect(own.headers.get('x-request-id')).toBe('trace-123');
    const generated = await app.request('GET', '/healthz', { headers: { 'x-request-id': 'bad id with spaces' } });
    expect(generated.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
    const problem = await app.request('GET', '/no/such/route');
    expect(problem.body.request_id).toBe(problem.headers.get('x-request-id'));
  });
});

describe('readiness when the database is gone', () => {
  it('answers 503 problem+json, and liveness stays 200', async () => {
    const own = await getTestApp();
    await own.testDb.db.destroy();
    try {
      const res = await own.request('GET', '/readyz');
      expect(res.status).toBe(503);
      expect(res.headers.get('content-type')).toContain('application/problem+json');
      expect((await own.request('GET', '/healthz')).status).toBe(200);
    } finally {
      // destroy() again is harmless; the test database is still removed.
      await own.close().catch(() => undefined);
    }
  });
});
