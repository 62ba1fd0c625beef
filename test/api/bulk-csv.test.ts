// POST /v1/codes/bulk with Content-Type: text/csv: rows become create bodies, errors name rows.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getTestApp, type TestApp } from '../support/app.ts';
import { countCodes as countCodesOf } from '../support/factories.ts';
import { startLogoServer, type LogoServer } from '../support/logo-server.ts';

let app: TestApp;
let key: string;
let logos: LogoServer;

beforeAll(async () => {
  app = await getTestApp({ BULK_BODY_LIMIT: '4mb', ALLOW_PRIVATE_NETWORK_TARGETS: 'true' });
  key = await app.newAccountKey();
  logos = await startLogoServer();
});
afterAll(async () => {
  await logos.close();
  await app.close();
});

const HEADER = 'type,content,fg_color,bg_color,style,error_correction,logo_url';
const STYLES = ['square', 'dots', 'rounded', 'branded'];

function postCsv(csv: string, options: { key?: string; headers?: Record<string, string> } = {}) {
  return app.request('POST', '/v1/codes/bulk', {
    key: options.key ?? key,
    rawBody: csv,
    headers: { 'content-type': 'text/csv; charset=utf-8', ...options.headers },
  });
}

const countCodes = (apiKey: string) => countCodesOf(app, apiKey);

const urlRows = (n: number) => Array.from({ length: n }, (_, i) => `,https://example.com/csv/${i},,,,,`);

