// Hardening over HTTP: body size and JSON depth limits per route, GraphQL depth, cost, parser
// and introspection limits, CORS (closed unless configured), security headers on HTML answers,
// and open redirects (only http(s) destinations, checked when written; scans go only there).
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { schema } from '../../src/api/graphql-schema.ts';
import { MAX_MUTATION_FIELDS } from '../../src/graphql/limits.ts';
import { getTestApp, type TestApp } from '../support/app.ts';
import { createCode } from '../support/factories.ts';

let app: TestApp;
let key: string;
beforeAll(async () => {
  // Small limits, so that crossing them takes small requests.
  app = await getTestApp({ BULK_BODY_LIMIT: '64kb', GRAPHQL_MAX_DEPTH: '5', GRAPHQL_MAX_COST: '3000' });
  key = await app.newAccountKey();
});
afterAll(() => app.close());

const nested = (levels: number) => '{"a":'.repeat(levels - 1) + '{}' + '}'.repeat(levels - 1);

describe('request bodies', () => {
  it('refuses JSON nested deeper than 32 levels with a 400 problem, on REST and /graphql', async () => {
    const deep = await app.request('POST', '/v1/codes', {
      key,
      rawBody: `{"content":"https://example.com","x":${nested(32)}}`,
      headers: { 'content-type': 'application/json' },
    });
    expect(deep.status).toBe(400);
    expect(deep.headers.get('content-type')).toContain('application/problem+json');
    expect(deep.body.detail).toMatch(/deeper than 32 levels/);
    // 32 levels are parsed (and then refused for the unknown field, as usual).
    const edge = await app.request('POST', '/v1/codes', {
      key,
      rawBody: `{"content":"https://example.com","x":${nested(31)}}`,
      headers: { 'content-type': 'application/json' },
    });
    expect(edge.status).toBe(422);
    // Brackets inside strings are text, not nesting.
    const text = await app.request('POST', '/v1/codes', {
      key,
      body: { type: 'text', content: { text: '[{'.repeat(500) } },
    });
    expect(text.status).toBe(201);

    const variables = await app.request('POST', '/graphql', {
      key,
      rawBody:
        `{"query":"mutation($i: CreateCodeInput!) { createCode(input: $i) { id } ` +
        `}","variables":{"i":${nested(40)}}}`,
      headers: { 'content-type': 'application/json' },
    });
    expect(variables.status).toBe(400);
    expect(variables.headers.get('content-type')).toContain('application/problem+json');
  });

  it('limits /graphql bodies to BULK_BODY_LIMIT and refuses compressed ones', async () => {
    const big = await app.graphql(key, `{ codes(first: 1) { edges { node { id } } } } # ${'x'.repeat(70 * 1024)}`);
    expect(big.status).toBe(413);
    expect(big.headers.get('content-type')).toContain('application/problem+json');
    const gzip = await app.request('POST', '/graphql', {
      key,
      rawBody: 'xx',
      headers: { 'content-type': 'application/json', 'content-encoding': 'gzip' },
    });
    expect(gzip.status).toBe(415);
    // Within the limit, as before.
    expect((await app.graphql(key, '{ codes(first: 1) { edges { node { id } } } }')).body.errors).toBeUndefined();
  });
});

