// Fuzzing over HTTP with fast-check: malformed, oversized, deeply nested, wrongly typed and
// unicode-heavy input at every REST route (read off the real router, so new routes are fuzzed
// too) and every GraphQL mutation and query (read off the schema). Every answer must be below
// 500; REST errors are problem+json; GraphQL errors carry a code, never INTERNAL_SERVER_ERROR;
// the process stays up, Object.prototype stays clean, and nothing of a second account appears
// in any answer to the first (unless the first put it in its own request) or is changed by it.
import fc from 'fast-check';
import {
  getNamedType,
  isEnumType,
  isInputObjectType,
  isLeafType,
  isListType,
  isNonNullType,
  isScalarType,
  type GraphQLField,
  type GraphQLInputType,
} from 'graphql';
import { afterAll, describe, expect, it } from 'vitest';
import { schema } from '../../src/api/graphql-schema.ts';
import { apiRoutes } from '../support/routes.ts';
import { getTestApp } from '../support/app.ts';
import { startReceiver } from '../support/webhook-receiver.ts';

/** Cases per route and per GraphQL field; FUZZ_RUNS=500 for a long local run, FUZZ_SEED to replay one. */
const RUNS = Number(process.env.FUZZ_RUNS ?? 60);
// One seed per run, printed, so a failure replays with FUZZ_SEED=<seed> (fast-check reports the
// path within the run too).
const SEED = {
  seed: process.env.FUZZ_SEED ? Number(process.env.FUZZ_SEED) : (Date.now() ^ (Math.random() * 0x7fffffff)) | 0,
};
console.log(`fuzz seed ${SEED.seed} (replay: FUZZ_SEED=${SEED.seed} npm test -- test/api/fuzz.test.ts)`);
const TIMEOUT_MS = 120_000;

const receiver = await startReceiver(() => 204);
const app = await getTestApp({
  // Webhooks go to the loopback receiver; fetches of fuzzed URLs give up fast.
  ALLOW_PRIVATE_NETWORK_TARGETS: 'true',
  WEBHOOK_TIMEOUT_MS: '1000',
  LOGO_FETCH_TIMEOUT_MS: '1000',
  RATE_LIMIT_PER_MINUTE: '0',
  BULK_RATE_LIMIT_PER_MINUTE: '0',
  SCAN_RATE_LIMIT_PER_MINUTE: '0',
});
afterAll(async () => {
  await app.close();
  await receiver.close();
});

async function ok(method: string, path: string, key: string, body?: unknown) {
  const res = await app.request(method, path, { key, body });
  if (res.status >= 300) throw new Error(`${method} ${path}: ${res.status} ${res.text}`);
  return res.body;
}

/** One account with a code (and rule), a batch, a webhook and a delivery. */
async function seedAccount(key: string, marker: string) {
  const code = await ok('POST', '/v1/codes', key, {
    content: `https://${marker}.example/landing`,
    routing: { rules: [{ condition: 'country:US', destination: `https://${marker}.example/us` }] },
  });
  const rule = code.routing.rules[0];
  const batch = await ok('POST', '/v1/codes/bulk', key, { codes: [{ content: `https://${marker}.example/bulk` }] });
  const webhook = await ok('POST', '/v1/webhooks', key, {
    url: receiver.url(`/${marker}`),
    events: ['scan.created', 'code.updated'],
    description: marker,
  });
  const delivery = await ok('POST', `/v1/webhooks/${webhook.id}/test`, key);
  return {
    code,
    ids: [code.id, rule.ruleId ?? rule.id, batch.batch_id, webhook.id, delivery.id] as string[],
    slug: new URL(code.scan_url).pathname.slice(1),
    secret: webhook.secret as string,
  };
}

const keyA = await app.newAccountKey();
const a = await seedAccount(keyA, 'fuzzer');
const victim = await app.services.accounts.issueKey('victim');
const b = await seedAccount(victim.key, 'victim-7c1d9e');
/** What account A must never see unless it sent it itself. */
const victimSecrets = [...b.ids, victim.keyId, b.slug, b.secret, 'victim-7c1d9e'];

// ---------------------------------------------------------------- arbitraries

