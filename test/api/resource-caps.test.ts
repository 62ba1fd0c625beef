// Per-account bounds on what fans out: webhook endpoints (every scan goes to each, 8 attempts
// apiece) and the logo URLs one bulk call fetches one after another. Past a bound: a 422 that
// names the limit and its setting, and nothing is created or fetched.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getTestApp, type TestApp } from '../support/app.ts';
import { startLogoServer, type LogoServer } from '../support/logo-server.ts';

let app: TestApp;
let logos: LogoServer;

beforeAll(async () => {
  app = await getTestApp({
    WEBHOOK_ENDPOINTS_PER_ACCOUNT: '3',
    BULK_LOGO_FETCHES_PER_CALL: '2',
    ALLOW_PRIVATE_NETWORK_TARGETS: 'true',
  });
  logos = await startLogoServer();
});
afterAll(async () => {
  await app.close();
  await logos.close();
});

describe('webhook endpoints per account', () => {
  it('refuses the fourth of three allowed, on REST and GraphQL, and counts per account', async () => {
    const key = await app.newAccountKey('caps-webhooks');
    const create = (n: number) =>
      app.request('POST', '/v1/webhooks', {
        key,
        body: { url: `https://hooks.example.com/${n}`, events: ['code.created'] },
      });
    for (let n = 0; n < 3; n++) expect((await create(n)).status).toBe(201);
    const refused = await create(3);
    expect(refused.status).toBe(422);
    expect(refused.body.detail).toMatch(/at most 3 webhook endpoints \(WEBHOOK_ENDPOINTS_PER_ACCOUNT\)/);
    const graphql = await app.graphql(
      key,
      'mutation { createWebhook(input: { url: "https://hooks.example.com/g", events: ["code.created"] }) { webhook ' +
        '{ id } } }',
    );
    expect(graphql.body.errors[0].extensions).toMatchObject({ code: 'VALIDATION_FAILED', status: 422 });
    expect((await app.request('GET', '/v1/webhooks', { key })).body.data).toHaveLength(3);
    // Deleting one makes room; another account has its own three.
    const first = (await app.request('GET', '/v1/webhooks', { key })).body.data[0];
    expect((await app.request('DELETE', `/v1/webhooks/${first.id}`, { key })).status).toBe(204);
    expect((await create(4)).status).toBe(201);
    const other = await app.newAccountKey('caps-webhooks-other');
    expect(
      (
        await app.request('POST', '/v1/webhooks', {
          key: other,
          body: { url: 'https://hooks.example.com/o', events: ['code.created'] },
        })
      ).status,
    ).toBe(201);
  });
});

describe('logo URLs per bulk call', () => {
  it('refuses a call naming more distinct logo URLs than allowed before fetching any', async () => {
    const key = await app.newAccountKey('caps-logos');
    const item = (path: string) => ({
      content: 'https://example.com/logo',
      design: { logo_url: logos.url(path), error_correction: 'H' },
    });
    const before = logos.requests();
    const refused = await app.request('POST', '/v1/codes/bulk', {
      key,
      body: { codes: [item('/logo.png?a'), item('/logo.png?b'), item('/logo.png?c')] },
    });
    expect(refused.status).toBe(422);
    expect(refused.body.detail).toMatch(
      /3 different logo URLs; one bulk call may fetch at most 2 \(BULK_LOGO_FETCHES_PER_CALL\)/,
    );
    expect(logos.requests()).toBe(before);
    expect((await app.request('GET', '/v1/codes', { key })).body.data).toEqual([]);
    // The same logo for many codes is one URL, fetched once.
    const allowed = await app.request('POST', '/v1/codes/bulk', {
      key,
      body: { codes: [item('/logo.png'), item('/logo.png'), item('/logo.png')] },
    });
    expect(logos.requests()).toBe(before + 1);
    expect(allowed.status, allowed.text).toBe(201);
  });
});
