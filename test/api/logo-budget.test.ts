// Logo storage per account: each account may store LOGO_BYTES_PER_ACCOUNT of logos (a logo it
// shares with another account counted in full for each), refused past it with a 422 naming the
// setting, and logos no code uses any more are collected after LOGO_UNREFERENCED_GRACE_MS.
import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getTestApp, type TestApp } from '../support/app.ts';
import { logoPng, startLogoServer, type LogoServer } from '../support/logo-server.ts';

const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');
/** Room for two of these logos, not three. */
const BUDGET =
  Math.max(
    ...['aa0000', '00aa00', '0000aa', 'bb0000', '00bb00', '0000bb', 'cc0000', '00cc00', '0000cc'].map(
      (c) => logoPng(c).length,
    ),
  ) *
    2 +
  10;

let logos: LogoServer;
beforeAll(async () => {
  logos = await startLogoServer();
});
afterAll(() => logos.close());

const withLogo = (colour: string, content = 'https://example.com/logo') => ({
  content,
  design: { logo_url: logos.url(`/logo-${colour}.png`), error_correction: 'H' },
});
const codeCount = async (app: TestApp, key: string) =>
  (await app.request('GET', '/v1/codes?limit=100', { key })).body.data.length;
const logoStored = async (app: TestApp, colour: string) =>
  (await app.testDb
    .db('logos')
    .where({ id: sha256(logoPng(colour)) })
    .first()) !== undefined;