const oddStrings = fc.constantFrom(
  '',
  ' ',
  '\u0000',
  '\u202e',
  '\ud800',
  '\udfff',
  '𝕏𝔂',
  '👩‍👩‍👧‍👦',
  'Ω≈ç√∫',
  'null',
  'undefined',
  '0',
  '-1',
  'NaN',
  '1e309',
  'true',
  "'; DROP TABLE codes;--",
  '<script>alert(1)</script>',
  '../../etc/passwd',
  '%00',
  '%ZZ',
  'https://example.com/x',
  'javascript:alert(1)',
  'http://127.0.0.1:1/x',
  '//evil.example',
  '#fff',
  '#ABCDEF',
  'country:US',
  'device:ios & country:DE',
  '2026-02-30',
  '9999-12-31T23:59:59Z',
  '-000001-01-01T00:00:00Z',
  'Europe/Berlin',
  'Mars/Olympus',
  'qr_',
  'whsec_x',
);
const text = fc.oneof(
  { weight: 3, arbitrary: oddStrings },
  { weight: 2, arbitrary: fc.string({ unit: 'binary', maxLength: 40 }) },
  { weight: 2, arbitrary: fc.string({ unit: 'grapheme', maxLength: 20 }) },
  // The victim's ids only where they name something (path parameters, ID arguments): stored in
  // a name or description they would come back, and be taken for a leak.
  { weight: 1, arbitrary: fc.constantFrom(...a.ids) },
);
/** Big strings, some past JSON_BODY_LIMIT (1 MB), built at once rather than unit by unit. */
const huge = fc
  .tuple(fc.integer({ min: 2000, max: 700_000 }), fc.constantFrom('x', 'é', '😀', '[', '"', '\\'))
  .map(([n, c]) => c.repeat(n));
const number = fc.oneof(
  fc.integer(),
  fc.double(),
  fc.constantFrom(-0, 1e308, -1e308, 2 ** 53 + 1, 4096, 4097, 0.5, -1),
);
const scalar = fc.oneof(text, number, fc.boolean(), fc.constant(null));
const key = fc.oneof(
  text,
  fc.constantFrom(
    '__proto__',
    'constructor',
    'prototype',
    'toString',
    'hasOwnProperty',
    'content',
    'type',
    'design',
    'routing',
    'rules',
    'url',
    'events',
    'codes',
    'weights',
  ),
);
const anyJson: fc.Arbitrary<unknown> = fc.letrec<{ value: unknown }>((tie) => ({
  value: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    scalar,
    fc.array(tie('value'), { maxLength: 4 }),
    fc.dictionary(key, tie('value'), { maxKeys: 4 }),
  ),
})).value;
const deep = fc.tuple(fc.integer({ min: 20, max: 600 }), fc.boolean()).map(([depth, arrays]) => {
  let value: unknown = 1;
  for (let i = 0; i < depth; i++) value = arrays ? [value] : { a: value };
  return value;
});

/** Valid bodies of each route; fuzzing mostly damages them a little, to get past the first check. */
const design = {
  fg_color: '#112233',
  bg_color: '#ffffff',
  style: 'dots',
  eye_style: 'rounded',
  margin: 4,
  error_correction: 'Q',
  frame: 'banner',
  frame_text: 'Scan',
  gradient: { type: 'linear', from: '#000000', to: '#333333', angle: 45 },
};
const createBody = {
  type: 'url',
  content: 'https://example.com/fuzz',
  design,
  routing: { enabled: true, rules: [{ condition: 'country:US', destination: 'https://example.com/us' }] },
};
const staticBodies = [
  { type: 'wifi', content: { ssid: 'Café', password: 'p;w', encryption: 'WPA', hidden: false } },
  {
    type: 'vcard',
    content: {
      first_name: 'Ada',
      phones: ['+49 30 123'],
      emails: ['a@example.com'],
      address: { street: 'x', city: 'y', region: 'z', postal_code: '1', country: 'DE' },
    },
  },
  { type: 'geo', content: { latitude: 52.5, longitude: 13.4 } },
  { type: 'email', content: { to: 'a@example.com', subject: 's', body: 'b' } },
];
const rules = [
  { condition: 'device:ios', destination: 'https://example.com/ios' },
  {
    type: 'time',
    priority: 3,
    conditions: { days: ['sat', 'sun'], from: '22:00', to: '02:00', timezone: 'Europe/Berlin' },
    destination: 'https://example.com/w',
  },
  {
    type: 'split',
    conditions: {
      weights: [
        { destination: 'https://a.example', weight: 1 },
        { destination: 'https://b.example', weight: 2 },
      ],
    },
  },
  { type: 'ip', conditions: { cidrs: ['203.0.113.0/24', '2001:db8::/32'] }, destination: 'https://example.com/ip' },
];
const webhookBody = {
  url: receiver.url('/fuzz'),
  events: ['scan.created', 'code.deleted'],
  code_ids: [a.ids[0]],
  description: 'fuzz',
  enabled: true,
};
const BASES: Record<string, unknown[]> = {
  'POST /v1/codes': [createBody, ...staticBodies],
  'PATCH /v1/codes/:id': [
    { destination: 'https://example.com/new', design: { style: null, logo_url: null }, routing: { enabled: false } },
    { content: 'https://example.com/c' },
  ],
  'POST /v1/codes/bulk': [{ codes: [createBody, ...staticBodies] }],
  'PUT /v1/codes/:id/routing': [{ enabled: true, rules }],
  'POST /v1/codes/:id/routing/rules': rules,
  'POST /v1/codes/:id/routing/resolve': [
    {
      ip: '8.8.8.8',
      country: 'DE',
      user_agent: 'Mozilla/5.0 (iPhone)',
      accept_language: 'de-DE',
      time: '2026-11-24T10:00:00Z',
      query: { src: 'flyer' },
    },
  ],
  'POST /v1/webhooks': [webhookBody],
  'PATCH /v1/webhooks/:id': [{ ...webhookBody, code_ids: null }],
  'POST /v1/api-keys': [{ name: 'fuzz', scopes: ['codes:read'] }],
};

