// GET /v1/codes/:id/image over HTTP, decoded by jsQR, and by zbar where the size is the point
// (PDFs rasterised by poppler); logos fetched from a loopback server; static content types
// encoded directly.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decodeQr } from '../../src/modules/images/decode.ts';
import { svgToPng, svgToRgba } from '../../src/modules/images/raster.ts';
import { MIN_PIXELS_PER_MODULE } from '../../src/modules/images/scannable-size.ts';
import { getTestApp, type TestApp } from '../support/app.ts';
import { rasterisePdf, requireDecoderTools, scratchDir, zbarRead } from '../support/decoders.ts';
import { createCode } from '../support/factories.ts';
import { getTestAppWithLogos, type LogoServer, WEBP_LOGO_RGB } from '../support/logo-server.ts';

let app: TestApp;
let key: string;
let logos: LogoServer;
let close: () => Promise<void>;
let files: Awaited<ReturnType<typeof scratchDir>>;

beforeAll(async () => {
  await requireDecoderTools();
  ({ app, key, logos, close } = await getTestAppWithLogos());
  files = await scratchDir();
});
afterAll(async () => {
  await close();
  await files.remove();
});

/** What zbar reads in one image file's bytes. */
async function zbar(name: string, bytes: Uint8Array, expected: string): Promise<string | null> {
  return (await zbarRead([await files.write(name, bytes)], expected))[0]!;
}

async function fetchImage(id: string, query = '', headers: Record<string, string> = {}) {
  const response = await fetch(`${app.url}/v1/codes/${id}/image${query}`, {
    headers: { authorization: `Bearer ${key}`, ...headers },
  });
  return { status: response.status, headers: response.headers, bytes: Buffer.from(await response.arrayBuffer()) };
}

/** A square PNG's RGBA pixels, read by resvg (the rasterizer the service uses) from an SVG around it. */
function pngPixels(png: Buffer, width: number) {
  const svg =
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${width}"><image ` +
    `href="data:image/png;base64,${png.toString('base64')}" width="${width}" height="${width}"/></svg>`;
  return svgToRgba(svg, width);
}

const decodePng = (png: Buffer, width: number): string | null => decodeQr(pngPixels(png, width));

describe('formats', () => {
  it('serves SVG by default that decodes to the scan URL', async () => {
    const code = await createCode(app, key, { design: { style: 'branded', fg_color: '#1d4ed8' } });
    const res = await fetchImage(code.id);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('image/svg+xml');
    const svg = res.bytes.toString('utf8');
    expect(svg).toMatch(/^<svg[^>]+width="512"/);
    expect(decodeQr(svgToRgba(svg, 600))).toBe(code.scan_url);
  });

  it('serves PNG at the asked size that decodes to the scan URL', async () => {
    const code = await createCode(app, key, { design: { style: 'dots' } });
    const res = await fetchImage(code.id, '?format=png&size=300');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('image/png');
    expect(res.bytes.subarray(1, 4).toString()).toBe('PNG');
    expect(res.bytes.readUInt32BE(16)).toBe(300); // IHDR width
    expect(decodePng(res.bytes, 300)).toBe(code.scan_url);
  });

  it('serves a vector PDF of the asked size that poppler rasterises and zbar reads', async () => {
    const code = await createCode(app, key);
    const res = await fetchImage(code.id, '?format=pdf&size=256');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/pdf');
    expect(res.bytes.subarray(0, 5).toString()).toBe('%PDF-');
    expect(res.bytes.toString('latin1')).toContain('/MediaBox [0 0 256 256]');
    const pdf = await files.write(`${code.id}.pdf`, res.bytes);
    // 72 dpi: one pixel per point, the size asked; 300 dpi: as printed.
    for (const dpi of [72, 300])
      expect((await zbarRead([await rasterisePdf(pdf, dpi)], code.scan_url))[0], `${dpi} dpi`).toBe(code.scan_url);
  });

  it('honours margin and validates the query', async () => {
    const code = await createCode(app, key);
    const narrow = (await fetchImage(code.id, '?margin=2')).bytes.toString();
    const wide = (await fetchImage(code.id, '?margin=10')).bytes.toString();
    expect(narrow).not.toBe(wide);
    for (const [query, path] of [
      ['?size=10', 'size'],
      ['?size=5000', 'size'],
      ['?size=big', 'size'],
      ['?format=gif', 'format'],
      ['?margin=1', 'margin'],
      ['?color=red', 'color'],
    ]) {
      const res = await app.request('GET', `/v1/codes/${code.id}/image${query}`, { key });
      expect(res.status, query).toBe(422);
      expect(res.body.errors[0].path).toBe(path);
    }
  });

  it("answers 404 for unknown codes and for another account's code", async () => {
    const code = await createCode(app, key);
    expect((await app.request('GET', '/v1/codes/qr_missing/image', { key })).status).toBe(404);
    expect((await app.request('GET', `/v1/codes/${code.id}/image`, { key })).status).toBe(200);
    const other = await app.newAccountKey();
    expect((await app.request('GET', `/v1/codes/${code.id}/image`, { key: other })).status).toBe(404);
    await app.request('DELETE', `/v1/codes/${code.id}`, { key });
    expect((await app.request('GET', `/v1/codes/${code.id}/image`, { key })).status).toBe(404);
  });
});

