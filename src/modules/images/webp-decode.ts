// WebP pixels, for uploads and fetched logos: resvg draws PNG, JPEG and GIF but not WebP (tried:
// a WebP <image> is left blank). @jsquash/webp is libwebp's decoder built to WebAssembly (Apache-2.0, about 1 MB,
// nothing downloaded at install): the decoder runs in the wasm sandbox, not as native code.
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { encode } from 'fast-png';

type Decode = (buffer: ArrayBuffer) => Promise<{ data: Uint8ClampedArray; width: number; height: number }>;

let decoder: Promise<Decode> | null = null;

/** Compiles the wasm module on first use (about 10 ms), not at start-up: most servers never see a WebP. */
function load(): Promise<Decode> {
  decoder ??= (async () => {
    // The Emscripten glue builds its result with ImageData, a browser class Node lacks.
    (globalThis as { ImageData?: unknown }).ImageData ??= class ImageData {
      constructor(
        readonly data: Uint8ClampedArray,
        readonly width: number,
        readonly height: number,
      ) {}
    };
    const require = createRequire(import.meta.url);
    const wasm = await WebAssembly.compile(await readFile(require.resolve('@jsquash/webp/codec/dec/webp_dec.wasm')));
    const { init, default: decode } = await import('@jsquash/webp/decode.js');
    await init(wasm);
    return decode as Decode;
  })();
  return decoder;
}

/** The WebP's RGBA pixels (not premultiplied), or null when libwebp cannot decode it. */
export async function decodeWebp(
  bytes: Buffer,
): Promise<{ data: Uint8ClampedArray; width: number; height: number } | null> {
  const decode = await load();
  try {
    return await decode(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer);
  } catch {
    return null;
  }
}

/** The WebP as a PNG of its pixels (which resvg draws), or null when libwebp cannot decode it. */
export async function webpToPng(bytes: Buffer): Promise<{ png: Buffer; width: number; height: number } | null> {
  const pixels = await decodeWebp(bytes);
  if (!pixels) return null;
  const { data, width, height } = pixels;
  return { png: Buffer.from(encode({ data, width, height, channels: 4 })), width, height };
}