type Json = unknown;
/** Replaces, deletes or adds values inside `base` (a deep copy), near its top. */
function damage(
  base: Json,
  edits: { at: number; action: 'replace' | 'delete' | 'add'; value: Json; key: string }[],
): Json {
  const copy = structuredClone(base);
  for (const edit of edits) {
    const containers: (Record<string, Json> | Json[])[] = [];
    const walk = (v: Json, depth: number) => {
      if (!v || typeof v !== 'object' || depth > 5) return;
      containers.push(v as Record<string, Json>);
      for (const child of Object.values(v)) walk(child, depth + 1);
    };
    walk(copy, 0);
    if (containers.length === 0) return edit.value;
    const target = containers[edit.at % containers.length]!;
    if (Array.isArray(target)) {
      const index = edit.at % (target.length + 1);
      if (edit.action === 'delete') target.splice(index, 1);
      else target[index] = edit.value;
      continue;
    }
    const keys = Object.keys(target);
    const name = keys.length && edit.action !== 'add' ? keys[edit.at % keys.length]! : edit.key;
    if (edit.action === 'delete') delete target[name];
    // defineProperty: a key named __proto__ becomes an own property, as JSON.parse makes it.
    else
      Object.defineProperty(target, name, { value: edit.value, enumerable: true, writable: true, configurable: true });
  }
  return copy;
}
const edits = fc.array(
  fc.record({
    at: fc.nat(),
    action: fc.constantFrom('replace', 'delete', 'add') as fc.Arbitrary<'replace' | 'delete' | 'add'>,
    value: fc.oneof({ weight: 8, arbitrary: anyJson }, { weight: 1, arbitrary: deep }, { weight: 1, arbitrary: huge }),
    key,
  }),
  { minLength: 1, maxLength: 3 },
);

const rawBodies = fc.constantFrom(
  '',
  '{',
  '{"a":',
  '[1,2',
  'null',
  '"str"',
  '5',
  'true',
  '\ufeff{}',
  '{"content":"https://e.com"} trailing',
  '{"a":1,"a":2}',
  '{"__proto__":{"polluted":true},"constructor":{"prototype":{"polluted":true}},"content":"https://example.com"}',
  '{"codes":[{"__proto__":{"polluted":true},"content":"https://example.com"}]}',
  '\u0000',
  '\udead',
  'type,content\nurl,https://e.com\n',
  'content\n"unclosed',
  `{"x":"${'\\u0000'.repeat(50)}"}`,
  '[]',
  '{}',
  '{"codes":[]}',
);

