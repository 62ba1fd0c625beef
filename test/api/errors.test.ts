// Every error leaves as RFC 9457 problem+json with the right status, and never as a 500.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getTestApp, type TestApp } from '../support/app.ts';
import { codeBody, createCode } from '../support/factories.ts';

let app: TestApp;
let key: string;

beforeAll(async () => {
  app = await getTestApp({ JSON_BODY_LIMIT: '16kb' });
  key = await app.newAccountKey();
});
afterAll(() => app.close());

function expectProblem(res: { status: number; headers: Headers; body: any; text: string }, status: number) {
  expect(res.status).toBe(status);
  expect(res.headers.get('content-type')).toContain('application/problem+json');
  expect(res.body).toMatchObject({
    status,
    type: expect.stringMatching(/^\/problems\//),
    title: expect.any(String),
    detail: expect.any(String),
  });
  expect(res.text).not.toMatch(/\bat .+\.ts:\d+/); // no stack trace
}

describe('401', () => {
  it('answers a missing key with 401 and WWW-Authenticate: Bearer', async () => {
    const res = await app.request('GET', '/v1/codes');
    expectProblem(res, 401);
    expect(res.headers.get('www-authenticate')).toMatch(/^Bearer/);
    expect(res.body.detail).toContain('Authorization: Bearer');
  });

  it.each([
    ['an unknown key', 'Bearer qrk_0000000000000000000000000000000000000000'],
    ['garbage', 'Bearer not-a-key'],
    ['another scheme', 'Basic dXNlcjpwYXNz'],
    ['an empty bearer', 'Bearer '],
  ])('answers %s with 401', async (_label, header) => {
    const res = await app.request('GET', '/v1/codes', { headers: { authorization: header } });
    expectProblem(res, 401);
    expect(res.headers.get('www-authenticate')).toMatch(/^Bearer/);
  });

  it('checks the key before anything else, even on unknown ids', async () => {
    expectProblem(await app.request('DELETE', '/v1/codes/qr_whatever'), 401);
  });
});

describe('404, 405', () => {
  it('answers unknown routes with 404', async () => {
    const res = await app.request('GET', '/v1/nothing-here', { key });
    expectProblem(res, 404);
  });

  it('answers a wrong method with 405 and an Allow header', async () => {
    const res = await app.request('PUT', '/v1/codes', { key, body: {} });
    expectProblem(res, 405);
    expect(res.headers.get('allow')).toContain('POST');
    expect(res.body.detail).toContain('Allowed');
  });
});

describe('bodies', () => {
  it('answers a body that is not JSON with 415', async () => {
    const res = await app.request('POST', '/v1/codes', {
      key,
      rawBody: 'content=https://example.com',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expectProblem(res, 415);
  });

  it('answers malformed JSON with 400', async () => {
    const res = await app.request('POST', '/v1/codes', {
      key,
      rawBody: '{"content": ',
      headers: { 'content-type': 'application/json' },
    });
    expectProblem(res, 400);
    expect(res.body.detail).toContain('not valid JSON');
  });

  it('answers a JSON scalar body with 400', async () => {
    const res = await app.request('POST', '/v1/codes', {
      key,
      rawBody: '"https://example.com"',
      headers: { 'content-type': 'application/json' },
    });
    expectProblem(res, 400);
  });

  it('answers a missing body with 400', async () => {
    const res = await app.request('POST', '/v1/codes', { key, headers: { 'content-type': 'application/json' } });
    expectProblem(res, 400);
  });

  it('answers a body over the limit with 413', async () => {
    const res = await app.request('POST', '/v1/codes', { key, body: codeBody({ padding: 'x'.repeat(20_000) }) });
    expectProblem(res, 413);
    expect(res.body.detail).toContain('16384');
  });

  it('refuses a __proto__ key instead of polluting anything', async () => {
    const res = await app.request('POST', '/v1/codes', {
      key,
      rawBody: '{"content":"https://example.com","__proto__":{"admin":true}}',
      headers: { 'content-type': 'application/json' },
    });
    expect([400, 422]).toContain(res.status);
    expect(({} as Record<string, unknown>).admin).toBeUndefined();
  });
});

describe('422 validation, one message per bad field', () => {
  const cases: [string, Record<string, unknown>, string, RegExp][] = [
    ['unknown type', { type: 'pdf' }, 'type', /one of url, text, email/],
    ['content missing', { content: undefined }, 'content', /.+/],
    ['javascript: URL', { content: 'javascript:alert(1)' }, 'content', /http/],
    ['data: URL', { content: 'data:text/html,hi' }, 'content', /http/],
    ['relative URL', { content: '/relative/path' }, 'content', /absolute/],
    ['content not a string', { content: 42 }, 'content', /string/],
    ['overlong URL', { content: `https://example.com/${'a'.repeat(2100)}` }, 'content', /2048/],
    ['fg_color name', { design: { fg_color: 'red' } }, 'design.fg_color', /#rrggbb/],
    ['bg_color short hex', { design: { bg_color: '#fff' } }, 'design.bg_color', /#rrggbb/],
    ['unknown style', { design: { style: 'hearts' } }, 'design.style', /square, dots, rounded, branded/],
    ['unknown level', { design: { error_correction: 'X' } }, 'design.error_correction', /L, M, Q, H/],
    ['logo not http', { design: { logo_url: 'ftp://example.com/logo.png' } }, 'design.logo_url', /http/],
    [
      'logo with level L',
      { design: { logo_url: 'https://example.com/l.png', error_correction: 'L' } },
      'design.error_correction',
      /Q or H/,
    ],
    ['same colors', { design: { fg_color: '#000000', bg_color: '#000000' } }, 'design.fg_color', /contrast of 1\.0:1/],
    ['low contrast', { design: { fg_color: '#aaaaaa', bg_color: '#ffffff' } }, 'design.fg_color', /at least 3:1/],
    [
      'low-contrast gradient end',
      { design: { gradient: { type: 'linear', from: '#000000', to: '#eeeeee' } } },
      'design.gradient.to',
      /contrast/,
    ],
    ['unknown eye style', { design: { eye_style: 'star' } }, 'design.eye_style', /square, rounded, circle/],
    ['margin below 2', { design: { margin: 1 } }, 'design.margin', /at least 2/],
    ['frame text without banner', { design: { frame_text: 'Scan me' } }, 'design.frame_text', /banner/],
    ['frame text too long', { design: { frame: 'banner', frame_text: 'x'.repeat(31) } }, 'design.frame_text', /30/],
    [
      'unknown static field',
      { type: 'wifi', content: { ssid: 'Cafe', password: 'secret123', vlan: 3 } },
      'content.vlan',
      /unknown field 'vlan'/,
    ],
    [
      'routing on a static code',
      { type: 'text', content: { text: 'hi' }, routing: { rules: [] } },
      'routing',
      /url codes only/,
    ],
    ['unknown top-level field', { colour: 'blue' }, 'colour', /unknown field 'colour'/],
    ['unknown design field', { design: { shape: 'star' } }, 'design.shape', /unknown field 'shape'/],
    ['routing not an object', { routing: [] }, 'routing', /object/],
    ['enabled not boolean', { routing: { enabled: 'yes' } }, 'routing.enabled', /boolean/],
    [
      'bad condition form',
      { routing: { rules: [{ condition: 'US', destination: 'https://example.com' }] } },
      'routing.rules.0.condition',
      /<dimension>:<value>/,
    ],
    [
      'unknown dimension',
      { routing: { rules: [{ condition: 'planet:mars', destination: 'https://example.com' }] } },
      'routing.rules.0.condition',
      /unknown dimension/,
    ],
    [
      'unknown country',
      { routing: { rules: [{ condition: 'country:XX', destination: 'https://example.com' }] } },
      'routing.rules.0.condition',
      /ISO 3166/,
    ],
    [
      'bad rule destination',
      { routing: { rules: [{ condition: 'country:US', destination: 'javascript:x' }] } },
      'routing.rules.0.destination',
      /http/,
    ],
  ];

  it.each(cases)('%s', async (_label, overrides, path, message) => {
    const res = await app.request('POST', '/v1/codes', { key, body: codeBody(overrides) });
    expectProblem(res, 422);
    const error = res.body.errors.find((e: { path: string }) => e.path === path);
    expect(error, JSON.stringify(res.body.errors)).toBeDefined();
    expect(error.message).toMatch(message);
  });

  it('lists every bad field at once', async () => {
    const res = await app.request('POST', '/v1/codes', {
      key,
      body: { type: 'url', content: 'nope', design: { fg_color: 'red', style: 'x' }, extra: 1 },
    });
    expectProblem(res, 422);
    expect(res.body.errors.map((e: { path: string }) => e.path).sort()).toEqual([
      'content',
      'design.fg_color',
      'design.style',
      'extra',
    ]);
  });

  it('changes nothing when validation fails', async () => {
    const before = await app.request('GET', '/v1/codes?limit=500', { key });
    await app.request('POST', '/v1/codes', { key, body: codeBody({ design: { fg_color: 'nope' } }) });
    const code = await createCode(app, key);
    const patch = await app.request('PATCH', `/v1/codes/${code.id}`, {
      key,
      body: { content: 'ftp://x', design: { style: 'dots' } },
    });
    expectProblem(patch, 422);
    const after = await app.request('GET', `/v1/codes/${code.id}`, { key });
    expect(after.body).toEqual(code);
    const list = await app.request('GET', '/v1/codes?limit=500', { key });
    expect(list.body.data.length).toBe(before.body.data.length + 1);
  });

  it('rejects a PATCH with both content and destination', async () => {
    const code = await createCode(app, key);
    const res = await app.request('PATCH', `/v1/codes/${code.id}`, {
      key,
      body: { content: 'https://a.example', destination: 'https://b.example' },
    });
    expectProblem(res, 422);
    expect(res.body.errors[0].path).toBe('destination');
  });

  it('rejects a PATCH that would put a logo on a level-M code', async () => {
    const code = await createCode(app, key, { design: { error_correction: 'M' } });
    const res = await app.request('PATCH', `/v1/codes/${code.id}`, {
      key,
      body: { design: { logo_url: 'https://example.com/logo.png' } },
    });
    expectProblem(res, 422);
    expect(res.body.errors[0].path).toBe('design.error_correction');
  });
});
