// The two in-process decoders beside zbar (decoders.ts): zxing-cpp, as zxing-wasm builds it (the
// reader of most Android scanning apps and browsers' BarcodeDetector polyfills), and jsQR, the
// service's own check. Both read the PNG file as it is, so a served PNG and a PDF rasterised by
// poppler are judged on the same bytes zbar reads.
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { convertIndexedToRgb, decode } from 'fast-png';
import { prepareZXingModule, readBarcodes } from 'zxing-wasm/reader';
import { decodeQr } from '../../src/modules/images/decode.ts';

const require = createRequire(import.meta.url);

let zxing: Promise<unknown> | undefined;

/**
 * Loads zxing-wasm's reader from node_modules: by default it fetches its .wasm from a CDN, and
 * the tests reach nothing but loopback. With `wasmBinary` given, Emscripten fetches nothing.
 */
function zxingReady(): Promise<unknown> {
  zxing ??= readFile(require.resolve('zxing-wasm/reader/zxing_reader.wasm')).then((wasm) =>
    prepareZXingModule({
      overrides: { wasmBinary: wasm.buffer.slice(wasm.byteOffset, wasm.byteOffset + wasm.byteLength) as ArrayBuffer },
      fireImmediately: true,
    }),
  );
  return zxing;
}

/** What zxing-cpp reads in a PNG or JPEG: the first QR code's text, or null when it finds none. */
export async function zxingRead(image: Uint8Array): Promise<string | null> {
  await zxingReady();
  const [first] = await readBarcodes(image, { formats: ['QRCode'], maxNumberOfSymbols: 1 });
  return first?.isValid ? first.text : null;
}

/** A PNG's pixels as RGBA, whatever its color type (indexed as the service writes it, RGB as poppler does). */
function rgbaOf(png: Uint8Array): { data: Uint8ClampedArray; width: number; height: number } {
  const decoded = decode(png);
  if (decoded.depth !== 8 && !decoded.palette) throw new Error(`a ${decoded.depth}-bit PNG is not expected here`);
  const samples = decoded.palette ? convertIndexedToRgb(decoded) : decoded.data;
  const channels = decoded.palette ? decoded.palette[0]!.length : decoded.channels;
  const pixels = decoded.width * decoded.height;
  const data = new Uint8ClampedArray(pixels * 4);
  // Gray (1 or 2 channels) spreads over R, G and B; a missing alpha is opaque.
  const [g, b] = channels < 3 ? [0, 0] : [1, 2];
  const alpha = channels === 2 || channels === 4 ? channels - 1 : -1;
  for (let p = 0, at = 0; p < pixels; p++, at += channels) {
    data[p * 4] = samples[at]!;
    data[p * 4 + 1] = samples[at + g]!;
    data[p * 4 + 2] = samples[at + b]!;
    data[p * 4 + 3] = alpha < 0 ? 255 : samples[at + alpha]!;
  }
  return { data, width: decoded.width, height: decoded.height };
}

/** What jsQR reads in a PNG, as the service's own check reads pixels (decode.ts). */
export const jsqrRead = (png: Uint8Array): string | null => decodeQr(rgbaOf(png));