describe('GraphQL limits', () => {
  it('refuses queries deeper than GRAPHQL_MAX_DEPTH', async () => {
    const ok = await app.graphql(key, '{ codes { edges { node { routing { enabled } } } } }');
    expect(ok.body.errors).toBeUndefined();
    const deep = await app.graphql(key, '{ codes { edges { node { routing { rules { ruleId } } } } } }');
    expect(deep.status).toBe(200);
    expect(deep.body.data).toBeUndefined();
    expect(deep.body.errors[0].message).toMatch(/depth limit of 5 exceeded, found 6/);
    expect(deep.body.errors[0].extensions.code).toBe('GRAPHQL_VALIDATION_FAILED');
  });

  it('refuses queries above GRAPHQL_MAX_COST, counting page sizes', async () => {
    expect((await app.graphql(key, '{ codes(first: 100) { edges { node { id } } } }')).body.errors).toBeUndefined();
    const costly = await app.graphql(key, '{ codes(first: 500) { edges { node { id content scanUrl } } } }');
    expect(costly.body.errors[0].message).toMatch(/Cost limit of 3000 exceeded/);
    expect(costly.body.errors[0].extensions.code).toBe('GRAPHQL_VALIDATION_FAILED');
  });

  it('counts each render of a list once per item, and refuses before anything runs', async () => {
    // 500 codes x svg: 128,000, far over 3000; asked of an empty account it would have cost nothing to run.
    const renders = await app.graphql(key, '{ codes(first: 500) { edges { node { svg(size: 4096) } } } }');
    expect(renders.status).toBe(400);
    expect(renders.body.data).toBeUndefined();
    expect(renders.body.errors[0].message).toMatch(/Cost limit of 3000 exceeded, found 128000/);
    // A mutation over the limit creates nothing: 13 renders of the new code (3,253).
    const own = await app.newAccountKey('cost-mutation');
    const svgs = Array.from({ length: 13 }, (_, i) => `s${i}: svg`).join(' ');
    const mutation = await app.graphql(
      own,
      `mutation { createCode(input: { content: "https://example.com/cost" }) { id ${svgs} } }`,
    );
    expect(mutation.body.errors[0].message).toMatch(/Cost limit of 3000 exceeded, found 3253/);
    expect((await app.request('GET', '/v1/codes', { key: own })).body.data).toEqual([]);
  });

  it('refuses documents nested too deeply for the parser as a syntax error, not a crash', async () => {
    const res = await app.graphql(key, `{ code(id: ${'['.repeat(20_000)}${']'.repeat(20_000)}) { id } }`);
    expect(res.status).toBe(200);
    expect(res.body.errors[0]).toMatchObject({ extensions: { code: 'GRAPHQL_PARSE_FAILED' } });
    expect(res.body.errors[0].message).toMatch(/deeper than 64 levels/);
    // Brackets in strings and comments do not count.
    const quoted = await app.graphql(
      key,
      `# ${'{'.repeat(100)}\n{ codes(filter: { q: "${'['.repeat(100)}" }) { edges { node { id } } } }`,
    );
    expect(quoted.body.errors).toBeUndefined();
  });

  it(`allows at most ${MAX_MUTATION_FIELDS} fields in one mutation`, async () => {
    const fields = (n: number) =>
      Array.from({ length: n }, (_, i) => `d${i}: deleteCode(id: "qr_nope${i}") { deletedId }`).join(' ');
    const many = await app.graphql(key, `mutation { ${fields(MAX_MUTATION_FIELDS + 1)} }`);
    expect(many.body.errors[0].message).toMatch(/at most 20 fields/);
    const fragment = await app.graphql(
      key,
      `mutation { ...F } fragment F on Mutation { ${fields(MAX_MUTATION_FIELDS + 1)} }`,
    );
    expect(fragment.body.errors[0].message).toMatch(/at most 20 fields/);
  });

  it('answers a variable of the wrong type as a BAD_REQUEST error, not an internal one', async () => {
    const res = await app.graphql(key, 'mutation($i: CreateCodeInput!) { createCode(input: $i) { id } }', {
      i: 'not an object',
    });
    expect(res.body.errors[0].extensions).toMatchObject({ code: 'BAD_REQUEST', status: 400 });
    expect(res.body.errors[0].message).toMatch(/Variable "\$i" got invalid value/);
  });

  it('keeps introspection on outside production', async () => {
    const res = await app.graphql(key, '{ __schema { queryType { name } } }');
    expect(res.body.data.__schema.queryType.name).toBe('Query');
  });
});

