// The CPU-heavy part of images, as plain functions of plain data: drawing the SVG, rasterising
// it (PNG, or pixels to decode), the PDF, and the scannability check. They run on the render
// worker threads (render-worker.ts), never on the thread that answers scans and API calls.
import type { QRCodeErrorCorrectionLevel, QRCodeMaskPattern } from 'qrcode';
import { decodeQr } from './decode.ts';
import type { RenderDesign, RenderLogo } from './design.ts';
import { svgToPdf } from './pdf.ts';
import type { PngEffort } from './png.ts';
import { svgToPng, svgToRgba } from './raster.ts';
import { drawSvg, encodeSymbol, hasOnlyStraightEdges, renderSvg, sideInModules } from './render.ts';
import { scannableWidth } from './scannable-size.ts';
import { encodeQr } from './symbol.ts';

export type ImageFormat = 'svg' | 'png' | 'pdf';

export interface ImageTask {
  kind: 'image';
  payload: string;
  design: RenderDesign;
  logo: RenderLogo | null;
  format: ImageFormat;
  size: number;
  effort: PngEffort;
}

export interface CheckTask {
  kind: 'check';
  payload: string;
  design: RenderDesign;
  logo: RenderLogo | null;
  /** Checks the code drawn with this mask instead of the one qrcode would pick. */
  maskPattern?: QRCodeMaskPattern;
}

/** The QR version of each payload at one error-correction level (0: too long for any version). */
export interface VersionsTask {
  kind: 'versions';
  payloads: string[];
  errorCorrection: QRCodeErrorCorrectionLevel;
}

export type RenderTask = ImageTask | CheckTask | VersionsTask;

/** Whether a design reads back: `too_big` when the payload does not fit a version-40 code. */
export type CheckResult = 'scans' | 'does_not_scan' | 'too_big';

/** Width and height attributes of the rendered SVG's root element. */
function svgSize(svg: string): { width: number; height: number } {
  const root = /<svg\b[^>]*>/.exec(svg)?.[0] ?? '';
  const attr = (name: string) => Number(new RegExp(`\\b${name}="([\\d.]+)"`).exec(root)?.[1]);
  return { width: attr('width'), height: attr('height') };
}

/** One image's bytes and the width it was drawn at: the asked size, or more when that would not scan. */
export interface ImageBytes {
  bytes: Uint8Array;
  width: number;
}

/** The bytes of one image: SVG first, PNG and PDF are made from it. */
export async function renderImage(task: ImageTask): Promise<ImageBytes> {
  const qr = encodeSymbol(task.payload, task.design);
  const width = scannableWidth(task.size, sideInModules(qr, task.design));
  const svg = drawSvg(qr, task.design, task.logo, width);
  if (task.format === 'svg') return { bytes: Buffer.from(svg), width };
  if (task.format === 'png')
    return {
      bytes: svgToPng(svg, width, { effort: task.effort, crispEdges: hasOnlyStraightEdges(task.design) }),
      width,
    };
  const page = svgSize(svg);
  return { bytes: await svgToPdf(svg, page.width, page.height), width };
}

/** qrcode's error when the payload does not fit in a version-40 code at the chosen level. */
const isTooBig = (err: unknown) => err instanceof Error && /too big/i.test(err.message);

/**
 * Renders the design and decodes it, rasterised as the PNG will be, so what is checked is what
 * is served. About 8 px per module (at least 400 px): enough for the decoder to be fair to dense
 * codes, small enough to stay quick.
 */
export function checkScannable(task: CheckTask): CheckResult {
  let modules: number;
  try {
    modules = encodeSymbol(task.payload, task.design).modules.size;
  } catch (err) {
    if (isTooBig(err)) return 'too_big';
    throw err;
  }
  const width = Math.max(400, (modules + 2 * task.design.margin) * 8);
  const svg = renderSvg(task.payload, task.design, task.logo, width, task.maskPattern);
  const pixels = svgToRgba(svg, width, { crispEdges: hasOnlyStraightEdges(task.design) });
  return decodeQr(pixels) === task.payload ? 'scans' : 'does_not_scan';
}

/**
 * The version each payload's code gets (mask 0 is forced: the mask does not change the version, and choosing one costs
 * most of the time).
 */
export function versionsOf(task: VersionsTask): number[] {
  return task.payloads.map((payload) => {
    try {
      return encodeQr(payload, task.errorCorrection, 0).version;
    } catch (err) {
      if (isTooBig(err)) return 0;
      throw err;
    }
  });
}
