// Contract: every routing operation, success and error, validated against the served document.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../support/app.ts';
import { contractClient, startContractApp, type Contract } from '../support/contract.ts';
import { createCode } from '../support/factories.ts';

const IPHONE =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 ' +
  'Mobile/15E148 Safari/604.1';

let app: TestApp;
let contract: Contract;
let call: ReturnType<typeof contractClient>;
let key: string;
let otherKey: string;
let readOnly: string;

beforeAll(async () => {
  ({ app, contract, call } = await startContractApp());
  key = await app.newAccountKey();
  otherKey = await app.newAccountKey();
  readOnly = await app.newAccountKey(undefined, { scopes: ['codes:read'] });
});
afterAll(() => app.close());

const split = [
  { destination: 'https://example.com/a', weight: 1 },
  { destination: 'https://example.com/b', weight: 3 },
];

describe('routing', () => {
  it('get: 200 with every kind of rule, 404 (unknown, another account), 422 for a static code, 401', async () => {
    const code = await createCode(app, key, {
      routing: {
        rules: [
          { condition: 'country:us,ca & device:ios', destination: 'https://example.com/na-ios' },
          { condition: 'time:mon-fri 09:00-17:30 Europe/Berlin', destination: 'https://example.com/office' },
          { condition: 'language:de & ip:203.0.113.0/24', destination: 'https://example.de' },
          {
            condition: 'query:src=flyer & after:2026-01-01T00:00:00Z & before:2030-01-01T00:00:00Z',
            destination: 'https://example.com/flyer',
          },
          { condition: 'split', weights: split },
        ],
      },
    });
    const res = await call('GET', `/v1/codes/${code.id}/routing`, { key });
    expect(res.status).toBe(200);
    expect(res.body.rules.map((rule: any) => rule.type)).toEqual(['geo', 'time', 'language', 'query', 'split']);
    expect(res.body.rules[0].conditions.countries).toEqual(['US', 'CA']);
    expect(res.body.rules[4]).toMatchObject({ destination: null, conditions: { weights: split } });

    expect((await call('GET', '/v1/codes/qr_missing/routing', { key })).status).toBe(404);
    expect((await call('GET', `/v1/codes/${code.id}/routing`, { key: otherKey })).status).toBe(404);
    const text = await createCode(app, key, { type: 'text', content: { text: 'hello' } });
    expect((await call('GET', `/v1/codes/${text.id}/routing`, { key })).status).toBe(422);
    expect((await call('GET', `/v1/codes/${code.id}/routing`)).status).toBe(401);
  });

  it('replace: 200 with both shapes and an empty list, 422, 404, 400, 415, 403', async () => {
    const code = await createCode(app, key, {
      routing: { rules: [{ condition: 'country:US', destination: 'https://example.com/us' }] },
    });
    const path = `/v1/codes/${code.id}/routing`;
    const body = {
      enabled: true,
      rules: [
        { condition: 'device:android', destination: 'https://example.com/android' },
        {
          type: 'schedule',
          priority: 7,
          conditions: { after: '2026-12-01T00:00:00Z' },
          destination: 'https://example.com/winter',
        },
        { type: 'split', conditions: { weights: split } },
      ],
    };
    const replaced = await call('PUT', path, { key, body });
    expect(replaced.status).toBe(200);
    expect(replaced.body.rules.map((rule: any) => rule.priority)).toEqual([1, 3, 7]);
    // What GET answers goes back in as it is (ruleId and the inline form are ignored).
    const back = await call('PUT', path, { key, body: { ...replaced.body, enabled: false } });
    expect(back.status).toBe(200);
    expect(back.body.enabled).toBe(false);
    expect((await call('PUT', path, { key, body: { rules: [] } })).body).toEqual({ enabled: false, rules: [] });

    const invalid = await call('PUT', path, {
      key,
      body: {
        rules: [
          { condition: 'weather:rain', destination: 'https://example.com' },
          { type: 'geo', conditions: {} },
        ],
      },
    });
    expect(invalid.status).toBe(422);
    expect(invalid.body.errors.map((error: any) => error.path)).toEqual(
      expect.arrayContaining(['rules.0.condition', 'rules.1.conditions']),
    );
    expect((await call('PUT', path, { key, body: { enabled: true } })).status).toBe(422);
    expect((await call('PUT', '/v1/codes/qr_missing/routing', { key, body: { rules: [] } })).status).toBe(404);
    expect(
      (await call('PUT', path, { key, rawBody: '{"rules":', headers: { 'content-type': 'application/json' } })).status,
    ).toBe(400);
    expect(
      (await call('PUT', path, { key, rawBody: 'rules=', headers: { 'content-type': 'text/plain' } })).status,
    ).toBe(415);
    expect((await call('PUT', path, { key: readOnly, body: { rules: [] } })).status).toBe(403);
  });

  it('add a rule: 201, 422 (inline shape, bad conditions, static code), 404', async () => {
    const code = await createCode(app, key);
    const path = `/v1/codes/${code.id}/routing/rules`;
    const added = await call('POST', path, {
      key,
      body: {
        type: 'time',
        conditions: { days: ['sat', 'sun'], from: '22:00', to: '02:00', timezone: 'America/New_York' },
        destination: 'https://example.com/late',
      },
    });
    expect(added.status).toBe(201);
    expect(added.body).toMatchObject({
      type: 'time',
      priority: 1,
      condition: 'time:sat,sun 22:00-02:00 America/New_York',
    });
    const second = await call('POST', path, {
      key,
      body: {
        type: 'query',
        priority: 0,
        conditions: { params: { src: 'flyer', lang: 'de' } },
        destination: 'https://example.com/flyer',
      },
    });
    expect(second.status).toBe(201);

    expect(
      (await call('POST', path, { key, body: { condition: 'country:US', destination: 'https://example.com/us' } }))
        .status,
    ).toBe(422);
    expect(
      (
        await call('POST', path, {
          key,
          body: { type: 'geo', conditions: { countries: ['XX'] }, destination: 'https://example.com' },
        })
      ).status,
    ).toBe(422);
    const text = await createCode(app, key, { type: 'text', content: { text: 'hello' } });
    const body = { type: 'geo', conditions: { countries: ['DE'] }, destination: 'https://example.de' };
    expect((await call('POST', `/v1/codes/${text.id}/routing/rules`, { key, body })).status).toBe(422);
    expect((await call('POST', '/v1/codes/qr_missing/routing/rules', { key, body })).status).toBe(404);
  });

  it('delete a rule: 204, then 404 for it, for another account, and for an unknown code', async () => {
    const code = await createCode(app, key, {
      routing: { rules: [{ condition: 'country:US', destination: 'https://example.com/us' }] },
    });
    const ruleId = code.routing.rules[0].ruleId;
    const path = `/v1/codes/${code.id}/routing/rules/${ruleId}`;
    expect((await call('DELETE', path, { key: otherKey })).status).toBe(404);
    expect((await call('DELETE', path, { key })).status).toBe(204);
    expect((await call('DELETE', path, { key })).status).toBe(404);
    expect((await call('DELETE', `/v1/codes/qr_missing/routing/rules/${ruleId}`, { key })).status).toBe(404);
  });

  it('resolve: 200 for a match and for none, 422, 404, 403 without codes:read', async () => {
    const code = await createCode(app, key, {
      routing: {
        rules: [
          { condition: 'country:US', destination: 'https://example.com/us' },
          { condition: 'device:ios & language:de', destination: 'https://example.de/ios' },
        ],
      },
    });
    const path = `/v1/codes/${code.id}/routing/resolve`;
    const matched = await call('POST', path, {
      key,
      body: {
        ip: '81.2.69.142',
        user_agent: IPHONE,
        accept_language: 'de-DE,de;q=0.9',
        time: '2026-11-24T10:00:00+01:00',
        query: { src: 'flyer' },
      },
    });
    expect(matched.status).toBe(200);
    expect(matched.body).toMatchObject({ destination: 'https://example.de/ios', ruleId: code.routing.rules[1].ruleId });
    const none = await call('POST', path, { key, body: {} });
    expect(none.status).toBe(200);
    expect(none.body).toMatchObject({
      destination: code.content,
      ruleId: null,
      facts: { country: null, device: null, languages: [] },
    });

    expect((await call('POST', path, { key, body: { ip: 'nope', country: 'XX', surprise: 1 } })).status).toBe(422);
    expect((await call('POST', '/v1/codes/qr_missing/routing/resolve', { key, body: {} })).status).toBe(404);
    const analyticsOnly = await app.newAccountKey(undefined, { scopes: ['analytics:read'] });
    expect((await call('POST', path, { key: analyticsOnly, body: {} })).status).toBe(403);
  });

  it('walked every routing operation', () => contract.expectTagCovered('Routing'));
});
