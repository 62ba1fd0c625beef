// The GraphQL fields the dashboard needs: Code.svg (list previews), previewCode (live preview of
// an unsaved design) and bulkCreateCodesFromCsv (CSV upload), over real HTTP on a real database.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isReservedPath } from '../../src/modules/codes/slug.ts';
import { decodeQr } from '../../src/modules/images/decode.ts';
import { svgToRgba } from '../../src/modules/images/raster.ts';
import { getTestApp, type TestApp } from '../support/app.ts';
import { countCodes, createCode } from '../support/factories.ts';

let app: TestApp;
let key: string;
let other: string;

beforeAll(async () => {
  app = await getTestApp({ BULK_RATE_LIMIT_PER_MINUTE: '3' });
  key = await app.newAccountKey();
  other = await app.newAccountKey();
});
afterAll(() => app.close());

/** Runs fn and returns the SQL statements Knex sent meanwhile. */
async function sqlDuring(fn: () => Promise<unknown>): Promise<string[]> {
  const seen: string[] = [];
  const listener = (q: { sql: string }) => seen.push(q.sql);
  app.testDb.db.on('query', listener);
  try {
    await fn();
  } finally {
    app.testDb.db.off('query', listener);
  }
  return seen;
}

const PREVIEW =
  'query($input: CreateCodeInput!, $codeId: ID, $size: Int) { previewCode(input: $input, codeId: $codeId, size: ' +
  '$size) }';

describe('Code.svg', () => {
  it('is the SVG of GET /v1/codes/:id/image at the same size', async () => {
    const code = await createCode(app, key, { design: { style: 'branded', fg_color: '#1d4ed8' } });
    const res = await app.graphql(key, 'query($id: ID!) { code(id: $id) { svg(size: 160) } }', { id: code.id });
    expect(res.body.errors).toBeUndefined();
    const rest = await app.request('GET', `/v1/codes/${code.id}/image?format=svg&size=160`, { key });
    expect(res.body.data.code.svg).toBe(rest.text);
    expect(res.body.data.code.svg).toMatch(/^<svg[^>]* width="160"/);
  });

  it('adds no query per code to a page of codes', async () => {
    const own = await app.newAccountKey();
    for (let i = 0; i < 12; i++) await createCode(app, own);
    const page = (fields: string) => app.graphql(own, `{ codes(first: 12) { edges { node { id ${fields} } } } }`);
    const without = await sqlDuring(() => page(''));
    const withSvg = await sqlDuring(async () =>
      expect((await page('svg(size: 64)')).body.data.codes.edges).toHaveLength(12),
    );
    expect(withSvg.length).toBe(without.length);
  });

  it("refuses a size out of range with the image endpoint's message", async () => {
    const code = await createCode(app, key);
    const res = await app.graphql(key, 'query($id: ID!) { code(id: $id) { svg(size: 10) } }', { id: code.id });
    expect(res.body.errors[0].extensions).toMatchObject({
      code: 'VALIDATION_FAILED',
      errors: [{ path: 'size', message: 'must be at least 64' }],
    });
  });

  it('needs codes:read, like the image endpoint', async () => {
    const writeOnly = await app.newAccountKey(undefined, { scopes: ['codes:write'] });
    const res = await app.graphql(
      writeOnly,
      'mutation { createCode(input: { content: "https://example.com/w" }) { id svg } }',
    );
    expect(res.body.errors[0].extensions.code).toBe('FORBIDDEN');
  });
});

describe('previewCode', () => {
  it('draws the design createCode would make, and saves nothing', async () => {
    const own = await app.newAccountKey();
    const input = {
      content: 'https://example.com/preview',
      design: { style: 'branded', fgColor: '#7c3aed', frame: 'banner', frameText: 'Scan me' },
    };
    const res = await app.graphql(own, PREVIEW, { input, size: 256 });
    expect(res.body.errors).toBeUndefined();
    expect(res.body.data.previewCode).toMatch(/^<svg[^>]* width="256"/);
    expect(res.body.data.previewCode).toContain('#7c3aed');
    expect(await countCodes(app, own)).toBe(0);
  });

  it("with codeId encodes that code's scan URL: the saved image for an unchanged design", async () => {
    const code = await createCode(app, key, { design: { style: 'dots', fg_color: '#0f766e' } });
    const res = await app.graphql(key, PREVIEW, {
      codeId: code.id,
      size: 200,
      input: { content: code.content, design: { style: 'dots', fgColor: '#0f766e' } },
    });
    expect(res.body.errors).toBeUndefined();
    const saved = await app.request('GET', `/v1/codes/${code.id}/image?format=svg&size=200`, { key });
    expect(res.body.data.previewCode).toBe(saved.text);
  });

  it('refuses what createCode refuses, with the same field paths', async () => {
    const lowContrast = await app.graphql(key, PREVIEW, {
      input: { content: 'https://example.com/p', design: { fgColor: '#eeeeee' } },
    });
    expect(lowContrast.body.errors[0].extensions).toMatchObject({
      code: 'VALIDATION_FAILED',
      errors: [{ path: 'design.fgColor', message: expect.stringMatching(/contrast/) }],
    });
    const badContent = await app.graphql(key, PREVIEW, {
      input: { type: 'wifi', content: { ssid: 'Guest', encryption: 'WPA' } },
    });
    expect(badContent.body.errors[0].extensions.errors).toEqual([
      { path: 'content.password', message: 'is required when encryption is WPA' },
    ]);
  });

  it('takes one preview per operation: aliases cannot turn one request into many renders', async () => {
    const input = '{ content: "https://example.com/many" }';
    const twice = await app.graphql(key, `{ a: previewCode(input: ${input}) b: previewCode(input: ${input}) }`);
    expect(twice.body.errors[0].message).toBe('An operation may hold previewCode once (found 2).');
    expect(twice.body.data).toBeUndefined();
    const once = await app.graphql(key, `{ a: previewCode(input: ${input}) }`);
    expect(once.body.errors).toBeUndefined();
  });

  it('encodes a reserved stand-in slug for an unsaved code: scanning the preview reaches no code', async () => {
    const res = await app.graphql(key, PREVIEW, { input: { content: 'https://example.com/unsaved' } });
    const text = decodeQr(svgToRgba(res.body.data.previewCode, 600))!;
    const standIn = new URL(text);
    expect(standIn.origin).toBe(app.url);
    expect(isReservedPath(standIn.pathname.slice(1))).toBe(true);
    const scan = await fetch(text, { redirect: 'manual' });
    expect(scan.status).toBe(404);
  });

  it("answers NOT_FOUND for another account's code, and FORBIDDEN without codes:write", async () => {
    const code = await createCode(app, key);
    const foreign = await app.graphql(other, PREVIEW, { codeId: code.id, input: { content: 'https://example.com/x' } });
    expect(foreign.body.errors[0].extensions).toMatchObject({ code: 'NOT_FOUND', status: 404 });
    expect(foreign.body.errors[0].message).not.toContain('example.com');
    const readOnly = await app.newAccountKey(undefined, { scopes: ['codes:read'] });
    const refused = await app.graphql(readOnly, PREVIEW, { input: { content: 'https://example.com/x' } });
    expect(refused.body.errors[0].extensions.code).toBe('FORBIDDEN');
  });
});