describe('sizes too small to scan', () => {
  // The example: 290 characters of text in dots, 77 modules across with the quiet zone.
  const text = 'Lorem ipsum dolor sit amet, consectetur adipiscing elit. '.repeat(6).slice(0, 290);
  const smallest = MIN_PIXELS_PER_MODULE * 77;

  it('are rounded up to the smallest size that scans, said in Image-Width, in every format', async () => {
    const code = await createCode(app, key, { type: 'text', content: { text }, design: { style: 'dots' } });
    for (const size of [64, 128, 200]) {
      const png = await fetchImage(code.id, `?format=png&size=${size}`);
      expect(png.status).toBe(200);
      expect(png.headers.get('image-width'), `size=${size}`).toBe(String(smallest));
      expect(png.bytes.readUInt32BE(16)).toBe(smallest); // IHDR width
      expect(await zbar(`small-${size}.png`, png.bytes, text), `size=${size}`).toBe(text);
    }
    const svg = await fetchImage(code.id, '?format=svg&size=64');
    expect(svg.headers.get('image-width')).toBe(String(smallest));
    expect(svg.bytes.toString()).toMatch(new RegExp(`^<svg[^>]+width="${smallest}"`));
    const pdf = await fetchImage(code.id, '?format=pdf&size=64');
    expect(pdf.headers.get('image-width')).toBe(String(smallest));
    expect(pdf.bytes.toString('latin1')).toContain(`/MediaBox [0 0 ${smallest} ${smallest}]`);
    expect((await zbarRead([await rasterisePdf(await files.write('small.pdf', pdf.bytes))], text))[0]).toBe(text);
    // A 304 says it too, and a size that scans is served as asked.
    const again = await fetchImage(code.id, '?format=png&size=64', {
      'if-none-match': (await fetchImage(code.id, '?format=png&size=64')).headers.get('etag')!,
    });
    expect([again.status, again.headers.get('image-width')]).toEqual([304, String(smallest)]);
    expect((await fetchImage(code.id, `?format=png&size=${smallest + 1}`)).headers.get('image-width')).toBe(
      String(smallest + 1),
    );
  });

  it('follow the quiet zone the query asks for', async () => {
    const code = await createCode(app, key, { type: 'text', content: { text }, design: { style: 'dots' } });
    const res = await fetchImage(code.id, '?format=png&size=64&margin=16');
    expect(res.headers.get('image-width')).toBe(String(MIN_PIXELS_PER_MODULE * (69 + 32)));
  });

  it('are rounded up the same way by GraphQL Code.svg', async () => {
    const code = await createCode(app, key, { type: 'text', content: { text }, design: { style: 'dots' } });
    const res = await app.graphql(key, 'query($id: ID!) { code(id: $id) { svg(size: 64) } }', { id: code.id });
    expect(res.body.errors).toBeUndefined();
    const svg: string = res.body.data.code.svg;
    expect(svg).toMatch(new RegExp(`^<svg[^>]+width="${smallest}"`));
    expect(await zbar('graphql.png', svgToPng(svg, smallest), text)).toBe(text);
  });
});

describe('caching', () => {
  it('sends an ETag, answers 304 to If-None-Match, and changes the tag with the design', async () => {
    const code = await createCode(app, key);
    const first = await fetchImage(code.id, '?format=png');
    const etag = first.headers.get('etag')!;
    expect(etag).toMatch(/^"[\w-]+"$/);
    const again = await fetchImage(code.id, '?format=png', { 'if-none-match': etag });
    expect(again.status).toBe(304);
    expect(again.bytes.length).toBe(0);
    expect((await fetchImage(code.id, '?format=svg')).headers.get('etag')).not.toBe(etag);
    await app.request('PATCH', `/v1/codes/${code.id}`, { key, body: { design: { fg_color: '#7c2d12' } } });
    const changed = await fetchImage(code.id, '?format=png', { 'if-none-match': etag });
    expect(changed.status).toBe(200);
    expect(changed.headers.get('etag')).not.toBe(etag);
  });
});

