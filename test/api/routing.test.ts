// Routing rules endpoints, both shapes, the resolve explainer, and GraphQL parity.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getTestApp, type TestApp } from '../support/app.ts';
import { createCode } from '../support/factories.ts';

let app: TestApp;
let key: string;
let otherKey: string;

beforeAll(async () => {
  app = await getTestApp();
  key = await app.newAccountKey();
  otherKey = await app.newAccountKey();
});
afterAll(() => app.close());

const IPHONE =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 ' +
  'Mobile/15E148 Safari/604.1';

describe('rules endpoints', () => {
  it('GET /routing shows inline rules in the full shape with their ruleIds', async () => {
    const code = await createCode(app, key, {
      routing: { rules: [{ condition: 'country:US,CA', destination: 'https://example.com/na' }] },
    });
    const res = await app.request('GET', `/v1/codes/${code.id}/routing`, { key });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      enabled: true,
      rules: [
        {
          ruleId: code.routing.rules[0].ruleId,
          type: 'geo',
          priority: 1,
          conditions: { countries: ['US', 'CA'] },
          destination: 'https://example.com/na',
          condition: 'country:US,CA',
        },
      ],
    });
  });

  it('POST /routing/rules answers 201 with the rule, visible inline on the code', async () => {
    const code = await createCode(app, key);
    const res = await app.request('POST', `/v1/codes/${code.id}/routing/rules`, {
      key,
      body: {
        type: 'time',
        priority: 5,
        conditions: {
          days: ['mon', 'tue', 'wed', 'thu', 'fri'],
          from: '09:00',
          to: '17:30',
          timezone: 'Europe/Berlin',
        },
        destination: 'https://example.com/office',
      },
    });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      ruleId: expect.stringMatching(/^rule_/),
      type: 'time',
      priority: 5,
      condition: 'time:mon-fri 09:00-17:30 Europe/Berlin',
    });
    const fetched = await app.request('GET', `/v1/codes/${code.id}`, { key });
    expect(fetched.body.routing).toEqual({
      enabled: true,
      rules: [
        {
          ruleId: res.body.ruleId,
          condition: 'time:mon-fri 09:00-17:30 Europe/Berlin',
          destination: 'https://example.com/office',
        },
      ],
    });
  });

  it('orders by priority (lower first), then by creation', async () => {
    const code = await createCode(app, key);
    const add = (priority: number | undefined, country: string) =>
      app.request('POST', `/v1/codes/${code.id}/routing/rules`, {
        key,
        body: {
          type: 'geo',
          ...(priority === undefined ? {} : { priority }),
          conditions: { countries: [country] },
          destination: `https://example.com/${country}`,
        },
      });
    await add(10, 'DE');
    await add(1, 'FR');
    await add(10, 'IT');
    await add(undefined, 'ES');
    const res = await app.request('GET', `/v1/codes/${code.id}/routing`, { key });
    expect(res.body.rules.map((r: any) => [r.priority, r.conditions.countries[0]])).toEqual([
      [1, 'FR'],
      [10, 'DE'],
      [10, 'IT'],
      [11, 'ES'],
    ]);
  });

  it('PUT /routing replaces every rule atomically and accepts both shapes', async () => {
    const code = await createCode(app, key, {
      routing: { rules: [{ condition: 'country:US', destination: 'https://example.com/us' }] },
    });
    const res = await app.request('PUT', `/v1/codes/${code.id}/routing`, {
      key,
      body: {
        enabled: true,
        rules: [
          { condition: 'device:ios & language:de', destination: 'https://example.de/ios' },
          {
            type: 'split',
            priority: 9,
            conditions: {
              weights: [
                { destination: 'https://a.example', weight: 1 },
                { destination: 'https://b.example', weight: 3 },
              ],
            },
          },
          {
            condition: 'split',
            weights: [
              { destination: 'https://c.example', weight: 1 },
              { destination: 'https://d.example', weight: 1 },
            ],
          },
        ],
      },
    });
    expect(res.status, res.text).toBe(200);
    expect(res.body.rules.map((r: any) => r.condition)).toEqual(['device:ios & language:de', 'split', 'split']);
    expect(res.body.rules.map((r: any) => r.priority)).toEqual([1, 3, 9]);
    expect(res.body.rules[0]).toMatchObject({ type: 'device', conditions: { devices: ['ios'], languages: ['de'] } });
    expect(res.body.rules.find((r: any) => r.priority === 9).destination).toBeNull();
    const inline = (await app.request('GET', `/v1/codes/${code.id}`, { key })).body.routing.rules;
    expect(inline.find((r: any) => r.ruleId === res.body.rules[2].ruleId).weights).toHaveLength(2);
  });

  it(
    'keeps the ruleId of a rule sent back with it (REST PUT and PATCH, GraphQL), and only for a rule of the same ' +
      'code',
    async () => {
      const code = await createCode(app, key, {
        routing: {
          rules: [
            { condition: 'country:US', destination: 'https://example.com/us' },
            { condition: 'country:DE', destination: 'https://example.com/de' },
          ],
        },
      });
      const other = await createCode(app, key, {
        routing: { rules: [{ condition: 'country:FR', destination: 'https://example.com/fr' }] },
      });
      const read = (await app.request('GET', `/v1/codes/${code.id}/routing`, { key })).body.rules;
      const [us, de] = read;
      const foreignId = (await app.request('GET', `/v1/codes/${other.id}/routing`, { key })).body.rules[0].ruleId;
      // Reordered, one changed, one new, one carrying another code's id, one repeating an id.
      const put = await app.request('PUT', `/v1/codes/${code.id}/routing`, {
        key,
        body: {
          rules: [
            { ...de, condition: 'country:DE,AT' },
            { ruleId: us.ruleId, condition: 'country:US', destination: 'https://example.com/us-new' },
            { ruleId: foreignId, condition: 'country:FR', destination: 'https://example.com/fr-here' },
            { ruleId: us.ruleId, condition: 'country:CA', destination: 'https://example.com/ca' },
            { condition: 'country:GB', destination: 'https://example.com/gb' },
          ],
        },
      });
      expect(put.status, put.text).toBe(200);
      const ids = put.body.rules.map((r: any) => r.ruleId);
      expect(ids.slice(0, 2)).toEqual([de.ruleId, us.ruleId]);
      expect(new Set(ids).size).toBe(5);
      expect(ids).not.toContain(foreignId);
      const ruleOf = async (codeId: string, ruleId: string) =>
        (await app.request('GET', `/v1/codes/${codeId}/routing`, { key })).body.rules.find(
          (r: any) => r.ruleId === ruleId,
        );
      expect(await ruleOf(code.id, us.ruleId)).toMatchObject({ destination: 'https://example.com/us-new' });
      // The other code's rule is as it was.
      expect(await ruleOf(other.id, foreignId)).toMatchObject({ destination: 'https://example.com/fr' });
      // PATCH with routing, and GraphQL, keep ids the same way.
      const patched = await app.request('PATCH', `/v1/codes/${code.id}`, {
        key,
        body: {
          routing: { rules: [{ ruleId: de.ruleId, condition: 'country:DE', destination: 'https://example.com/de' }] },
        },
      });
      expect(patched.body.routing.rules.map((r: any) => r.ruleId)).toEqual([de.ruleId]);
      const graphql = await app.graphql(
        key,
        `mutation { replaceRouting(codeId: "${code.id}", rules: [{ ruleId: "${de.ruleId}", type: geo, conditions: { ` +
          `countries: ["CH"] }, destination: "https://example.com/ch" }]) { rules { ruleId } } }`,
      );
      expect(
        graphql.body.data?.replaceRouting.rules.map((r: any) => r.ruleId),
        JSON.stringify(graphql.body.errors),
      ).toEqual([de.ruleId]);
    },
  );

  it('round-trips: what GET returns can be PUT back unchanged, in either shape, split rules too', async () => {
    const code = await createCode(app, key, {
      routing: {
        rules: [
          {
            condition: 'split',
            weights: [
              { destination: 'https://example.com/a', weight: 3 },
              { destination: 'https://example.com/b', weight: 1 },
            ],
          },
          { condition: 'time:sat,sun 22:00-02:00 America/New_York', destination: 'https://example.com/late' },
          { condition: 'ip:203.0.113.0/24,2001:db8::/32', destination: 'https://example.com/office' },
          { condition: 'query:src=flyer & after:2026-01-01T00:00:00Z', destination: 'https://example.com/flyer' },
          { condition: 'before:2030-01-01T00:00:00Z', destination: 'https://example.com/campaign' },
        ],
      },
    });
    const before = (await app.request('GET', `/v1/codes/${code.id}/routing`, { key })).body;
    const strip = (rules: any[]) => rules.map(({ ruleId, ...rest }) => rest);
    expect(before.rules[0]).toMatchObject({ type: 'split', destination: null });
    const putFull = await app.request('PUT', `/v1/codes/${code.id}/routing`, { key, body: before });
    expect(putFull.status, putFull.text).toBe(200);
    expect(strip(putFull.body.rules)).toEqual(strip(before.rules));
    const putInline = await app.request('PUT', `/v1/codes/${code.id}/routing`, { key, body: code.routing });
    expect(putInline.status, putInline.text).toBe(200);
    expect(strip(putInline.body.rules)).toEqual(strip(before.rules));
  });

  it('DELETE /routing/rules/:ruleId answers 204, then 404 for the same or an unknown rule', async () => {
    const code = await createCode(app, key, {
      routing: { rules: [{ condition: 'country:US', destination: 'https://example.com/us' }] },
    });
    const ruleId = code.routing.rules[0].ruleId;
    expect((await app.request('DELETE', `/v1/codes/${code.id}/routing/rules/${ruleId}`, { key })).status).toBe(204);
    expect((await app.request('GET', `/v1/codes/${code.id}/routing`, { key })).body.rules).toEqual([]);
    const again = await app.request('DELETE', `/v1/codes/${code.id}/routing/rules/${ruleId}`, { key });
    expect(again.status).toBe(404);
    expect(again.body.detail).toContain(ruleId);
  });

  it.each([
    [
      'unknown country',
      { type: 'geo', conditions: { countries: ['XX'] }, destination: 'https://e.example' },
      'conditions.countries.0',
    ],
    [
      'unknown device',
      { type: 'device', conditions: { devices: ['fridge'] }, destination: 'https://e.example' },
      'conditions.devices.0',
    ],
    [
      'bad time zone',
      { type: 'time', conditions: { days: ['mon'], timezone: 'Mars/Olympus' }, destination: 'https://e.example' },
      'conditions.timezone',
    ],
    [
      'from without to',
      { type: 'time', conditions: { from: '09:00' }, destination: 'https://e.example' },
      'conditions.to',
    ],
    [
      'bad clock',
      { type: 'time', conditions: { from: '25:00', to: '26:00' }, destination: 'https://e.example' },
      'conditions.from',
    ],
    [
      'bad cidr',
      { type: 'ip', conditions: { cidrs: ['10.0.0.0/33'] }, destination: 'https://e.example' },
      'conditions.cidrs.0',
    ],
    [
      'after not before before',
      {
        type: 'schedule',
        conditions: { after: '2027-01-01T00:00:00Z', before: '2026-01-01T00:00:00Z' },
        destination: 'https://e.example',
      },
      'conditions.before',
    ],
    [
      'split of one',
      { type: 'split', conditions: { weights: [{ destination: 'https://a.example', weight: 1 }] } },
      'conditions.weights',
    ],
    [
      'split with destination',
      {
        type: 'split',
        conditions: {
          weights: [
            { destination: 'https://a.example', weight: 1 },
            { destination: 'https://b.example', weight: 1 },
          ],
        },
        destination: 'https://x.example',
      },
      'destination',
    ],
    [
      'type without its field',
      { type: 'geo', conditions: { devices: ['ios'] }, destination: 'https://e.example' },
      'conditions',
    ],
    ['missing destination', { type: 'geo', conditions: { countries: ['US'] } }, 'destination'],
    ['unknown type', { type: 'weather', conditions: {}, destination: 'https://e.example' }, 'type'],
    [
      'unknown condition field',
      { type: 'geo', conditions: { countries: ['US'], moon: 'full' }, destination: 'https://e.example' },
      'conditions.moon',
    ],
    [
      'javascript destination',
      { type: 'geo', conditions: { countries: ['US'] }, destination: 'javascript:alert(1)' },
      'destination',
    ],
  ])('rejects %s with 422 at write and changes nothing', async (_label, body, path) => {
    const code = await createCode(app, key);
    const res = await app.request('POST', `/v1/codes/${code.id}/routing/rules`, { key, body });
    expect(res.status).toBe(422);
    expect(res.body.errors.map((e: any) => e.path)).toContain(path);
    expect((await app.request('GET', `/v1/codes/${code.id}/routing`, { key })).body.rules).toEqual([]);
  });

  it.each([
    ['country:ZZ', /ISO 3166/],
    ['time:someday', /days|zone/],
    ['query:novalue', /name=value/],
    ['country:US & country:CA', /twice/],
    ['weather:rain', /unknown dimension/],
  ])('rejects the inline condition %s', async (condition, message) => {
    const res = await app.request('POST', '/v1/codes', {
      key,
      body: { content: 'https://example.com', routing: { rules: [{ condition, destination: 'https://e.example' }] } },
    });
    expect(res.status).toBe(422);
    expect(res.body.errors[0]).toMatchObject({
      path: 'routing.rules.0.condition',
      message: expect.stringMatching(message),
    });
  });

  it('keeps another account out of every routing endpoint', async () => {
    const code = await createCode(app, key, {
      routing: { rules: [{ condition: 'country:US', destination: 'https://example.com/us' }] },
    });
    const ruleId = code.routing.rules[0].ruleId;
    const calls: [string, string, unknown?][] = [
      ['GET', `/v1/codes/${code.id}/routing`],
      ['PUT', `/v1/codes/${code.id}/routing`, { rules: [] }],
      [
        'POST',
        `/v1/codes/${code.id}/routing/rules`,
        { type: 'geo', conditions: { countries: ['DE'] }, destination: 'https://x.example' },
      ],
      ['DELETE', `/v1/codes/${code.id}/routing/rules/${ruleId}`],
      ['POST', `/v1/codes/${code.id}/routing/resolve`, {}],
    ];
    for (const [method, path, body] of calls) {
      const res = await app.request(method, path, { key: otherKey, body });
      expect(res.status, `${method} ${path}`).toBe(404);
    }
    expect((await app.request('GET', `/v1/codes/${code.id}/routing`, { key })).body.rules).toHaveLength(1);
  });
});

