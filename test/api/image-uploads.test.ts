// Uploaded images over real HTTP: each accepted format is stored re-encoded as a PNG without the
// file's metadata; a file too big, with too many pixels, not an image, or an SVG that scripts or
// reads a local file is a 4xx problem that stores nothing; another workspace can neither read,
// list, delete nor use an image; a code with an uploaded logo renders and decodes; an image in
// use is not deleted; a business card's photo shows on its page (from our origin) and rides in
// its vCard, which parses back.
import { decode as decodePng } from 'fast-png';
import ICAL from 'ical.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decodeQr } from '../../src/modules/images/decode.ts';
import { svgToRgba } from '../../src/modules/images/raster.ts';
import { MAX_UPLOAD_BYTES } from '../../src/modules/images/upload-decode.ts';
import { CARD } from '../fixtures/pages/pages.ts';
import { getTestApp, type TestApp } from '../support/app.ts';
import { formWithFile, jpegOf, pngOf, svgOf, uploadImage, webpOf } from '../support/upload-fixtures.ts';

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

let app: TestApp;
let key: string;
let otherKey: string;

beforeAll(async () => {
  app = await getTestApp();
  key = await app.newAccountKey('uploads');
  otherKey = await app.newAccountKey('uploads-other');
});
afterAll(() => app.close());

async function content(id: string, k = key) {
  const res = await fetch(`${app.url}/v1/images/${id}/content`, { headers: { authorization: `Bearer ${k}` } });
  return { status: res.status, type: res.headers.get('content-type'), bytes: Buffer.from(await res.arrayBuffer()) };
}

async function upload(bytes: Uint8Array, name?: string, k = key) {
  const res = await uploadImage(app, k, bytes, name);
  expect(res.status, res.text).toBe(201);
  return res.body;
}

const listed = async (k = key) =>
  (await app.request('GET', '/v1/images?limit=100', { key: k })).body.data as { id: string }[];