describe('POST /v1/codes/bulk with text/csv', () => {
  it('creates 1,000 rows in order, with their design fields', async () => {
    const own = await app.newAccountKey();
    const rows = Array.from({ length: 1000 }, (_, i) =>
      [
        i % 10 === 0 ? 'url' : '',
        `https://example.com/csv/${i}`,
        i % 2 ? '#1D4ED8' : '',
        i % 2 ? '#fefce8' : '',
        STYLES[i % 4],
        i % 3 ? '' : 'H',
        i === 999 ? logos.url('/logo.png') : '',
      ].join(','),
    );
    const res = await postCsv([HEADER, ...rows].join('\r\n') + '\r\n', { key: own });
    expect(res.status, res.text.slice(0, 300)).toBe(201);
    expect(res.body).toMatchObject({
      object: 'bulk_result',
      created: 1000,
      batch_id: expect.stringMatching(/^batch_/),
    });
    expect(res.body.data.map((c: any) => c.content)).toEqual(rows.map((_, i) => `https://example.com/csv/${i}`));
    expect(res.body.data.every((c: any) => c.type === 'url' && c.scan_url)).toBe(true);
    expect(res.body.data[1].design).toMatchObject({ fg_color: '#1d4ed8', bg_color: '#fefce8', style: 'dots' });
    expect(res.body.data[3].design.error_correction).toBe('H');
    expect(res.body.data[2].design).toMatchObject({ fg_color: '#000000', bg_color: '#ffffff', style: 'rounded' });
    expect(res.body.data[999].design.logo_url).toBe(logos.url('/logo.png'));
    expect(await countCodes(own)).toBe(1000);
  });

  it('refuses a wrong header with 422 naming the unknown and missing columns', async () => {
    const wrong = await postCsv('type,url,colour\nurl,https://example.com,red\n');
    expect(wrong.status).toBe(422);
    expect(wrong.body.errors.map((e: any) => e.path)).toEqual(['header.url', 'header.colour', 'header.content']);
    expect(wrong.body.detail).toMatch(/unknown column 'url'.*unknown column 'colour'.*missing column 'content'/);

    const extra = await postCsv(`${HEADER},comment\n,https://example.com,,,,,,hello\n`);
    expect(extra.status).toBe(422);
    expect(extra.body.errors).toEqual([
      {
        path: 'header.comment',
        message: expect.stringMatching(
          /^unknown column 'comment'; the columns are type, content, slug, domain, forward_query, name, notes/,
        ),
      },
    ]);

    const noHeader = await postCsv('https://example.com/a\nhttps://example.com/b\n');
    expect(noHeader.status).toBe(422);
    expect(noHeader.body.detail).toMatch(/first CSV row must be a header/);

    // Only content is required; columns may come in any order, names trimmed and in any case.
    const some = await postCsv(' Style ,CONTENT\ndots,https://example.com/some\n');
    expect(some.status, some.text).toBe(201);
    expect(some.body.data[0]).toMatchObject({ content: 'https://example.com/some', design: { style: 'dots' } });

    const headerOnly = await postCsv(`${HEADER}\n`);
    expect(headerOnly.status).toBe(422);
    expect(headerOnly.body.detail).toMatch(/no rows/);
  });

  it('names bad rows by CSV row number (the header is row 1) and creates nothing', async () => {
    const own = await app.newAccountKey();
    const rows = urlRows(2000);
    rows[321] = ',https://example.com/bad-color,red,,,,';
    rows[1500] = ',javascript:alert(1),,,,,';
    rows[1501] = 'text,"{""txt"":""typo""}",,,,,';
    const res = await postCsv([HEADER, ...rows].join('\n'), { key: own });
    expect(res.status).toBe(422);
    expect(res.body.errors).toEqual([
      { path: 'row 323.fg_color', message: 'must be a color in the form #rrggbb' },
      { path: 'row 1502.content', message: 'must be an absolute http:// or https:// URL' },
      { path: 'row 1503.content.text', message: 'is required' },
      { path: 'row 1503.content.txt', message: "unknown field 'txt'" },
    ]);
    expect(res.body.detail).toMatch(
      /3 of 2000 rows are invalid \(4 problems\).*none was created.*'row <n>\.<column>', counting the header as row 1/,
    );
    expect(await countCodes(own)).toBe(0);

    const one = await postCsv(`${HEADER}\n,https://example.com/ok,,,,,\n,https://example.com/x,,,,L-ish,\n`, {
      key: own,
    });
    expect(one.status).toBe(422);
    expect(one.body.errors).toEqual([{ path: 'row 3.error_correction', message: 'must be one of L, M, Q, H' }]);
    expect(one.body.detail).toMatch(/^1 of 2 rows are invalid/);
  });

  it('reads quoted fields with commas, quotes and newlines, and counts rows as records', async () => {
    const csv = [
      'type,content,style',
      'url,"https://example.com/search?q=a,b&tags=x,y",dots',
      'text,"{""text"": ""Hello, \\""world\\""\\nsecond line""}",rounded',
      // A line break inside a quoted cell: JSON allows whitespace between tokens.
      'text,"{\n  ""text"": ""multi-line cell""\n}",',
      'url,https://example.com/after,"square"',
    ].join('\n');
    const res = await postCsv(csv);
    expect(res.status, res.text).toBe(201);
    expect(res.body.data.map((c: any) => c.content)).toEqual([
      'https://example.com/search?q=a,b&tags=x,y',
      { text: 'Hello, "world"\nsecond line' },
      { text: 'multi-line cell' },
      'https://example.com/after',
    ]);
    expect(res.body.data[1]).toMatchObject({
      type: 'text',
      payload: 'Hello, "world"\nsecond line',
      scan_url: null,
      design: { style: 'rounded' },
    });

    // The row after a three-line record is still row 5 (records, not lines).
    const bad = await postCsv(csv.replace('https://example.com/after', 'nope'));
    expect(bad.status).toBe(422);
    expect(bad.body.errors.map((e: any) => e.path)).toEqual(['row 5.content']);
  });

  it('treats empty cells as not set: url type, default design', async () => {
    const res = await postCsv(
      `${HEADER}\n,https://example.com/e1,,,,,\n  ,https://example.com/e2, ,,dots,,\nurl,https://example.com/e3,,,,,\n`,
    );
    expect(res.status, res.text).toBe(201);
    const [e1, e2, e3] = res.body.data;
    expect(e1).toMatchObject({
      type: 'url',
      content: 'https://example.com/e1',
      design: { style: 'square', fg_color: '#000000', logo_url: null },
    });
    expect(e2).toMatchObject({ type: 'url', design: { style: 'dots', fg_color: '#000000' } });
    expect(e3.type).toBe('url');

    const noContent = await postCsv(`${HEADER}\n,,#000000,,,,\n`);
    expect(noContent.status).toBe(422);
    expect(noContent.body.errors[0].path).toBe('row 2.content');
  });

  it("answers malformed CSV with 400 and csv-parse's message", async () => {
    const unclosed = await postCsv(`${HEADER}\n,"https://example.com/open,,,,,\n`);
    expect(unclosed.status).toBe(400);
    expect(unclosed.body.detail).toMatch(/^The request body is not valid CSV: Quote Not Closed/);
    const ragged = await postCsv(`${HEADER}\n,https://example.com/a,,\n`);
    expect(ragged.status).toBe(400);
    expect(ragged.body.detail).toMatch(/Invalid Record Length: expect 7, got 4 on line 2/);
  });

  it('keeps 415 for bodies that are neither JSON nor CSV', async () => {
    const res = await app.request('POST', '/v1/codes/bulk', {
      key,
      rawBody: `${HEADER}\n,https://example.com,,,,,\n`,
      headers: { 'content-type': 'text/plain' },
    });
    expect(res.status).toBe(415);
    expect(res.body.detail).toMatch(/application\/json.*text\/csv.*got 'text\/plain'/);
    const latin1 = await postCsv(`${HEADER}\n,https://example.com,,,,,\n`, {
      headers: { 'content-type': 'text/csv; charset=iso-8859-1' },
    });
    expect(latin1.status).toBe(415);
  });

  it('replays an Idempotency-Key for the same CSV and refuses it for other rows', async () => {
    const own = await app.newAccountKey();
    const csv = [HEADER, ...urlRows(20)].join('\n');
    const first = await postCsv(csv, { key: own, headers: { 'idempotency-key': 'csv-run-1' } });
    const again = await postCsv(csv, { key: own, headers: { 'idempotency-key': 'csv-run-1' } });
    expect(first.status).toBe(201);
    expect(again.status).toBe(201);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.body).toEqual(first.body);
    const other = await postCsv([HEADER, ...urlRows(21)].join('\n'), {
      key: own,
      headers: { 'idempotency-key': 'csv-run-1' },
    });
    expect(other.status).toBe(422);
    expect(other.body.detail).toMatch(/different request body/);
    expect(await countCodes(own)).toBe(20);
  });
});