describe('GraphQL introspection in production', () => {
  it('is off unless GRAPHQL_INTROSPECTION=true: no __schema, __type null; __typename still answers', async () => {
    const production = await getTestApp({ NODE_ENV: 'production' });
    const enabled = await getTestApp({ NODE_ENV: 'production', GRAPHQL_INTROSPECTION: 'true' });
    try {
      const closedKey = await production.newAccountKey();
      const closed = await production.graphql(closedKey, '{ __schema { types { name } } }');
      expect(closed.body.data).toBeUndefined();
      expect(closed.body.errors[0].message).toMatch(/introspection has been disabled/);
      // __type answers null for every name, and its resolver (a schema.getType) never runs.
      const getType = vi.spyOn(schema, 'getType');
      const lookup = await production.graphql(
        closedKey,
        '{ code: __type(name: "Code") { name fields { name type { name } } } __typename }',
      );
      expect(lookup.body).toEqual({ data: { code: null, __typename: 'Query' } });
      expect(getType).not.toHaveBeenCalledWith('Code');
      getType.mockRestore();
      expect((await production.graphql(closedKey, '{ __typename }')).body.data.__typename).toBe('Query');
      // No GraphiQL in production either: a browser gets GraphQL's own answer (a key is needed).
      expect((await production.request('GET', '/graphql', { headers: { accept: 'text/html' } })).status).toBe(401);

      const open = await enabled.graphql(await enabled.newAccountKey(), '{ __schema { types { name } } }');
      expect(open.body.errors).toBeUndefined();
    } finally {
      await production.close();
      await enabled.close();
    }
  });
});

describe('CORS', () => {
  const origin = 'https://app.example.com';
  const preflight = (target: TestApp, path: string) =>
    target.request('OPTIONS', path, {
      headers: {
        origin,
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'authorization,content-type',
      },
    });

  it('is closed by default: no CORS header on REST, GraphQL or preflights', async () => {
    for (const res of [
      await preflight(app, '/v1/codes'),
      await preflight(app, '/graphql'),
      await app.request('GET', '/v1/codes', { key, headers: { origin } }),
      await app.request('POST', '/graphql', { key, body: { query: '{ __typename }' }, headers: { origin } }),
    ]) {
      expect(res.headers.get('access-control-allow-origin')).toBeNull();
      expect(res.headers.get('access-control-allow-credentials')).toBeNull();
    }
  });

  it('answers the origins of CORS_ORIGINS only, errors included, never on the scan route', async () => {
    const open = await getTestApp({ CORS_ORIGINS: `${origin}, http://localhost:5173` });
    try {
      const openKey = await open.newAccountKey();
      const pre = await preflight(open, '/v1/codes');
      expect(pre.status).toBe(204);
      expect(pre.headers.get('access-control-allow-origin')).toBe(origin);
      expect(pre.headers.get('access-control-allow-headers')).toMatch(/Authorization/);
      expect(pre.headers.get('access-control-allow-credentials')).toBeNull();
      expect((await preflight(open, '/graphql')).headers.get('access-control-allow-origin')).toBe(origin);

      const list = await open.request('GET', '/v1/codes', { key: openKey, headers: { origin } });
      expect(list.headers.get('access-control-allow-origin')).toBe(origin);
      expect(list.headers.get('access-control-expose-headers')).toMatch(/RateLimit-Remaining/);
      const gql = await open.request('POST', '/graphql', {
        key: openKey,
        body: { query: '{ __typename }' },
        headers: { origin },
      });
      expect(gql.headers.get('access-control-allow-origin')).toBe(origin);
      // A browser can read our problems too.
      const denied = await open.request('GET', '/v1/codes', { key: 'qrk_nope', headers: { origin } });
      expect(denied.status).toBe(401);
      expect(denied.headers.get('access-control-allow-origin')).toBe(origin);

      const stranger = await open.request('GET', '/v1/codes', {
        key: openKey,
        headers: { origin: 'https://evil.example' },
      });
      expect(stranger.status).toBe(200);
      expect(stranger.headers.get('access-control-allow-origin')).toBeNull();

      const code = await createCode(open, openKey);
      const scan = await fetch(code.scan_url, { redirect: 'manual', headers: { origin } });
      expect(scan.status).toBe(302);
      expect(scan.headers.get('access-control-allow-origin')).toBeNull();
    } finally {
      await open.close();
    }
  });
});