interface Body {
  raw: string;
  contentType?: string;
}
const asJson = (value: Json) => ({ raw: JSON.stringify(value) ?? 'null' });
function bodyFor(route: string): fc.Arbitrary<Body | undefined> {
  const bases = BASES[route] ?? [{}];
  const json = fc.oneof(
    { weight: 5, arbitrary: fc.tuple(fc.constantFrom(...bases), edits).map(([base, e]) => asJson(damage(base, e))) },
    { weight: 1, arbitrary: fc.constantFrom(...bases).map(asJson) },
    { weight: 2, arbitrary: anyJson.map(asJson) },
    { weight: 1, arbitrary: deep.map(asJson) },
    { weight: 1, arbitrary: rawBodies.map((raw) => ({ raw })) },
  );
  const contentType = fc.oneof(
    { weight: 8, arbitrary: fc.constant('application/json') },
    {
      weight: 1,
      arbitrary: fc.constantFrom(
        'application/json; charset=utf-8',
        'application/json; charset=latin1',
        'application/merge-patch+json',
        'text/csv',
        'text/plain',
        'application/x-www-form-urlencoded',
        'multipart/form-data; boundary=x',
        '',
      ),
    },
  );
  return fc.option(
    fc.tuple(json, contentType).map(([body, type]) => ({ ...body, contentType: type })),
    { freq: 8 },
  );
}

const paramNames = fc.constantFrom(
  'limit',
  'cursor',
  'sort',
  'type',
  'q',
  'created_after',
  'created_before',
  'from',
  'to',
  'granularity',
  'timezone',
  'include_bots',
  'top',
  'format',
  'size',
  'margin',
  'status',
  'x',
  '__proto__',
);
const query = fc.option(
  fc.oneof(
    fc
      .array(
        fc.tuple(
          paramNames,
          fc.oneof(
            text,
            number.map(String),
            fc.constantFrom(
              'svg',
              'png',
              'pdf',
              'csv',
              'json',
              'hour',
              'week',
              'month',
              '-created_at',
              'failed',
              'true',
            ),
          ),
        ),
        { maxLength: 5 },
      )
      .map((entries) => {
        try {
          return `?${new URLSearchParams(entries as [string, string][])}`;
        } catch {
          return '?q=%ED%A0%80';
        }
      }),
    fc.constantFrom(
      '?%',
      '?%ZZ=1',
      '?limit=1&limit=2',
      '?limit[]=1',
      '?=&&=',
      `?cursor=${'A'.repeat(5000)}`,
      '?q=%00',
      '?format=pdf&size=4096&margin=16',
      '?from=2026-13-45&to=1900-01-01',
      '?granularity=hour&from=2000-01-01',
      '?timezone=Asia/Kathmandu&granularity=hour&top=100',
    ),
  ),
  { freq: 2 },
);
const encode = (value: string) => {
  try {
    return encodeURIComponent(value);
  } catch {
    return '%ED%A0%80'; // a lone surrogate, as its UTF-8 bytes
  }
};
/** Ids of both accounts by what they name, so that most requests reach a real thing (or the other account's). */
const [codeIds, ruleIds, batchIds, webhookIds, deliveryIds] = a.ids.map((id, i) => [id, b.ids[i]!]);
function idsFor(path: string, param: string): string[] {
  if (param === ':ruleId') return ruleIds!;
  if (param === ':batch_id') return batchIds!;
  if (param === ':deliveryId') return deliveryIds!;
  if (path.startsWith('/v1/codes/')) return codeIds!;
  if (path.startsWith('/v1/webhooks/')) return webhookIds!;
  if (path.startsWith('/v1/api-keys/')) return [victim.keyId]; // never A's own key: revoking it would end the run
  return [...a.ids, ...b.ids];
}
const pathParam = (path: string, param: string) =>
  fc.oneof(
    { weight: 6, arbitrary: fc.constantFrom(...idsFor(path, param)) },
    { weight: 1, arbitrary: fc.constantFrom(...a.ids, ...b.ids) },
    { weight: 2, arbitrary: text.map(encode) },
    {
      weight: 1,
      arbitrary: fc.constantFrom(
        '%',
        '%ZZ',
        '..',
        '%2e%2e',
        '%2F',
        'x'.repeat(3000),
        `qr_${'A'.repeat(20)}`,
        '-1',
        '0',
      ),
    },
  );
