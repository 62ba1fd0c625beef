// Small images made in code for upload tests (no binary fixtures): PNG (fast-png), JPEG (jpeg-js),
// a lossless WebP written bit by bit (one colour: every prefix code is a one-symbol "simple"
// code, so the pixels take no bits and any size costs a few bytes), SVG text; and a
// multipart/form-data body to send one of them in.
import { encode as encodePng } from 'fast-png';
import jpeg from 'jpeg-js';
import type { TestApp } from './app.ts';

type Rgba = [number, number, number, number];

/** w x h pixels drawn by `colour(x, y)`. */
function pixels(width: number, height: number, colour: (x: number, y: number) => Rgba): Uint8Array {
  const data = new Uint8Array(width * height * 4);
  for (let y = 0; y < height; y++) for (let x = 0; x < width; x++) data.set(colour(x, y), (y * width + x) * 4);
  return data;
}

/** A dark square with a light centre: a logo that shows on the renderer's plate. */
const logoColour =
  (size: number) =>
  (x: number, y: number): Rgba =>
    Math.abs(x - size / 2) < size / 4 && Math.abs(y - size / 2) < size / 4 ? [250, 250, 250, 255] : [180, 20, 60, 255];

export function pngOf(size = 48, text?: Record<string, string>): Buffer {
  return Buffer.from(
    encodePng({ data: pixels(size, size, logoColour(size)), width: size, height: size, channels: 4, text }),
  );
}

export function jpegOf(size = 48): Buffer {
  return jpeg.encode({ data: Buffer.from(pixels(size, size, logoColour(size))), width: size, height: size }, 90).data;
}

const u32le = (n: number) => {
  const b = Buffer.alloc(4);
  b.writeUInt32LE(n);
  return b;
};

/** A lossless WebP (VP8L) of one colour. Its header may claim any size up to 16384 a side. */
export function webpOf(width: number, height: number, [r, g, b, a]: Rgba = [20, 160, 90, 255]): Buffer {
  const bits: number[] = [];
  const put = (value: number, count: number) => {
    for (let i = 0; i < count; i++) bits.push((value >> i) & 1);
  };
  put(0x2f, 8); // signature
  put(width - 1, 14);
  put(height - 1, 14);
  put(a === 255 ? 0 : 1, 1); // alpha used
  put(0, 3); // version
  put(0, 1); // no transform
  put(0, 1); // no colour cache
  put(0, 1); // no meta prefix codes
  // Green (with lengths), red, blue, alpha, distance: each a simple code of one 8-bit symbol.
  for (const symbol of [g, r, b, a, 0]) {
    put(1, 1);
    put(0, 1);
    put(1, 1);
    put(symbol, 8);
  }
  while (bits.length % 8) bits.push(0);
  const payload = Buffer.from(
    Array.from({ length: bits.length / 8 }, (_, i) =>
      bits.slice(i * 8, i * 8 + 8).reduce((v, bit, k) => v | (bit << k), 0),
    ),
  );
  const chunk = Buffer.concat([Buffer.from('VP8L'), u32le(payload.length), payload, Buffer.alloc(payload.length % 2)]);
  return Buffer.concat([Buffer.from('RIFF'), u32le(4 + chunk.length), Buffer.from('WEBP'), chunk]);
}

export function svgOf(inside = '<rect width="40" height="40" rx="8" fill="#1a4fd6"/>'): Buffer {
  return Buffer.from(
    `<?xml version="1.0"?>\n<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 40 40">${inside}</svg>`,
  );
}

/** A multipart/form-data body with one file part. */
export function formWithFile(
  bytes: Uint8Array,
  fileName = 'logo.png',
  field = 'file',
  type = 'application/octet-stream',
) {
  const boundary = `----upload${Math.random().toString(16).slice(2)}`;
  const body = Buffer.concat([
    Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="${field}"; filename="${fileName}"\r\n` +
        `Content-Type: ${type}\r\n\r\n`,
    ),
    bytes,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  return { rawBody: body, headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}

/** POST /v1/images with one file. */
export const uploadImage = (app: TestApp, key: string | undefined, bytes: Uint8Array, fileName = 'logo.png') =>
  app.request('POST', '/v1/images', { key, ...formWithFile(bytes, fileName) });
