// Contract: the image operation in every format, revalidation, and its errors, validated against
// the served document.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../support/app.ts';
import { contractClient, startContractApp, type Contract } from '../support/contract.ts';
import { createCode } from '../support/factories.ts';

let app: TestApp;
let contract: Contract;
let call: ReturnType<typeof contractClient>;
let key: string;

beforeAll(async () => {
  ({ app, contract, call } = await startContractApp());
  key = await app.newAccountKey();
});
afterAll(() => app.close());

describe('images', () => {
  it('200 as SVG, PNG and PDF with ETag and Cache-Control; 304 on a matching If-None-Match', async () => {
    const code = await createCode(app, key, { design: { frame: 'banner', frame_text: 'Scan me' } });
    const path = `/v1/codes/${code.id}/image`;
    const svg = await call('GET', path, { key });
    expect(svg.status).toBe(200);
    expect(svg.headers.get('content-type')).toContain('image/svg+xml');
    expect(svg.text).toContain('<svg');
    expect(svg.headers.get('cache-control')).toBe('private, no-cache');
    const etag = svg.headers.get('etag')!;
    expect(etag).toMatch(/^".+"$/);
    expect((await call('GET', `${path}?format=png&size=256&margin=4`, { key })).headers.get('content-type')).toBe(
      'image/png',
    );
    expect((await call('GET', `${path}?format=pdf`, { key })).headers.get('content-type')).toBe('application/pdf');
    const wifi = await createCode(app, key, {
      type: 'wifi',
      content: { ssid: 'Cafe', encryption: 'WPA', password: 'espresso1' },
    });
    expect((await call('GET', `/v1/codes/${wifi.id}/image?format=png`, { key })).status).toBe(200);

    const notModified = await call('GET', path, { key, headers: { 'If-None-Match': `W/"other", ${etag}` } });
    expect(notModified.status).toBe(304);
    expect(notModified.headers.get('etag')).toBe(etag);
    // Another size is another image: the old tag no longer matches.
    expect((await call('GET', `${path}?size=1024`, { key, headers: { 'If-None-Match': etag } })).status).toBe(200);
  });

  it('422 on a bad query, 404 for an unknown code or another account’s, 401, 403', async () => {
    const code = await createCode(app, key);
    const path = `/v1/codes/${code.id}/image`;
    for (const query of ['?format=gif', '?size=32', '?size=big', '?margin=1', '?colour=red']) {
      const res = await call('GET', path + query, { key });
      expect(res.status, query).toBe(422);
    }
    expect((await call('GET', '/v1/codes/qr_missing/image', { key })).status).toBe(404);
    expect((await call('GET', path, { key: await app.newAccountKey() })).status).toBe(404);
    expect((await call('GET', path)).status).toBe(401);
    expect(
      (await call('GET', path, { key: await app.newAccountKey(undefined, { scopes: ['analytics:read'] }) })).status,
    ).toBe(403);
  });

  it('walked every images operation', () => contract.expectTagCovered('Images'));
});
