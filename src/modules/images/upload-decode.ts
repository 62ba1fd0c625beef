// An uploaded file made into the PNG we keep: its type sniffed from its bytes (never from its
// name or declared type), its pixel size read from the header and checked before anything is
// decoded, then drawn by resvg (an SVG as it is, a raster image embedded in a small SVG) at
// most MAX_STORED_SIDE a side, and encoded again from the pixels alone: no metadata of the file
// (EXIF, text chunks, colour profiles) survives.
import { Resvg } from '@resvg/resvg-js';
import { sniffImage } from './image-sniff.ts';
import { svgToPngAndPixels } from './raster.ts';
import { looksLikeSvg, svgProblem } from './svg-upload.ts';
import { webpToPng } from './webp-decode.ts';

/** Largest upload accepted, in bytes (checked while the body streams). */
export const MAX_UPLOAD_BYTES = 5 * 1024 * 1024;
/** Most pixels (width x height) a raster upload may declare: decoding it takes 4 bytes each. */
export const MAX_UPLOAD_PIXELS = 4096 * 4096;
/** Longest side of the stored PNG: plenty for a logo's plate or a contact photo. */
export const MAX_STORED_SIDE = 1024;

export type UploadSourceType = 'image/png' | 'image/jpeg' | 'image/webp' | 'image/svg+xml';

export interface NormalisedUpload {
  sourceType: UploadSourceType;
  png: Buffer;
  width: number;
  height: number;
}

/** A file that is not an image we accept; `reason` says why, for the caller. */
export class UploadRefused extends Error {
  constructor(readonly reason: string) {
    super(reason);
    this.name = 'UploadRefused';
  }
}

const ACCEPTED = 'a PNG, JPEG, WebP or SVG image';

/** The stored size: the image's own, scaled down to fit MAX_STORED_SIDE (SVGs: scaled to it). */
function storedWidth(width: number, height: number, vector: boolean): number {
  const scale = vector
    ? MAX_STORED_SIDE / Math.max(width, height)
    : Math.min(1, MAX_STORED_SIDE / Math.max(width, height));
  return Math.max(1, Math.round(width * scale));
}

/** A raster image as resvg takes it: embedded in an SVG of its own pixel size. */
export const embeddedRasterSvg = (mime: string, bytes: Uint8Array, width: number, height: number) =>
  `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}">` +
  `<image href="data:${mime};base64,${Buffer.from(bytes).toString('base64')}" width="${width}" height="${height}" ` +
  'preserveAspectRatio="none"/></svg>';

async function rasterSource(
  bytes: Buffer,
): Promise<{ sourceType: UploadSourceType; svg: string; width: number; height: number } | null> {
  const sniffed = sniffImage(bytes);
  if (!sniffed || sniffed.contentType === 'image/gif') return null;
  const { contentType, width, height } = sniffed;
  if (width === 0 || height === 0) throw new UploadRefused('the image is 0 pixels wide or high');
  if (width * height > MAX_UPLOAD_PIXELS)
    throw new UploadRefused(
      `the image is ${width}x${height} pixels; at most ${MAX_UPLOAD_PIXELS.toLocaleString('en')} pixels ` +
        '(e.g. 4096x4096) are accepted',
    );
  if (contentType !== 'image/webp')
    return { sourceType: contentType, svg: embeddedRasterSvg(contentType, bytes, width, height), width, height };
  const decoded = await webpToPng(bytes);
  if (!decoded || decoded.width !== width || decoded.height !== height)
    throw new UploadRefused('the WebP image could not be decoded');
  return { sourceType: 'image/webp', svg: embeddedRasterSvg('image/png', decoded.png, width, height), width, height };
}

function vectorSource(
  bytes: Buffer,
): { sourceType: UploadSourceType; svg: string; width: number; height: number } | null {
  const text = bytes.toString('utf8');
  if (!looksLikeSvg(text)) return null;
  const problem = svgProblem(text);
  if (problem) throw new UploadRefused(problem);
  let size: { width: number; height: number };
  try {
    const parsed = new Resvg(text, { font: { loadSystemFonts: false } });
    size = { width: parsed.width, height: parsed.height };
  } catch {
    throw new UploadRefused('the SVG could not be read');
  }
  if (!(size.width > 0 && size.height > 0)) throw new UploadRefused('the SVG has no size (width, height or viewBox)');
  return { sourceType: 'image/svg+xml', svg: text, ...size };
}

/**
 * The upload as the PNG we store. Throws UploadRefused for an empty file, anything that is not
 * a PNG, JPEG, WebP or SVG image, a raster image over MAX_UPLOAD_PIXELS, an SVG that scripts or
 * refers outside itself, and an image that cannot be decoded or draws nothing visible.
 */
export async function normaliseUpload(bytes: Buffer): Promise<NormalisedUpload> {
  if (bytes.length === 0) throw new UploadRefused('the file is empty');
  const source = (await rasterSource(bytes)) ?? vectorSource(bytes);
  if (!source) throw new UploadRefused(`the file is not ${ACCEPTED}`);
  const width = storedWidth(source.width, source.height, source.sourceType === 'image/svg+xml');
  const { png, pixels } = svgToPngAndPixels(source.svg, width);
  // resvg leaves an image it cannot decode blank; a file that draws nothing is no logo either.
  if (!hasVisiblePixel(pixels.data)) throw new UploadRefused('the image could not be decoded, or shows nothing');
  return { sourceType: source.sourceType, png, width: pixels.width, height: pixels.height };
}

function hasVisiblePixel(rgba: Uint8ClampedArray): boolean {
  for (let i = 3; i < rgba.length; i += 4) if (rgba[i] !== 0) return true;
  return false;
}