const headerValue = fc.string({ unit: 'grapheme-ascii', maxLength: 200 });
const extraHeaders = fc.oneof(
  { weight: 3, arbitrary: fc.constant({}) },
  {
    weight: 1,
    arbitrary: fc.record(
      {
        'idempotency-key': fc.oneof(headerValue, fc.constant('x'.repeat(300))),
        'if-none-match': fc.oneof(headerValue, fc.constant('*')),
        accept: fc.constantFrom(
          'application/json',
          'text/html',
          'text/csv',
          '*/*',
          'application/graphql-response+json',
          '',
        ),
        'x-request-id': headerValue,
      },
      { requiredKeys: [] },
    ),
  },
);

// ---------------------------------------------------------------- sending and checking

interface Sent {
  method: string;
  path: string;
  body?: Body;
  headers: Record<string, string>;
}

async function send(request: Sent) {
  const headers: Record<string, string> = { authorization: `Bearer ${keyA}`, ...request.headers };
  if (request.body?.contentType) headers['content-type'] = request.body.contentType;
  const res = await fetch(app.url + request.path, {
    method: request.method,
    headers,
    body: request.body?.raw,
    redirect: 'manual',
  }).catch((err: Error) => {
    throw new Error(
      `no answer (${err.cause ?? err.message}) to ${shown(request)} (${request.body?.raw.length ?? 0} characters)`,
    );
  });
  return { status: res.status, type: res.headers.get('content-type') ?? '', text: await res.text() };
}

const shown = (request: Sent) =>
  `${request.method} ${request.path.slice(0, 300)} ${request.body?.contentType ?? ''} ` +
  `${request.body?.raw.slice(0, 300) ?? ''}`;

/** None of the victim's ids in the answer, unless the request carried them itself. */
function expectNothingOfTheVictim(request: Sent, answer: string) {
  const sent = `${request.path} ${request.body?.raw ?? ''} ${JSON.stringify(request.headers)}`;
  for (const secret of victimSecrets) {
    if (!sent.includes(secret) && !sent.includes(encode(secret)))
      expect(answer.includes(secret), `${secret} leaked to ${shown(request)}`).toBe(false);
  }
}