describe('uploading', () => {
  it.each([
    ['PNG', () => pngOf(48, { Comment: 'secret metadata' }), 'image/png', 48],
    ['JPEG', () => jpegOf(48), 'image/jpeg', 48],
    ['WebP', () => webpOf(30, 20), 'image/webp', 30],
    ['SVG', () => svgOf(), 'image/svg+xml', 1024],
  ])('accepts %s and stores it re-encoded as a PNG', async (_, make, sourceType, width) => {
    const image = await upload(make(), 'logo.bin');
    expect(image).toMatchObject({ object: 'image', content_type: 'image/png', source_type: sourceType, width });
    expect(image.name).toBe('logo.bin');
    const stored = await content(image.id);
    expect(stored.status).toBe(200);
    expect(stored.type).toBe('image/png');
    expect(stored.bytes.subarray(0, 8)).toEqual(PNG_SIGNATURE);
    const decoded = decodePng(stored.bytes);
    expect([decoded.width, decoded.height]).toEqual([image.width, image.height]);
    expect(decoded.text).toEqual({}); // the file's tEXt chunk did not survive
    expect(stored.bytes.length).toBe(image.bytes);
    expect((await app.request('GET', `/v1/images/${image.id}`, { key })).body).toEqual(image);
  });

  it('scales a large image down to 1024 px a side', async () => {
    const image = await upload(webpOf(3000, 1500));
    expect([image.width, image.height]).toEqual([1024, 512]);
  });

  it.each([
    ['a file over the byte limit', Buffer.alloc(MAX_UPLOAD_BYTES + 1, 1), 413, /larger than/],
    ['too many pixels (from the header alone)', webpOf(5000, 5000), 422, /5000x5000 pixels/],
    ['a file that is not an image', Buffer.from('just some text'), 422, /not a PNG, JPEG, WebP or SVG/],
    ['a PNG cut short', pngOf(48).subarray(0, 60), 422, /could not be decoded/],
    ['an SVG with a script', svgOf('<script>alert(1)</script><rect width="9" height="9"/>'), 422, /script/],
    ['an SVG with an event handler', svgOf('<rect width="9" height="9" onload="alert(1)"/>'), 422, /event handler/],
    [
      'an SVG that reads a local file',
      svgOf('<image href="/etc/hostname" width="9" height="9"/>'),
      422,
      /another file/,
    ],
    [
      'an SVG with entities',
      Buffer.from('<!DOCTYPE svg [<!ENTITY a "b">]><svg xmlns="http://www.w3.org/2000/svg"/>'),
      422,
      /document type/,
    ],
  ])('refuses %s with a problem and stores nothing', async (_, bytes, status, detail) => {
    const before = (await listed()).length;
    const res = await uploadImage(app, key, bytes);
    expect(res.status, res.text).toBe(status);
    expect(res.headers.get('content-type')).toContain('application/problem+json');
    expect(res.text).toMatch(detail);
    expect((await listed()).length).toBe(before);
  });

  it('refuses a body that is not a form, a form without the file field, and two files', async () => {
    const json = await app.request('POST', '/v1/images', { key, body: { file: 'x' } });
    expect(json.status).toBe(415);
    const wrongField = await app.request('POST', '/v1/images', { key, ...formWithFile(pngOf(), 'a.png', 'image') });
    expect(wrongField.status).toBe(422);
    expect(wrongField.body.errors[0].path).toBe('file');
  });

  it('needs codes:write to upload and codes:read to read', async () => {
    const reader = await app.newAccountKey('uploads-reader', { scopes: ['codes:read'] });
    expect((await uploadImage(app, reader, pngOf())).status).toBe(403);
    expect((await app.request('GET', '/v1/images', { key: reader })).status).toBe(200);
    const writer = await app.newAccountKey('uploads-writer', { scopes: ['codes:write'] });
    expect((await app.request('GET', '/v1/images', { key: writer })).status).toBe(403);
  });

  it('lists newest first, a page at a time', async () => {
    const k = await app.newAccountKey('uploads-pages');
    const first = await upload(pngOf(), 'a.png', k);
    const second = await upload(pngOf(), 'b.png', k);
    const page1 = await app.request('GET', '/v1/images?limit=1', { key: k });
    expect(page1.body.data.map((i: { id: string }) => i.id)).toEqual([second.id]);
    const page2 = await app.request('GET', `/v1/images?limit=1&cursor=${page1.body.next_cursor}`, { key: k });
    expect(page2.body.data.map((i: { id: string }) => i.id)).toEqual([first.id]);
    expect(page2.body.next_cursor).toBeNull();
  });
});

describe('another workspace', () => {
  it('cannot read, list, delete or use an image', async () => {
    const image = await upload(pngOf());
    expect((await app.request('GET', `/v1/images/${image.id}`, { key: otherKey })).status).toBe(404);
    expect((await content(image.id, otherKey)).status).toBe(404);
    expect((await listed(otherKey)).map((i) => i.id)).not.toContain(image.id);
    expect((await app.request('DELETE', `/v1/images/${image.id}`, { key: otherKey })).status).toBe(404);
    const logo = await app.request('POST', '/v1/codes', {
      key: otherKey,
      body: { content: 'https://example.com', design: { logo_image_id: image.id } },
    });
    expect(logo.status).toBe(422);
    expect(logo.body.errors).toEqual([{ path: 'design.logo_image_id', message: 'is not an image of this workspace' }]);
    const photo = await app.request('POST', '/v1/codes', {
      key: otherKey,
      body: { content: 'https://example.com', page: { ...CARD, photo_image_id: image.id } },
    });
    expect(photo.status).toBe(422);
    expect(photo.body.errors[0].path).toBe('page.photo_image_id');
    expect((await app.request('GET', `/v1/images/${image.id}`, { key })).status).toBe(200);
  });
});