describe('CSV body limit', () => {
  let small: TestApp;
  let smallKey: string;
  beforeAll(async () => {
    small = await getTestApp({ BULK_BODY_LIMIT: '64kb' });
    smallKey = await small.newAccountKey();
  });
  afterAll(() => small.close());

  const bigCsv = () =>
    [HEADER, ...Array.from({ length: 3000 }, (_, i) => `,https://example.com/limit/${i},,,,,`)].join('\n');

  it('answers 413 past BULK_BODY_LIMIT, by Content-Length and while streaming', async () => {
    const csv = bigCsv();
    expect(csv.length).toBeGreaterThan(64 * 1024);
    const declared = await small.request('POST', '/v1/codes/bulk', {
      key: smallKey,
      rawBody: csv,
      headers: { 'content-type': 'text/csv' },
    });
    expect(declared.status).toBe(413);
    expect(declared.body.detail).toBe('The request body is larger than the limit of 65536 bytes.');

    // Chunked, without Content-Length: the limit is enforced on the bytes as they arrive.
    const bytes = new TextEncoder().encode(csv);
    const stream = new ReadableStream<Uint8Array>({
      start(controller) {
        for (let i = 0; i < bytes.length; i += 8192) controller.enqueue(bytes.subarray(i, i + 8192));
        controller.close();
      },
    });
    const chunked = await fetch(`${small.url}/v1/codes/bulk`, {
      method: 'POST',
      headers: { authorization: `Bearer ${smallKey}`, 'content-type': 'text/csv' },
      body: stream,
      duplex: 'half',
    } as RequestInit);
    expect(chunked.status).toBe(413);
    expect((await chunked.json()).detail).toMatch(/limit of 65536 bytes/);

    const fits = await small.request('POST', '/v1/codes/bulk', {
      key: smallKey,
      rawBody: csv.slice(0, csv.indexOf('\n', 60_000)),
      headers: { 'content-type': 'text/csv' },
    });
    expect(fits.status, fits.text.slice(0, 300)).toBe(201);
  });
});