function expectRestAnswer(request: Sent, res: Awaited<ReturnType<typeof send>>) {
  expect(res.status, `${res.status} ${res.text.slice(0, 500)} for ${shown(request)}`).toBeLessThan(500);
  if (res.status >= 400) {
    expect(res.type, shown(request)).toContain('application/problem+json');
    const problem = JSON.parse(res.text);
    expect(problem.status).toBe(res.status);
    expect(problem.type).toMatch(/^\/problems\//);
  }
  expectNothingOfTheVictim(request, res.text);
}

const restRoutes = apiRoutes('v1', app.services)
  // Deletions last, so that the other routes meet the account's things while they exist.
  .sort((x, y) => Number(x.method === 'DELETE') - Number(y.method === 'DELETE'));

describe('fuzzing REST', () => {
  it('reads every route off the router', () => {
    const names = restRoutes.map((r) => `${r.method} ${r.path}`);
    for (const expected of [
      'POST /v1/codes',
      'POST /v1/codes/bulk',
      'PUT /v1/codes/:id/routing',
      'GET /v1/codes/:id/scans/raw',
      'GET /v1/analytics/overview',
      'GET /v1/batches/:batch_id/images.zip',
      'POST /v1/webhooks/:id/deliveries/:deliveryId/retry',
    ]) {
      expect(names).toContain(expected);
    }
  });

  it.each(restRoutes)('$method $path', { timeout: TIMEOUT_MS }, async ({ method, path }) => {
    const route = `${method} ${path}`;
    const params = path.match(/:\w+/g) ?? [];
    const arbitrary = fc.record({
      values: fc.tuple(...params.map((param) => pathParam(path, param))),
      query,
      // fetch sends no body with GET; DELETE and body-less POSTs sometimes get one anyway.
      body:
        method === 'GET'
          ? fc.constant(undefined)
          : ['PUT', 'PATCH'].includes(method) || BASES[route]
            ? bodyFor(route)
            : fc.option(bodyFor(route), { freq: 4 }).map((b) => b ?? undefined),
      headers: extraHeaders,
    });
    await fc.assert(
      fc.asyncProperty(arbitrary, async ({ values, query: q, body, headers }) => {
        let filled = path;
        params.forEach((param, i) => (filled = filled.replace(param, values[i]!)));
        const request: Sent = {
          method,
          path: filled + (q ?? ''),
          body: body ?? undefined,
          headers: headers as Record<string, string>,
        };
        expectRestAnswer(request, await send(request));
      }),
      { numRuns: RUNS, endOnFailure: true, ...SEED },
    );
  });
});

// ---------------------------------------------------------------- GraphQL

/** A value for a GraphQL input type: mostly of the right shape, now and then anything at all. */
function inputFor(type: GraphQLInputType, depth = 0): fc.Arbitrary<unknown> {
  const required = isNonNullType(type);
  const named = required ? type.ofType : type;
  let right: fc.Arbitrary<unknown>;
  if (isListType(named)) right = fc.array(inputFor(named.ofType, depth + 1), { maxLength: depth > 2 ? 1 : 3 });
  else if (isInputObjectType(named)) {
    const fields = Object.values(named.getFields());
    const requiredKeys = fields.filter((f) => isNonNullType(f.type)).map((f) => f.name);
    right =
      depth > 4
        ? fc.constant({})
        : fc.record(Object.fromEntries(fields.map((f) => [f.name, inputFor(f.type, depth + 1)])), { requiredKeys });
  } else if (isEnumType(named))
    right = fc.oneof(
      { weight: 8, arbitrary: fc.constantFrom(...named.getValues().map((v) => v.name)) },
      { weight: 1, arbitrary: text },
    );
  else if (isScalarType(named) && named.name === 'ID')
    right = fc.oneof({ weight: 6, arbitrary: fc.constantFrom(...a.ids, ...b.ids) }, { weight: 1, arbitrary: text });
  else if (isScalarType(named) && named.name === 'JSON')
    right = fc.oneof(fc.constantFrom('https://example.com/gql', ...staticBodies.map((s) => s.content)), anyJson);
  else if (isScalarType(named) && named.name === 'Int')
    right = fc.oneof({ weight: 6, arbitrary: fc.integer({ min: -5, max: 600 }) }, { weight: 1, arbitrary: number });
  else if (isScalarType(named) && named.name === 'Float') right = number;
  else if (isScalarType(named) && named.name === 'Boolean') right = fc.boolean();
  else if (isScalarType(named) && named.name === 'DateTime')
    right = fc.oneof(
      { weight: 6, arbitrary: fc.date({ noInvalidDate: true }).map((d) => d.toISOString()) },
      { weight: 1, arbitrary: text },
    );
  else right = text;
  // Wrong types and nulls mostly at the top: deep inside, one wrong field would hide the rest.
  const rare = depth === 0 ? 1 : 0.1;
  return fc.oneof(
    { weight: 60, arbitrary: right },
    { weight: Math.ceil(5 * rare), arbitrary: fc.oneof(anyJson, deep, huge) },
    { weight: required ? Math.ceil(2 * rare) : 10, arbitrary: fc.constant(null) },
  );
}

function operationFor(kind: 'query' | 'mutation', field: GraphQLField<unknown, unknown>) {
  const args = field.args;
  const variables = args.map((arg) => `$${arg.name}: ${arg.type}`).join(', ');
  const call = args.length ? `(${args.map((arg) => `${arg.name}: $${arg.name}`).join(', ')})` : '';
  const selection = isLeafType(getNamedType(field.type)) ? '' : ' { __typename }';
  return `${kind}${variables ? ` Fuzz(${variables})` : ''} { ${field.name}${call}${selection} }`;
}

/** Documents made of GraphQL's own tokens, mostly not well formed. */
const junkDocument = fc
  .array(
    fc.constantFrom(
      '{',
      '}',
      '(',
      ')',
      '[',
      ']',
      '$',
      '...',
      ':',
      '!',
      '@include(if: true)',
      'mutation',
      'query',
      'subscription',
      'fragment F on Code',
      'createCode',
      'codes',
      'id',
      'input:',
      '"s"',
      '"""b"""',
      '# c\n',
      '1',
      '-1.5e3',
      'null',
      '__schema',
      '__typename',
      ' ',
    ),
    { maxLength: 60 },
  )
  .map((tokens) => tokens.join(' '));

function expectGraphQLAnswer(request: Sent, res: Awaited<ReturnType<typeof send>>) {
  expect(res.status, `${res.status} ${res.text.slice(0, 500)} for ${shown(request)}`).toBeLessThan(500);
  if (res.type.includes('application/problem+json')) {
    // Refused before GraphQL: body too large or nested too deeply, compressed, …
    expect(res.status).toBeGreaterThanOrEqual(400);
    expect(JSON.parse(res.text).status).toBe(res.status);
  } else {
    expect([200, 400, 405], shown(request)).toContain(res.status);
    const answer = JSON.parse(res.text);
    for (const error of answer.errors ?? []) {
      expect(typeof error.extensions?.code, `${JSON.stringify(error)} for ${shown(request)}`).toBe('string');
      expect(error.extensions.code, `${error.message} for ${shown(request)}`).not.toBe('INTERNAL_SERVER_ERROR');
    }
    if (res.status === 200 && !answer.errors) expect(answer.data).toBeDefined();
  }
  expectNothingOfTheVictim(request, res.text);
}

const graphqlFields = [
  ...Object.values(schema.getMutationType()!.getFields()).map((field) => ({ kind: 'mutation' as const, field })),
  ...Object.values(schema.getQueryType()!.getFields()).map((field) => ({ kind: 'query' as const, field })),
];

describe('fuzzing GraphQL', () => {
  it.each(graphqlFields.map(({ kind, field }) => ({ name: `${kind} ${field.name}`, kind, field })))(
    '$name',
    { timeout: TIMEOUT_MS },
    async ({ kind, field }) => {
      const document = operationFor(kind, field);
      const requiredKeys = field.args.filter((arg) => isNonNullType(arg.type)).map((arg) => arg.name);
      const variables = fc.oneof(
        {
          weight: 9,
          arbitrary: fc.record(Object.fromEntries(field.args.map((arg) => [arg.name, inputFor(arg.type)])), {
            requiredKeys,
          }),
        },
        {
          weight: 1,
          arbitrary: fc.record(Object.fromEntries(field.args.map((arg) => [arg.name, inputFor(arg.type)])), {
            requiredKeys: [],
          }),
        },
      );
      const body = fc.oneof(
        { weight: 6, arbitrary: variables.map((v) => JSON.stringify({ query: document, variables: v })) },
        {
          weight: 1,
          arbitrary: fc
            .tuple(anyJson, anyJson)
            .map(([q, v]) => JSON.stringify({ query: q, variables: v, operationName: 'Fuzz' })),
        },
        { weight: 1, arbitrary: junkDocument.map((q) => JSON.stringify({ query: q })) },
        { weight: 1, arbitrary: rawBodies },
      );
      await fc.assert(
        fc.asyncProperty(
          body,
          fc.constantFrom('application/json', 'application/graphql-response+json'),
          async (raw, accept) => {
            const request: Sent = {
              method: 'POST',
              path: '/graphql',
              body: { raw, contentType: 'application/json' },
              headers: { accept },
            };
            expectGraphQLAnswer(request, await send(request));
          },
        ),
        { numRuns: RUNS, endOnFailure: true, ...SEED },
      );
    },
  );

  it('answers GET /graphql with odd query strings', { timeout: TIMEOUT_MS }, async () => {
    const params = fc.record(
      {
        query: fc.oneof(junkDocument, text, fc.constant('mutation { deleteCode(id: "x") { deletedId } }')),
        variables: fc.oneof(
          text,
          anyJson.map((v) => JSON.stringify(v)),
        ),
      },
      { requiredKeys: [] },
    );
    await fc.assert(
      fc.asyncProperty(params, async (p) => {
        let search: string;
        try {
          search = `?${new URLSearchParams(p as Record<string, string>)}`;
        } catch {
          search = '?query=%ED%A0%80';
        }
        const request: Sent = { method: 'GET', path: `/graphql${search}`, headers: { accept: 'application/json' } };
        expectGraphQLAnswer(request, await send(request));
      }),
      { numRuns: RUNS, endOnFailure: true, ...SEED },
    );
  });
});

describe('after the fuzzing', () => {
  it('is still up, with Object.prototype untouched and the other account as it was', async () => {
    expect((await app.request('GET', '/healthz')).status).toBe(200);
    expect((await app.request('GET', '/readyz')).status).toBe(200);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(Object.keys(Object.prototype)).toEqual([]);
    const code = await app.request('GET', `/v1/codes/${b.code.id}`, { key: victim.key });
    expect(code.status).toBe(200);
    expect(code.body).toEqual(b.code);
    expect((await app.request('GET', `/v1/webhooks/${b.ids[3]}`, { key: victim.key })).status).toBe(200);
    const scan = await fetch(b.code.scan_url, { redirect: 'manual' });
    expect(scan.headers.get('location')).toBe(b.code.content);
  });
});
