// Light-on-dark designs (modules lighter than the background) are refused with a 422 that names
// the field, unless the design opts in with allow_light_on_dark; an accepted one carries a warning
// that some readers cannot read it, over REST and GraphQL alike. zbar shows why: it reads such a
// code only when told to try inverted images too.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getTestApp, type TestApp } from '../support/app.ts';
import { requireDecoderTools, scratchDir } from '../support/decoders.ts';
import { countCodes, createCode } from '../support/factories.ts';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';

let app: TestApp;
let key: string;
let files: Awaited<ReturnType<typeof scratchDir>>;

beforeAll(async () => {
  await requireDecoderTools();
  app = await getTestApp();
  key = await app.newAccountKey();
  files = await scratchDir();
});
afterAll(async () => {
  await app.close();
  await files.remove();
});

const LIGHT_ON_DARK = { fg_color: '#ffffff', bg_color: '#1a1a2e' };
const WARNING = { code: 'light_on_dark', message: expect.stringMatching(/zbar.*cannot read light-on-dark codes/) };

describe('light-on-dark designs over REST', () => {
  // [case, design, the field named]
  const refused: [string, Record<string, unknown>, string][] = [
    ['light modules', LIGHT_ON_DARK, 'design.fg_color'],
    [
      'a gradient that ends light',
      { bg_color: '#777777', gradient: { type: 'linear', from: '#000000', to: '#ffffff' } },
      'design.gradient.to',
    ],
    [
      'light eyes on dark modules',
      { fg_color: '#000000', bg_color: '#666666', eye_color: '#ffffff' },
      'design.eye_color',
    ],
  ];
  it.each(refused)('refuses %s with a 422 naming the field, and creates nothing', async (_, design, path) => {
    const before = await countCodes(app, key);
    const res = await app.request('POST', '/v1/codes', { key, body: { content: 'https://example.com/', design } });
    expect(res.status).toBe(422);
    expect(res.headers.get('content-type')).toContain('application/problem+json');
    expect(res.body.errors).toEqual([{ path, message: expect.stringMatching(/allow_light_on_dark: true/) }]);
    expect(await countCodes(app, key)).toBe(before);
  });

  it('refuses a non-boolean opt-in', async () => {
    const design = { ...LIGHT_ON_DARK, allow_light_on_dark: 'yes' };
    const res = await app.request('POST', '/v1/codes', { key, body: { content: 'https://example.com/', design } });
    expect(res.status).toBe(422);
    expect(res.body.errors).toEqual([{ path: 'design.allow_light_on_dark', message: 'must be true or false' }]);
  });

  it('accepts an opted-in design with a warning, and serves an image zbar reads only inverted', async () => {
    const code = await createCode(app, key, { design: { ...LIGHT_ON_DARK, allow_light_on_dark: true } });
    expect(code.design).toMatchObject({ ...LIGHT_ON_DARK, allow_light_on_dark: true });
    expect(code.warnings).toEqual([WARNING]);
    expect((await app.request('GET', `/v1/codes/${code.id}`, { key })).body.warnings).toEqual([WARNING]);

    const image = await fetch(`${app.url}/v1/codes/${code.id}/image?format=png`, {
      headers: { authorization: `Bearer ${key}` },
    });
    const png = await files.write('light-on-dark.png', new Uint8Array(await image.arrayBuffer()));
    const zbar = (...options: string[]) =>
      promisify(execFile)('zbarimg', ['--raw', '-q', '--nodbus', ...options, png]).then(
        (out) => out.stdout.trim(),
        (err: { stdout: string }) => err.stdout.trim(),
      );
    expect(await zbar()).toBe('');
    expect(await zbar('-Stest-inverted')).toBe(code.scan_url);
  });

  it('keeps a dark-on-light code free of warnings, and a PATCH to light on dark needs the opt-in', async () => {
    const code = await createCode(app, key);
    expect(code.warnings).toEqual([]);
    const refused = await app.request('PATCH', `/v1/codes/${code.id}`, { key, body: { design: LIGHT_ON_DARK } });
    expect(refused.status).toBe(422);
    expect(refused.body.errors).toEqual([{ path: 'design.fg_color', message: expect.any(String) }]);
    expect((await app.request('GET', `/v1/codes/${code.id}`, { key })).body.design.fg_color).toBe('#000000');

    const body = { design: { ...LIGHT_ON_DARK, allow_light_on_dark: true } };
    const accepted = await app.request('PATCH', `/v1/codes/${code.id}`, { key, body });
    expect(accepted.status).toBe(200);
    expect(accepted.body.warnings).toEqual([WARNING]);
  });
});

describe('light-on-dark designs over GraphQL', () => {
  const mutation = (design: string) =>
    `mutation { createCode(input: { content: "https://example.com/", design: { ${design} } }) ` +
    `{ id design { allowLightOnDark } warnings { code message } } }`;

  it('refuses one without allowLightOnDark, naming the GraphQL field', async () => {
    const res = await app.graphql(key, mutation('fgColor: "#ffffff", bgColor: "#1a1a2e"'));
    expect(res.body.data).toBeNull();
    expect(res.body.errors[0].extensions.status).toBe(422);
    expect(res.body.errors[0].extensions.errors.map((e: { path: string }) => e.path)).toEqual(['design.fgColor']);
  });

  it('accepts one with allowLightOnDark, and answers the warning', async () => {
    const res = await app.graphql(key, mutation('fgColor: "#ffffff", bgColor: "#1a1a2e", allowLightOnDark: true'));
    expect(res.body.errors).toBeUndefined();
    expect(res.body.data.createCode).toMatchObject({ design: { allowLightOnDark: true }, warnings: [WARNING] });
  });
});
