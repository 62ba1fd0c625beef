import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../support/app.ts';
import { createCode } from '../support/factories.ts';
import { getTestAppWithLogos, type LogoServer } from '../support/logo-server.ts';

let app: TestApp;
let key: string;
let logos: LogoServer;
let close: () => Promise<void>;

beforeAll(async () => {
  ({ app, key, logos, close } = await getTestAppWithLogos());
});
afterAll(() => close());

const DEFAULT_DESIGN = {
  fg_color: '#000000',
  bg_color: '#ffffff',
  style: 'square',
  logo_url: null,
  logo_image_id: null,
  error_correction: 'M',
  eye_style: 'square',
  eye_color: '#000000',
  gradient: null,
  frame: 'none',
  frame_text: null,
  margin: 4,
  allow_light_on_dark: false,
};

describe('POST /v1/codes', () => {
  it('creates a code and answers 201 with the full code, defaults filled in', async () => {
    const res = await app.request('POST', '/v1/codes', {
      key,
      body: { type: 'url', content: 'https://example.com/spring' },
    });
    expect(res.status).toBe(201);
    expect(res.headers.get('location')).toBe(`/v1/codes/${res.body.id}`);
    expect(res.body).toMatchObject({
      object: 'code',
      type: 'url',
      content: 'https://example.com/spring',
      design: DEFAULT_DESIGN,
      routing: { enabled: false, rules: [] },
    });
    expect(res.body.id).toMatch(/^qr_[0-9A-Za-z]{20}$/);
    expect(res.body.scan_url).toMatch(new RegExp(`^${app.url}/[0-9A-Za-z]{7}$`));
    expect(res.body.payload).toBe(res.body.scan_url);
    expect(new Date(res.body.created_at).toISOString()).toBe(res.body.created_at);
    expect(res.body.updated_at).toBe(res.body.created_at);
  });

  it('defaults type to url and keeps the chosen design, lower-casing colors', async () => {
    const code = await createCode(app, key, {
      type: undefined,
      design: { fg_color: '#1A2B3C', bg_color: '#FFFFFF', style: 'dots', error_correction: 'Q' },
    });
    expect(code.type).toBe('url');
    expect(code.design).toEqual({
      ...DEFAULT_DESIGN,
      fg_color: '#1a2b3c',
      eye_color: '#1a2b3c',
      style: 'dots',
      error_correction: 'Q',
    });
  });

  it('raises the default error correction to H when a logo is set', async () => {
    const code = await createCode(app, key, { design: { logo_url: logos.url() } });
    expect(code.design.error_correction).toBe('H');
    expect(code.design.logo_url).toBe(logos.url());
  });

  it('stores inline routing rules with ids and switches routing on', async () => {
    const code = await createCode(app, key, {
      routing: {
        rules: [
          { condition: 'country:de', destination: 'https://example.de/' },
          { condition: 'country:US,CA', destination: 'https://example.com/na' },
        ],
      },
    });
    expect(code.routing.enabled).toBe(true);
    expect(code.routing.rules).toHaveLength(2);
    expect(code.routing.rules[0]).toMatchObject({ condition: 'country:DE', destination: 'https://example.de/' });
    expect(code.routing.rules[1]).toMatchObject({ condition: 'country:US,CA' });
    expect(code.routing.rules[0].ruleId).toMatch(/^rule_/);
  });

  it('gives every code a different slug', async () => {
    const a = await createCode(app, key);
    const b = await createCode(app, key);
    expect(a.scan_url).not.toBe(b.scan_url);
  });
});

describe('GET /v1/codes/:id', () => {
  it('returns the code as created', async () => {
    const created = await createCode(app, key, { design: { style: 'rounded' } });
    const res = await app.request('GET', `/v1/codes/${created.id}`, { key });
    expect(res.status).toBe(200);
    expect(res.body).toEqual(created);
  });

  it('answers 404 problem+json for an unknown id', async () => {
    const res = await app.request('GET', '/v1/codes/qr_doesnotexist', { key });
    expect(res.status).toBe(404);
    expect(res.headers.get('content-type')).toContain('application/problem+json');
    expect(res.body).toMatchObject({ status: 404, title: 'Not found', type: '/problems/not-found' });
    expect(res.body.detail).toContain('qr_doesnotexist');
  });
});