describe('logo bytes per account, collected as soon as unused (grace 0)', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await getTestApp({
      ALLOW_PRIVATE_NETWORK_TARGETS: 'true',
      LOGO_BYTES_PER_ACCOUNT: String(BUDGET),
      LOGO_UNREFERENCED_GRACE_MS: '0',
    });
  });
  afterAll(() => app.close());

  it(
    'refuses a third logo on REST, bulk and GraphQL, creating nothing; a logo already held costs nothing more; ' +
      'accounts have budgets of their own',
    async () => {
      const key = await app.newAccountKey('logo-budget');
      expect((await app.request('POST', '/v1/codes', { key, body: withLogo('aa0000') })).status).toBe(201);
      expect((await app.request('POST', '/v1/codes', { key, body: withLogo('00aa00') })).status).toBe(201);
      const fetchesBefore = logos.requests();
      const refused = await app.request('POST', '/v1/codes', { key, body: withLogo('0000aa') });
      expect(refused.status, refused.text).toBe(422);
      expect(refused.headers.get('content-type')).toMatch(/application\/problem\+json/);
      expect(refused.body.detail).toMatch(
        new RegExp(
          `take \\d+ of the ${BUDGET} bytes it may store \\(LOGO_BYTES_PER_ACCOUNT\\); this one needs ` +
            `${logoPng('0000aa').length} more`,
        ),
      );
      expect(refused.body.errors).toEqual([expect.objectContaining({ path: 'design.logo_url' })]);
      expect(logos.requests()).toBe(fetchesBefore + 1);
      const bulk = await app.request('POST', '/v1/codes/bulk', {
        key,
        body: { codes: [withLogo('0000aa'), withLogo('aa0000')] },
      });
      expect(bulk.status).toBe(422);
      const graphql = await app.graphql(
        key,
        `mutation { createCode(input: { content: "https://example.com/g", design: { logoUrl: ` +
          `"${logos.url('/logo-0000aa.png')}", errorCorrection: H } }) { id } }`,
      );
      expect(graphql.body.errors?.[0]?.extensions).toMatchObject({ code: 'VALIDATION_FAILED', status: 422 });
      expect(await codeCount(app, key)).toBe(2);
      expect(await logoStored(app, '0000aa')).toBe(false);
      // The same logo again: held already, so it fits.
      expect(
        (await app.request('POST', '/v1/codes', { key, body: withLogo('aa0000', 'https://example.com/again') })).status,
      ).toBe(201);
      const other = await app.newAccountKey('logo-budget-other');
      expect((await app.request('POST', '/v1/codes', { key: other, body: withLogo('0000aa') })).status).toBe(201);
    },
  );

  it('takes a logo the account holds already when its budget is exactly spent', async () => {
    const full = await getTestApp({
      ALLOW_PRIVATE_NETWORK_TARGETS: 'true',
      LOGO_BYTES_PER_ACCOUNT: String(logoPng('bb0000').length),
    });
    try {
      const key = await full.newAccountKey('logo-budget-full');
      expect((await full.request('POST', '/v1/codes', { key, body: withLogo('bb0000') })).status).toBe(201);
      expect((await full.request('POST', '/v1/codes', { key, body: withLogo('00bb00') })).status).toBe(422);
      expect(
        (await full.request('POST', '/v1/codes', { key, body: withLogo('bb0000', 'https://example.com/second') }))
          .status,
      ).toBe(201);
      expect(await codeCount(full, key)).toBe(2);
    } finally {
      await full.close();
    }
  });

  it('frees the logo of a deleted code and of a code whose logo changed, and deletes a logo nobody holds', async () => {
    const key = await app.newAccountKey('logo-budget-free');
    const red = await app.request('POST', '/v1/codes', { key, body: withLogo('cc0000') });
    const green = await app.request('POST', '/v1/codes', { key, body: withLogo('00cc00') });
    expect((await app.request('POST', '/v1/codes', { key, body: withLogo('0000cc') })).status).toBe(422);
    expect((await app.request('DELETE', `/v1/codes/${green.body.id}`, { key })).status).toBe(204);
    expect((await app.request('POST', '/v1/codes', { key, body: withLogo('0000cc') })).status).toBe(201);
    expect(await logoStored(app, '00cc00')).toBe(false);
    // The red code takes the blue logo (held already): the red one is no longer used.
    const changed = await app.request('PATCH', `/v1/codes/${red.body.id}`, {
      key,
      body: { design: { logo_url: logos.url('/logo-0000cc.png'), error_correction: 'H' } },
    });
    expect(changed.status, changed.text).toBe(200);
    expect(await logoStored(app, 'cc0000')).toBe(true);
    await app.services.logos.collect();
    expect(await logoStored(app, 'cc0000')).toBe(false);
    // What codes still use stays, and renders.
    expect(await logoStored(app, '0000cc')).toBe(true);
    expect((await app.request('GET', `/v1/codes/${red.body.id}/image?format=png`, { key })).status).toBe(200);
  });
});

describe('the grace period', () => {
  it('keeps an unused logo (and its bytes) for LOGO_UNREFERENCED_GRACE_MS after its last use', async () => {
    const app = await getTestApp({
      ALLOW_PRIVATE_NETWORK_TARGETS: 'true',
      LOGO_BYTES_PER_ACCOUNT: String(BUDGET),
      LOGO_UNREFERENCED_GRACE_MS: '3600000',
    });
    try {
      const key = await app.newAccountKey('logo-grace');
      await app.request('POST', '/v1/codes', { key, body: withLogo('aa0000') });
      const green = await app.request('POST', '/v1/codes', { key, body: withLogo('00aa00') });
      expect((await app.request('DELETE', `/v1/codes/${green.body.id}`, { key })).status).toBe(204);
      expect((await app.request('POST', '/v1/codes', { key, body: withLogo('0000aa') })).status).toBe(422);
      await app.services.logos.collect();
      expect(await logoStored(app, '00aa00')).toBe(true);
      // An hour and a bit later, the collector (and the next store) frees it.
      await app.services.logos.collect(undefined, Date.now() + 3_600_001);
      expect(await logoStored(app, '00aa00')).toBe(false);
      expect((await app.request('POST', '/v1/codes', { key, body: withLogo('0000aa') })).status).toBe(201);
    } finally {
      await app.close();
    }
  });
});