describe('POST /routing/resolve', () => {
  it('explains each rule for a simulated scan and records nothing', async () => {
    const code = await createCode(app, key, {
      routing: {
        rules: [
          { condition: 'country:US', destination: 'https://example.com/us' },
          { condition: 'device:ios & language:de', destination: 'https://example.de/ios' },
          { condition: 'time:mon-fri 09:00-17:00 Europe/Berlin', destination: 'https://example.com/office' },
        ],
      },
    });
    const res = await app.request('POST', `/v1/codes/${code.id}/routing/resolve`, {
      key,
      body: { ip: '81.2.69.142', user_agent: IPHONE, accept_language: 'de-DE,de;q=0.9', time: '2026-11-24T10:00:00Z' },
    });
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({
      destination: 'https://example.de/ios',
      ruleId: code.routing.rules[1].ruleId,
      facts: { country: 'GB', device: 'mobile', os: 'iOS', languages: ['de'], is_bot: false },
    });
    expect(res.body.evaluations.map((e: any) => e.matched)).toEqual([false, true, true]);
    expect(res.body.evaluations[0].reasons[0]).toMatch(/GB/);
    await app.services.scans.recorder.flush();
    expect(await app.testDb.db('scans').where({ code_id: code.id })).toHaveLength(0);
  });

  it('uses the given country over the address, and falls back with no match', async () => {
    const code = await createCode(app, key, {
      routing: { rules: [{ condition: 'country:US', destination: 'https://example.com/us' }] },
    });
    const us = await app.request('POST', `/v1/codes/${code.id}/routing/resolve`, { key, body: { country: 'us' } });
    expect(us.body).toMatchObject({ destination: 'https://example.com/us', facts: { country: 'US' } });
    const none = await app.request('POST', `/v1/codes/${code.id}/routing/resolve`, { key, body: {} });
    expect(none.body).toMatchObject({ destination: code.content, ruleId: null });
  });

  it('validates the simulated scan', async () => {
    const code = await createCode(app, key);
    const res = await app.request('POST', `/v1/codes/${code.id}/routing/resolve`, {
      key,
      body: { ip: 'not-an-ip', time: 'noon', country: 'QQ' },
    });
    expect(res.status).toBe(422);
    expect(res.body.errors.map((e: any) => e.path).sort()).toEqual(['country', 'ip', 'time']);
  });
});

