// Rasterises the renderer's SVG with resvg. System fonts stay unloaded: the SVG carries its text
// as paths, so scanning the machine's fonts would only cost start-up time and risk differences.
import { Resvg } from '@resvg/resvg-js';

function rasterise(svg: string, widthPx: number) {
  return new Resvg(svg, { fitTo: { mode: 'width', value: widthPx }, font: { loadSystemFonts: false } }).render();
}

/** The SVG as a PNG `widthPx` wide; the height follows the SVG's aspect ratio. */
export function svgToPng(svg: string, widthPx: number): Buffer {
  return rasterise(svg, widthPx).asPng();
}

/** The SVG as raw RGBA pixels (row-major, 4 bytes per pixel), e.g. for decoding it back. */
export function svgToRgba(svg: string, widthPx: number): { data: Uint8ClampedArray; width: number; height: number } {
  const image = rasterise(svg, widthPx);
  const pixels = image.pixels;
  return {
    data: new Uint8ClampedArray(pixels.buffer, pixels.byteOffset, pixels.byteLength),
    width: image.width,
    height: image.height,
  };
}