describe('an uploaded logo', () => {
  it('is drawn on the code, which still decodes; a URL and an upload together are refused', async () => {
    const image = await upload(svgOf());
    const res = await app.request('POST', '/v1/codes', {
      key,
      body: { content: 'https://example.com/logo', design: { style: 'branded', logo_image_id: image.id } },
    });
    expect(res.status, res.text).toBe(201);
    expect(res.body.design).toMatchObject({ logo_image_id: image.id, logo_url: null, error_correction: 'H' });
    const svg = await (
      await fetch(`${app.url}/v1/codes/${res.body.id}/image`, { headers: { authorization: `Bearer ${key}` } })
    ).text();
    expect(svg).toContain('data:image/png;base64,');
    expect(decodeQr(svgToRgba(svg, 700))).toBe(res.body.scan_url);

    const both = await app.request('POST', '/v1/codes', {
      key,
      body: {
        content: 'https://example.com',
        design: { logo_url: 'https://example.com/l.png', logo_image_id: image.id },
      },
    });
    expect(both.status).toBe(422);
    expect(both.body.errors[0].path).toBe('design.logo_image_id');
    const low = await app.request('POST', '/v1/codes', {
      key,
      body: { content: 'https://example.com', design: { logo_image_id: image.id, error_correction: 'L' } },
    });
    expect(low.status).toBe(422);

    // In use: not deleted; once the code lets go of it, it is.
    const refused = await app.request('DELETE', `/v1/images/${image.id}`, { key });
    expect(refused.status).toBe(409);
    const patched = await app.request('PATCH', `/v1/codes/${res.body.id}`, {
      key,
      body: { design: { logo_image_id: null } },
    });
    expect(patched.status, patched.text).toBe(200);
    expect(patched.body.design.logo_image_id).toBeNull();
    expect((await app.request('DELETE', `/v1/images/${image.id}`, { key })).status).toBe(204);
    expect((await app.request('GET', `/v1/images/${image.id}`, { key })).status).toBe(404);
  });
});

describe("a business card's photo", () => {
  it('shows on the page from our own origin and rides in the vCard, which parses back', async () => {
    const image = await upload(jpegOf(400));
    const res = await app.request('POST', '/v1/codes', {
      key,
      body: { content: 'https://example.com', page: { ...CARD, photo_image_id: image.id } },
    });
    expect(res.status, res.text).toBe(201);
    expect(res.body.page.photo_image_id).toBe(image.id);
    const slug = new URL(res.body.scan_url).pathname;

    const page = await fetch(res.body.scan_url);
    const html = await page.text();
    expect(html).toContain(`<img class="photo" src="${slug}/photo.png" alt="Photo of Ada Lovelace"`);
    const csp = page.headers.get('content-security-policy')!;
    expect(csp).toContain("img-src 'self'");
    expect(csp).toContain("default-src 'none'");
    expect(csp).not.toMatch(/https?:/);

    const photo = await fetch(`${res.body.scan_url}/photo.png`);
    expect(photo.status).toBe(200);
    expect(photo.headers.get('content-type')).toBe('image/png');
    const photoPng = decodePng(new Uint8Array(await photo.arrayBuffer()));
    expect([photoPng.width, photoPng.height]).toEqual([256, 256]);

    const vcard = await (await fetch(`${res.body.scan_url}/contact.vcf`)).text();
    const card = new ICAL.Component(ICAL.parse(vcard) as unknown[]);
    expect(card.getFirstPropertyValue('fn')).toBe('Ada Lovelace');
    const value = String(card.getFirstPropertyValue('photo'));
    expect(value).toMatch(/^data:image\/png;base64,/);
    const embedded = decodePng(Buffer.from(value.slice('data:image/png;base64,'.length), 'base64'));
    expect([embedded.width, embedded.height]).toEqual([256, 256]);

    expect((await app.request('DELETE', `/v1/images/${image.id}`, { key })).status).toBe(409);
    // A card without a photo has no photo file.
    const plain = await app.request('POST', '/v1/codes', { key, body: { content: 'https://example.com', page: CARD } });
    expect((await fetch(`${plain.body.scan_url}/photo.png`)).status).toBe(404);
  });
});