describe('GraphQL', () => {
  it('replaces, adds, explains and removes rules through the same service', async () => {
    const code = await createCode(app, key);
    const replaced = await app.graphql(
      key,
      `mutation($id: ID!) { replaceRouting(codeId: $id, rules: [{ type: geo, conditions: { countries: ["FR"] }, ` +
        `destination: "https://example.fr/" }]) { enabled rules { ruleId type condition conditions { countries } } ` +
        `} }`,
      { id: code.id },
    );
    expect(replaced.body.errors).toBeUndefined();
    expect(replaced.body.data.replaceRouting).toMatchObject({
      enabled: true,
      rules: [{ type: 'geo', condition: 'country:FR', conditions: { countries: ['FR'] } }],
    });

    const added = await app.graphql(
      key,
      `mutation($id: ID!) { addRoutingRule(codeId: $id, input: { type: query, conditions: { params: [{ name: "src", ` +
        `value: "tv" }] }, destination: "https://example.com/tv" }) { ruleId priority condition conditions { ` +
        `params { name value } } } }`,
      { id: code.id },
    );
    expect(added.body.data.addRoutingRule).toMatchObject({
      priority: 2,
      condition: 'query:src=tv',
      conditions: { params: [{ name: 'src', value: 'tv' }] },
    });
    // A new rule gets a new id: its input has no ruleId to send (and none to refuse later).
    const withId = await app.graphql(
      key,
      `mutation($id: ID!) { addRoutingRule(codeId: $id, input: { ruleId: "rule_x", type: geo, conditions: { ` +
        `countries: ["DE"] }, destination: "https://example.de/" }) { ruleId } }`,
      { id: code.id },
    );
    expect(withId.body.errors[0].message).toContain('"ruleId" is not defined by type "NewRoutingRuleInput"');

    const explained = await app.graphql(
      key,
      `query($id: ID!) { resolveRouting(codeId: $id, scan: { query: [{ name: "src", value: "tv" }] }) { destination ` +
        `ruleId evaluations { ruleId matched reasons } } }`,
      { id: code.id },
    );
    expect(explained.body.data.resolveRouting).toMatchObject({
      destination: 'https://example.com/tv',
      ruleId: added.body.data.addRoutingRule.ruleId,
    });

    const removed = await app.graphql(
      key,
      `mutation($id: ID!, $rule: ID!) { removeRoutingRule(codeId: $id, ruleId: $rule) { deletedRuleId } }`,
      {
        id: code.id,
        rule: added.body.data.addRoutingRule.ruleId,
      },
    );
    expect(removed.body.data.removeRoutingRule.deletedRuleId).toBe(added.body.data.addRoutingRule.ruleId);

    const invalid = await app.graphql(
      key,
      `mutation($id: ID!) { addRoutingRule(codeId: $id, input: { type: geo, conditions: { countries: ["XX"] }, ` +
        `destination: "https://x.example" }) { ruleId } }`,
      { id: code.id },
    );
    expect(invalid.body.errors[0].extensions).toMatchObject({
      code: 'VALIDATION_FAILED',
      errors: [{ path: 'conditions.countries.0' }],
    });

    const foreign = await app.graphql(
      otherKey,
      `query($id: ID!) { resolveRouting(codeId: $id, scan: {}) { destination } }`,
      { id: code.id },
    );
    expect(foreign.body.errors[0].extensions.code).toBe('NOT_FOUND');
  });
});
