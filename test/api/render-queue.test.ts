// Images are drawn on worker threads behind a per-account queue: past RENDER_QUEUE_PER_ACCOUNT
// images waiting or drawing, an account gets 429 with Retry-After, and another account is still
// served. Nothing is queued without bound, and what was refused changes nothing.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getTestApp, type TestApp } from '../support/app.ts';
import { createCode } from '../support/factories.ts';

let app: TestApp;

beforeAll(async () => {
  app = await getTestApp({ RENDER_WORKERS: '1', RENDER_QUEUE_PER_ACCOUNT: '3', RATE_LIMIT_PER_MINUTE: '0' });
});
afterAll(() => app.close());

const png = (key: string, codeId: string, size: number) =>
  app.request('GET', `/v1/codes/${codeId}/image?format=png&size=${size}`, { key });

describe('per-account render queue', () => {
  it('refuses images past the bound with 429 and Retry-After, and serves another account meanwhile', async () => {
    const flooder = await app.newAccountKey('flooder');
    const other = await app.newAccountKey('patient');
    const big = await createCode(app, flooder, { content: 'https://example.com/flood' });
    const small = await createCode(app, other, { content: 'https://example.com/patient' });
    // Distinct sizes: no answer comes from the image cache, each is a render.
    const flood = Array.from({ length: 10 }, (_, i) => png(flooder, big.id, 4000 + i));
    const served = png(other, small.id, 256);
    const answers = await Promise.all(flood);
    const refused = answers.filter((res) => res.status === 429);
    expect(answers.filter((res) => res.status === 200)).toHaveLength(3);
    expect(refused).toHaveLength(7);
    for (const res of refused) {
      expect(res.headers.get('content-type')).toContain('application/problem+json');
      expect(Number(res.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
      expect(res.body.detail).toMatch(/RENDER_QUEUE_PER_ACCOUNT/);
    }
    const mine = await served;
    expect(mine.status).toBe(200);
    expect(mine.headers.get('content-type')).toBe('image/png');
    // Once the queue drained, the account is served again.
    expect((await png(flooder, big.id, 4000)).status).toBe(200);
  });

  it('counts GraphQL renders against the same bound, as errors with retryAfter', async () => {
    const key = await app.newAccountKey('graphql-flood');
    for (let i = 0; i < 5; i++) await createCode(app, key, { content: `https://example.com/g${i}` });
    const res = await app.graphql(key, '{ codes(first: 5) { edges { node { id svg(size: 256) } } } }');
    expect(res.status).toBe(200);
    // svg is non-null, so a refused render nulls the answer up to the nearest nullable field.
    const refused = res.body.errors.filter(
      (error: { extensions: { code: string } }) => error.extensions.code === 'RATE_LIMITED',
    );
    expect(refused.length).toBeGreaterThanOrEqual(1);
    for (const error of refused)
      expect(error.extensions).toMatchObject({ status: 429, retryAfter: expect.any(Number) });
    expect(refused[0].message).toMatch(/RENDER_QUEUE_PER_ACCOUNT/);
  });
});