describe('security headers on HTML answers', () => {
  it('serves GraphiQL as a small page whose scripts are its own files and nothing remote', async () => {
    const res = await app.request('GET', '/graphql', { headers: { accept: 'text/html' } });
    expect(res.status).toBe(200);
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(res.headers.get('referrer-policy')).toBe('no-referrer');
    expect(res.headers.get('x-frame-options')).toBe('DENY');
    const csp = Object.fromEntries(
      res.headers
        .get('content-security-policy')!
        .split(';')
        .map((d) => {
          const [name, ...values] = d.trim().split(/\s+/);
          return [name, values.join(' ')];
        }),
    );
    expect(csp).toMatchObject({
      'default-src': "'none'",
      'script-src': "'self'",
      'connect-src': "'self'",
      'worker-src': 'blob:',
      'frame-ancestors': "'none'",
      'base-uri': "'none'",
    });
    // No inline script runs: the one script element without src holds JSON data.
    const scripts = [...res.text.matchAll(/<script([^>]*)>([\s\S]*?)<\/script>/g)];
    expect(scripts.map(([, attributes]) => attributes!.trim())).toEqual([
      'type="application/json" id="graphiql-options"',
      expect.stringMatching(/^src="\/graphql\/assets\/graphiql-[0-9a-f]{16}\.js"$/),
    ]);
    expect(JSON.parse(scripts[0]![2]!)).toMatchObject({ title: 'QR service GraphQL' });
    expect(res.text).not.toMatch(/<link[^>]+href="https?:/);
    expect(res.text.length).toBeLessThan(2000);
  });

  it("serves the scan route's 404 page with the same headers and a no-script policy", async () => {
    const res = await fetch(`${app.url}/Zz9Zz9Z`, { headers: { accept: 'text/html' } });
    expect(res.status).toBe(404);
    expect(res.headers.get('content-type')).toContain('text/html');
    expect(res.headers.get('content-security-policy')).toBe(
      "default-src 'none'; style-src 'unsafe-inline'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
    );
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(res.headers.get('referrer-policy')).toBe('no-referrer');
    expect(res.headers.get('x-frame-options')).toBe('DENY');
  });
});

describe('open redirects', () => {
  const unsafe = [
    'javascript:alert(1)',
    'data:text/html,<script>alert(1)</script>',
    '/relative/path',
    '//evil.example/x',
    'ftp://files.example/x',
    'mailto:a@example.com',
    'http://',
    'https://',
  ];

  it.each(unsafe)('refuses %s as a destination on every write path', async (destination) => {
    const code = await createCode(app, key);
    const writes = [
      app.request('POST', '/v1/codes', { key, body: { content: destination } }),
      app.request('PATCH', `/v1/codes/${code.id}`, { key, body: { destination } }),
      app.request('POST', '/v1/codes', {
        key,
        body: { content: 'https://example.com', routing: { rules: [{ condition: 'country:US', destination }] } },
      }),
      app.request('PUT', `/v1/codes/${code.id}/routing`, {
        key,
        body: { rules: [{ condition: 'device:ios', destination }] },
      }),
      app.request('POST', `/v1/codes/${code.id}/routing/rules`, {
        key,
        body: { type: 'geo', conditions: { countries: ['DE'] }, destination },
      }),
      app.request('POST', `/v1/codes/${code.id}/routing/rules`, {
        key,
        body: {
          type: 'split',
          conditions: {
            weights: [
              { destination, weight: 1 },
              { destination: 'https://b.example', weight: 1 },
            ],
          },
        },
      }),
      app.request('POST', '/v1/codes/bulk', { key, body: { codes: [{ content: destination }] } }),
    ];
    for (const res of await Promise.all(writes)) {
      expect(res.status).toBe(422);
      expect(res.headers.get('content-type')).toContain('application/problem+json');
    }
    const gql = await app.graphql(key, 'mutation($c: JSON!) { createCode(input: { content: $c }) { id } }', {
      c: destination,
    });
    expect(gql.body.errors[0].extensions.code).toBe('VALIDATION_FAILED');
    const rules = await app.graphql(
      key,
      'mutation($id: ID!, $d: String!) { replaceRouting(codeId: $id, rules: [{ type: geo, conditions: { countries: ' +
        '["US"] }, destination: $d }]) { enabled } }',
      { id: code.id, d: destination },
    );
    expect(rules.body.errors[0].extensions.code).toBe('VALIDATION_FAILED');
    // The code still sends scans where it did.
    const scan = await fetch(code.scan_url, { redirect: 'manual' });
    expect(scan.headers.get('location')).toBe(code.content);
  });

  it('redirects only to the stored destination, whatever the scan URL carries', async () => {
    const code = await createCode(app, key, { content: 'https://example.com/stored' });
    const path = new URL(code.scan_url).pathname;
    for (const query of [
      '?url=https://evil.example',
      '?next=//evil.example&destination=javascript:alert(1)',
      '?redirect=%2F%2Fevil.example',
    ]) {
      const res = await fetch(`${app.url}${path}${query}`, { redirect: 'manual' });
      expect(res.status).toBe(302);
      expect(res.headers.get('location')).toBe('https://example.com/stored');
    }
    // Paths that are not a slug never redirect.
    for (const other of [
      `${path}/https://evil.example`,
      '//evil.example',
      '/%2F%2Fevil.example',
      `${path}%0d%0aLocation:%20https://evil.example`,
    ]) {
      const res = await fetch(`${app.url}${other}`, { redirect: 'manual' });
      expect(res.status).toBe(404);
      expect(res.headers.get('location')).toBeNull();
    }
  });

  it('sends a stored destination with non-ASCII characters as a valid, encoded Location', async () => {
    const code = await createCode(app, key, { content: 'https://example.com/café/日本?q=ä' });
    const res = await fetch(code.scan_url, { redirect: 'manual' });
    expect(res.status).toBe(302);
    expect(res.headers.get('location')).toBe('https://example.com/caf%C3%A9/%E6%97%A5%E6%9C%AC?q=%C3%A4');
  });
});

describe('found by the fuzz test', () => {
  it('refuses impossible calendar dates in analytics ranges with 422, not 500', async () => {
    const code = await createCode(app, key);
    for (const path of ['/v1/analytics/overview?to=2026-02-30', `/v1/codes/${code.id}/scans?from=2026-04-31`]) {
      const res = await app.request('GET', path, { key });
      expect(res.status).toBe(422);
      expect(res.body.errors[0].message).toMatch(/ISO 8601 date/);
    }
    expect((await app.request('GET', '/v1/analytics/overview?from=2024-02-29&granularity=month', { key })).status).toBe(
      200,
    );
  });

  it('refuses text with a lone surrogate (mailto: encoding threw on it) with 422', async () => {
    const res = await app.request('POST', '/v1/codes', {
      key,
      rawBody: '{"type":"email","content":{"to":"a@example.com","subject":"x\\ud800"}}',
      headers: { 'content-type': 'application/json' },
    });
    expect(res.status).toBe(422);
    expect(res.body.errors[0]).toEqual({ path: 'content.subject', message: 'must be valid Unicode text' });
    const pair = await app.request('POST', '/v1/codes', {
      key,
      body: { type: 'email', content: { to: 'a@example.com', subject: 'Hi 😀' } },
    });
    expect(pair.status).toBe(201);
  });

  it('keeps a keep-alive connection usable after refusing a CSV it stopped reading', async () => {
    // The default BULK_BODY_LIMIT: the body must be within it, and larger than socket buffers.
    const roomy = await getTestApp();
    const roomyKey = await roomy.newAccountKey();
    const { Agent, request } = await import('node:http');
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    const send = (path: string, type: string, body: string) =>
      new Promise<number>((resolve, reject) => {
        const headers = { authorization: `Bearer ${roomyKey}`, 'content-type': type };
        const req = request(`${roomy.url}${path}`, { method: 'POST', agent, headers }, (res) => {
          res.resume();
          res.on('end', () => resolve(res.statusCode!));
        });
        req.on('error', reject);
        req.end(body);
      });
    try {
      // The quote error is in the first line; 1 MB of rows follow that nobody parses.
      const csv = `content\n"bad"x\n${'https://example.com/row\n'.repeat(45_000)}`;
      expect(await send('/v1/codes/bulk', 'text/csv', csv)).toBe(400);
      expect(await send('/v1/codes', 'application/json', JSON.stringify({ content: 'https://example.com/next' }))).toBe(
        201,
      );
    } finally {
      agent.destroy();
      await roomy.close();
    }
  });
});