describe('logos', () => {
  it('fetches the logo once at write time, embeds it, and the code still decodes', async () => {
    const before = logos.requests();
    const code = await createCode(app, key, { design: { style: 'branded', logo_url: logos.url() } });
    expect(code.design.error_correction).toBe('H');
    expect(logos.requests()).toBe(before + 1);
    const svg = (await fetchImage(code.id)).bytes.toString();
    expect(svg).toContain('data:image/png;base64,');
    expect(decodeQr(svgToRgba(svg, 700))).toBe(code.scan_url);
    await fetchImage(code.id, '?format=png');
    expect(logos.requests()).toBe(before + 1); // rendering never fetches
  });

  it('draws a WebP logo (kept as the PNG of its pixels) in the PNG render, and the code still decodes', async () => {
    const code = await createCode(app, key, { design: { style: 'branded', logo_url: logos.url('/logo.webp') } });
    expect((await fetchImage(code.id)).bytes.toString()).toContain('data:image/png;base64,');
    const png = (await fetchImage(code.id, '?format=png&size=600')).bytes;
    const { data } = pngPixels(png, 600);
    const centre = (300 * 600 + 300) * 4;
    expect([...data.subarray(centre, centre + 3)]).toEqual([...WEBP_LOGO_RGB]);
    expect(decodePng(png, 600)).toBe(code.scan_url);
  });

  it('refuses a logo that is not an image, or missing, with a 422 that says why', async () => {
    const html = await app.request('POST', '/v1/codes', {
      key,
      body: { content: 'https://example.com', design: { logo_url: logos.url('/page.html') } },
    });
    expect(html.status).toBe(422);
    expect(html.body.errors[0]).toMatchObject({
      path: 'design.logo_url',
      message: expect.stringMatching(/not a PNG, JPEG, GIF or WebP/),
    });
    const missing = await app.request('POST', '/v1/codes', {
      key,
      body: { content: 'https://example.com', design: { logo_url: logos.url('/nope.png') } },
    });
    expect(missing.body.errors[0].message).toMatch(/answered 404/);
  });

  it('refuses loopback logo URLs without ALLOW_PRIVATE_NETWORK_TARGETS, without connecting', async () => {
    const strict = await getTestApp();
    try {
      const strictKey = await strict.newAccountKey();
      const before = logos.requests();
      const res = await strict.request('POST', '/v1/codes', {
        key: strictKey,
        body: { content: 'https://example.com', design: { logo_url: logos.url() } },
      });
      expect(res.status).toBe(422);
      expect(res.body.errors[0]).toMatchObject({
        path: 'design.logo_url',
        message: expect.stringMatching(/private|loopback|not allowed|forbidden/i),
      });
      expect(logos.requests()).toBe(before);
    } finally {
      await strict.close();
    }
  });
});