describe('bulkCreateCodesFromCsv', () => {
  const IMPORT =
    'mutation($csv: String!) { bulkCreateCodesFromCsv(csv: $csv) { batchId created codes { id content design { ' +
    'fgColor style } } } }';

  it('creates every row, in order, for the caller only', async () => {
    const own = await app.newAccountKey();
    const csv = 'content,fg_color,style\nhttps://example.com/csv/1,#1D4ED8,dots\n"https://example.com/csv/2?a=1,2",,\n';
    const res = await app.graphql(own, IMPORT, { csv });
    expect(res.body.errors).toBeUndefined();
    expect(res.body.data.bulkCreateCodesFromCsv).toMatchObject({
      batchId: expect.stringMatching(/^batch_/),
      created: 2,
      codes: [
        { content: 'https://example.com/csv/1', design: { fgColor: '#1d4ed8', style: 'dots' } },
        { content: 'https://example.com/csv/2?a=1,2', design: { fgColor: '#000000', style: 'square' } },
      ],
    });
    expect(await countCodes(app, own)).toBe(2);
    const foreign = await app.graphql(other, 'query($id: ID!) { code(id: $id) { id } }', {
      id: res.body.data.bulkCreateCodesFromCsv.codes[0].id,
    });
    expect(foreign.body.data.code).toBeNull();
  });

  it('names bad rows as the REST CSV form does, and creates nothing', async () => {
    const own = await app.newAccountKey();
    const csv = 'content,fg_color\nhttps://example.com/ok,\njavascript:alert(1),\nhttps://example.com/b,blue\n';
    const res = await app.graphql(own, IMPORT, { csv });
    const rest = await app.request('POST', '/v1/codes/bulk', {
      key: own,
      rawBody: csv,
      headers: { 'content-type': 'text/csv' },
    });
    expect(rest.status).toBe(422);
    const error = res.body.errors[0];
    expect(error.extensions.code).toBe('VALIDATION_FAILED');
    expect(error.message).toBe(rest.body.detail);
    // GraphQL reports paths in camelCase, as it does for every input.
    expect(error.extensions.errors.map((e: any) => e.path)).toEqual(['row 3.content', 'row 4.fgColor']);
    expect(rest.body.errors.map((e: any) => e.path)).toEqual(['row 3.content', 'row 4.fg_color']);
    expect(await countCodes(app, own)).toBe(0);
  });

  it('reports malformed CSV and a wrong header', async () => {
    const own = await app.newAccountKey();
    const unclosed = await app.graphql(own, IMPORT, { csv: 'content\n"https://example.com/a\n' });
    expect(unclosed.body.errors[0].extensions.code).toBe('BAD_REQUEST');
    expect(unclosed.body.errors[0].message).toMatch(/^The request body is not valid CSV: Quote Not Closed/);
    const header = await app.graphql(own, IMPORT, { csv: 'url\nhttps://example.com/a\n' });
    expect(header.body.errors[0].extensions.errors.map((e: any) => e.path)).toEqual(['header.url', 'header.content']);
  });

  it('counts against the bulk rate limit, like bulkCreateCodes', async () => {
    const own = await app.newAccountKey();
    const csv = 'content\nhttps://example.com/limited\n';
    for (let i = 0; i < 3; i++)
      expect((await app.graphql(own, IMPORT, { csv })).body.data.bulkCreateCodesFromCsv.created).toBe(1);
    const refused = await app.graphql(own, IMPORT, { csv });
    expect(refused.status).toBe(429);
    expect(refused.body.errors[0].extensions).toMatchObject({ code: 'RATE_LIMITED', status: 429 });
    expect(await countCodes(app, own)).toBe(3);
  });
});
