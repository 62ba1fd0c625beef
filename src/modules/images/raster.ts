// Rasterises the renderer's SVG with resvg. System fonts stay unloaded: the SVG carries its text
// as paths, so scanning the machine's fonts would only cost start-up time and risk differences.
import { Resvg, type RenderedImage } from '@resvg/resvg-js';
import { encodeOpaquePng, type PngEffort } from './png.ts';

export interface RasterOptions {
  /**
   * Snap shape edges to whole pixels instead of anti-aliasing them: only for designs that
   * `hasOnlyStraightEdges` (render.ts), where it changes nothing but the edge pixels' shades.
   */
  crispEdges?: boolean;
}

// resvg's shape-rendering values: 1 = crispEdges, 2 = geometricPrecision (its default).
function rasterise(svg: string, widthPx: number, { crispEdges = false }: RasterOptions) {
  return new Resvg(svg, {
    fitTo: { mode: 'width', value: widthPx },
    font: { loadSystemFonts: false },
    shapeRendering: crispEdges ? 1 : 2,
  }).render();
}

function rgbaOf(image: RenderedImage): { data: Uint8ClampedArray; width: number; height: number } {
  const pixels = image.pixels;
  return {
    data: new Uint8ClampedArray(pixels.buffer, pixels.byteOffset, pixels.byteLength),
    width: image.width,
    height: image.height,
  };
}

/**
 * The SVG as a PNG `widthPx` wide; the height follows the SVG's aspect ratio. The pixels are
 * resvg's, re-encoded smaller (png.ts). A code is always opaque (its background is painted
 * first); resvg's own RGBA encoding remains for SVGs with translucent pixels.
 */
export function svgToPng(
  svg: string,
  widthPx: number,
  { effort = 'compact', ...options }: RasterOptions & { effort?: PngEffort } = {},
): Buffer {
  return svgToPngAndPixels(svg, widthPx, { effort, ...options }).png;
}

/** svgToPng's PNG and the pixels it was made of (e.g. to see whether anything was drawn at all). */
export function svgToPngAndPixels(
  svg: string,
  widthPx: number,
  { effort = 'compact', ...options }: RasterOptions & { effort?: PngEffort } = {},
): { png: Buffer; pixels: { data: Uint8ClampedArray; width: number; height: number } } {
  const image = rasterise(svg, widthPx, options);
  const pixels = rgbaOf(image);
  return { png: encodeOpaquePng(pixels, effort) ?? image.asPng(), pixels };
}

/** The SVG as raw RGBA pixels (row-major, 4 bytes per pixel), e.g. for decoding it back. */
export function svgToRgba(
  svg: string,
  widthPx: number,
  options: RasterOptions = {},
): { data: Uint8ClampedArray; width: number; height: number } {
  return rgbaOf(rasterise(svg, widthPx, options));
}