describe('scannability and static types', () => {
  it('runs the decode check on write: a design that cannot be read is refused', async () => {
    const payload = 'https://qr.example/AbC1234';
    const design = {
      fg_color: '#ffffff',
      bg_color: '#ffffff',
      style: 'square',
      logo_url: null,
      logo_image_id: null,
      error_correction: 'M',
      eye_style: 'square',
      eye_color: '#ffffff',
      gradient: null,
      frame: 'none',
      frame_text: null,
      margin: 4,
      allow_light_on_dark: false,
    } as const;
    await expect(app.services.images.verify('acct_check', payload, design, null)).rejects.toThrow(
      /does not scan: the contrast/,
    );
    await expect(
      app.services.images.verify('acct_check', payload, { ...design, fg_color: '#000000', eye_color: '#000000' }, null),
    ).resolves.toBeUndefined();
  });

  it('checks many codes once per design and QR version, naming the first that does not scan', async () => {
    const black = {
      fg_color: '#000000',
      bg_color: '#ffffff',
      style: 'dots',
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
    } as const;
    const white = { ...black, fg_color: '#ffffff', eye_color: '#ffffff' } as const;
    // Payloads of 1 to 180 characters: QR versions 1 to 9.
    const items = Array.from({ length: 120 }, (_, i) => {
      const design = i === 57 || i === 90 ? white : black;
      return {
        payload: `Lot ${i}: ${'x'.repeat((i * 3) % 180)}`,
        designKey: JSON.stringify(design),
        design,
        logo: null,
      };
    });
    await expect(
      app.services.images.verifyAll(
        'acct_check',
        items.filter((_, i) => i !== 57 && i !== 90),
      ),
    ).resolves.toBeUndefined();
    const refused = await app.services.images.verifyAll('acct_check', items).catch((err) => err);
    expect(refused.fieldErrors).toEqual([
      { path: '57.design', message: expect.stringMatching(/^does not scan: the contrast/) },
    ]);
  });

  // [type, content sent, content stored, payload]
  const statics: [string, unknown, unknown, string][] = [
    ['text', { text: 'Hello, Welt ☕' }, { text: 'Hello, Welt ☕' }, 'Hello, Welt ☕'],
    [
      'email',
      { to: 'hi@example.com', subject: 'Hello there' },
      { to: 'hi@example.com', subject: 'Hello there' },
      'mailto:hi@example.com?subject=Hello%20there',
    ],
    ['phone', { number: '+49 30 123456' }, { number: '+4930123456' }, 'tel:+4930123456'],
    ['sms', { number: '+4930123456', body: 'Hi' }, { number: '+4930123456', body: 'Hi' }, 'SMSTO:+4930123456:Hi'],
    [
      'wifi',
      { ssid: 'Café;Guest', password: 'p@ss:w,rd!' },
      { ssid: 'Café;Guest', password: 'p@ss:w,rd!', encryption: 'WPA' },
      'WIFI:T:WPA;S:Café\\;Guest;P:p@ss\\:w\\,rd!;;',
    ],
    [
      'geo',
      { latitude: 52.520008, longitude: 13.404954 },
      { latitude: 52.520008, longitude: 13.404954 },
      'geo:52.520008,13.404954',
    ],
  ];

  it.each(statics)(
    '%s codes encode their payload directly and have no scan URL',
    async (type, content, stored, payload) => {
      const code = await createCode(app, key, { type, content, design: { style: 'rounded' } });
      expect(code).toMatchObject({
        type,
        content: stored,
        payload,
        scan_url: null,
        routing: { enabled: false, rules: [] },
      });
      const svg = (await fetchImage(code.id)).bytes.toString();
      expect(decodeQr(svgToRgba(svg, 600))).toBe(payload);
    },
  );

  it('decodes a vCard with characters that need escaping', async () => {
    const code = await createCode(app, key, {
      type: 'vcard',
      content: { first_name: 'Zoë', last_name: 'Müller; Jr.', organization: 'Acme, Inc.', emails: ['zoe@example.com'] },
    });
    expect(code.payload).toContain('N:Müller\\; Jr.;Zoë;;;');
    expect(code.payload).toContain('ORG:Acme\\, Inc.');
    expect(decodeQr(svgToRgba((await fetchImage(code.id)).bytes.toString(), 700))).toBe(code.payload);
  });

  it('says routing and destinations apply to url codes only', async () => {
    const code = await createCode(app, key, { type: 'text', content: { text: 'static' } });
    const patch = await app.request('PATCH', `/v1/codes/${code.id}`, {
      key,
      body: { destination: 'https://example.com' },
    });
    expect(patch.status).toBe(422);
    expect(patch.body.errors[0]).toMatchObject({
      path: 'destination',
      message: expect.stringMatching(/url codes only/),
    });
    const rules = await app.request('GET', `/v1/codes/${code.id}/routing`, { key });
    expect(rules.status).toBe(422);
    expect(rules.body.errors[0].message).toMatch(/url codes only/);
    const content = await app.request('PATCH', `/v1/codes/${code.id}`, { key, body: { content: { text: 'changed' } } });
    expect(content.body.payload).toBe('changed');
    const bad = await app.request('PATCH', `/v1/codes/${code.id}`, { key, body: { content: { text: '' } } });
    expect(bad.status).toBe(422);
    expect(bad.body.errors[0].path).toBe('content.text');
  });

  it('refuses content too long for the chosen error correction level', async () => {
    const res = await app.request('POST', '/v1/codes', {
      key,
      body: { type: 'text', content: { text: 'x'.repeat(1900) }, design: { error_correction: 'H' } },
    });
    expect(res.status).toBe(422);
    expect(res.body.errors[0]).toMatchObject({
      path: 'content',
      message: expect.stringMatching(/too long .* error_correction H/),
    });
  });
});