describe('PATCH /v1/codes/:id', () => {
  it('changes the content and bumps updated_at, keeping the rest', async () => {
    const created = await createCode(app, key, { design: { style: 'dots' } });
    await new Promise((r) => setTimeout(r, 5));
    const res = await app.request('PATCH', `/v1/codes/${created.id}`, {
      key,
      body: { content: 'https://example.com/new' },
    });
    expect(res.status).toBe(200);
    expect(res.body.content).toBe('https://example.com/new');
    expect(res.body.design.style).toBe('dots');
    expect(res.body.scan_url).toBe(created.scan_url);
    expect(res.body.created_at).toBe(created.created_at);
    expect(Date.parse(res.body.updated_at)).toBeGreaterThan(Date.parse(created.updated_at));
  });

  it('accepts destination as the name of a url code content', async () => {
    const created = await createCode(app, key);
    const res = await app.request('PATCH', `/v1/codes/${created.id}`, {
      key,
      body: { destination: 'https://example.com/dest' },
    });
    expect(res.status).toBe(200);
    expect(res.body.content).toBe('https://example.com/dest');
  });

  it('merges design fields and resets a field given as null', async () => {
    const created = await createCode(app, key, { design: { fg_color: '#112233', style: 'dots' } });
    const res = await app.request('PATCH', `/v1/codes/${created.id}`, {
      key,
      body: { design: { style: null, bg_color: '#eeeeee' } },
    });
    expect(res.status).toBe(200);
    expect(res.body.design).toEqual({
      ...DEFAULT_DESIGN,
      fg_color: '#112233',
      eye_color: '#112233',
      bg_color: '#eeeeee',
    });
  });

  it('replaces routing rules as a whole and switches routing with enabled', async () => {
    const created = await createCode(app, key, {
      routing: { rules: [{ condition: 'country:FR', destination: 'https://example.fr/' }] },
    });
    const res = await app.request('PATCH', `/v1/codes/${created.id}`, {
      key,
      body: { routing: { enabled: false, rules: [{ condition: 'country:JP', destination: 'https://example.jp/' }] } },
    });
    expect(res.status).toBe(200);
    expect(res.body.routing.enabled).toBe(false);
    expect(res.body.routing.rules.map((r: { condition: string }) => r.condition)).toEqual(['country:JP']);
    const fetched = await app.request('GET', `/v1/codes/${created.id}`, { key });
    expect(fetched.body.routing).toEqual(res.body.routing);
  });

  it('refuses to change the type', async () => {
    const created = await createCode(app, key);
    const res = await app.request('PATCH', `/v1/codes/${created.id}`, { key, body: { type: 'url' } });
    expect(res.status).toBe(422);
    expect(res.body.errors).toEqual([{ path: 'type', message: 'cannot be changed; create a new code instead' }]);
  });

  it('answers 404 for an unknown id', async () => {
    const res = await app.request('PATCH', '/v1/codes/qr_missing', { key, body: { content: 'https://example.com' } });
    expect(res.status).toBe(404);
  });
});

describe('DELETE /v1/codes/:id', () => {
  it('deletes permanently: 204, then 404 on every later call', async () => {
    const created = await createCode(app, key);
    const res = await app.request('DELETE', `/v1/codes/${created.id}`, { key });
    expect(res.status).toBe(204);
    expect(res.text).toBe('');
    expect((await app.request('GET', `/v1/codes/${created.id}`, { key })).status).toBe(404);
    expect((await app.request('DELETE', `/v1/codes/${created.id}`, { key })).status).toBe(404);
    expect((await app.request('PATCH', `/v1/codes/${created.id}`, { key, body: {} })).status).toBe(404);
  });
});
