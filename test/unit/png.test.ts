// The PNG encoder must change bytes, never pixels: every PNG is decoded with an independent
// decoder (fast-png) and compared with the RGBA resvg rendered, and rendered codes must still
// read back and come out much smaller than resvg's own RGBA PNGs.
import { Resvg } from '@resvg/resvg-js';
import { convertIndexedToRgb, decode } from 'fast-png';
import { describe, expect, it } from 'vitest';
import { decodeQr } from '../../src/modules/images/decode.ts';
import type { RenderDesign, RenderLogo } from '../../src/modules/images/design.ts';
import { encodeOpaquePng, type RgbaImage } from '../../src/modules/images/png.ts';
import { svgToPng, svgToRgba } from '../../src/modules/images/raster.ts';
import { hasOnlyStraightEdges, renderSvg } from '../../src/modules/images/render.ts';
import { renderDesign } from '../support/designs.ts';

const SIZE = 512;
const TEXT = 'http://localhost:3000/AbC1234';
const INDEXED = 3;
const TRUECOLOR = 2;

/** The PNG's pixels as opaque RGBA, whatever color type it was written with. */
function pixelsOf(png: Uint8Array): {
  data: Uint8ClampedArray;
  width: number;
  height: number;
  colorType: number;
  depth: number;
} {
  const decoded = decode(png);
  const rgb = decoded.palette ? convertIndexedToRgb(decoded) : decoded.data;
  const channels = decoded.palette ? decoded.palette[0]!.length : decoded.channels;
  expect(channels).toBe(3);
  const data = new Uint8ClampedArray(decoded.width * decoded.height * 4);
  for (let p = 0; p < decoded.width * decoded.height; p++) {
    data.set(rgb.subarray(p * 3, p * 3 + 3), p * 4);
    data[p * 4 + 3] = 255;
  }
  // IHDR's color type, as written: the decoder reports channels, not the type.
  return { data, width: decoded.width, height: decoded.height, colorType: png[25]!, depth: decoded.depth };
}

/** An opaque image whose pixels cycle through `colors` distinct colors. */
function image(colors: number, width = 13, height = 3): RgbaImage {
  const data = new Uint8ClampedArray(width * height * 4);
  for (let p = 0; p < width * height; p++) data.set([(p % colors) & 255, (p % colors) >> 8, 40, 255], p * 4);
  return { data, width, height };
}

/** How many bytes differ: toEqual on megabyte arrays is slow and reports poorly. */
const differing = (a: Uint8ClampedArray, b: Uint8ClampedArray) => a.filter((value, i) => value !== b[i]).length;

describe('encodeOpaquePng', () => {
  // 13 px wide, so packed rows end part-way through a byte.
  for (const [colors, depth] of [
    [1, 1],
    [2, 1],
    [3, 2],
    [4, 2],
    [5, 4],
    [16, 4],
    [17, 8],
    [256, 8],
  ] as const) {
    it(`writes ${colors} color${colors > 1 ? 's' : ''} as a ${depth}-bit palette, pixel for pixel`, () => {
      const source = image(colors);
      const decoded = pixelsOf(encodeOpaquePng(source, 'compact')!);
      expect(decoded).toMatchObject({ colorType: INDEXED, depth, width: 13, height: 3 });
      expect(decoded.data).toEqual(source.data);
    });
  }

  it('writes more than 256 colors as 8-bit RGB without alpha', () => {
    const source = image(300, 40, 10);
    const decoded = pixelsOf(encodeOpaquePng(source, 'fast')!);
    expect(decoded).toMatchObject({ colorType: TRUECOLOR, depth: 8 });
    expect(decoded.data).toEqual(source.data);
  });

  it('leaves images with a translucent pixel to resvg', () => {
    const source = image(2);
    source.data[7] = 254;
    expect(encodeOpaquePng(source, 'compact')).toBeNull();
  });
});

/** Branded, with rounded eyes in black, unless told otherwise. */
const design = (overrides: Partial<RenderDesign> = {}) =>
  renderDesign({ style: 'branded', eyeStyle: 'rounded', eyeColor: '#000000', ...overrides });

// Drawn with shapes only, like the bench's: three colors and their anti-aliased edges.
const LOGO: RenderLogo = {
  dataUri: `data:image/png;base64,${new Resvg(
    '<svg xmlns="http://www.w3.org/2000/svg" width="64" height="64">' +
      '<rect width="64" height="64" rx="12" fill="#1d4ed8"/><circle cx="32" cy="32" r="18" fill="#fff"/>' +
      '<path d="M24 24h16v16h-16z" fill="#f59e0b"/></svg>',
  )
    .render()
    .asPng()
    .toString('base64')}`,
  width: 64,
  height: 64,
};

const gradient = { type: 'linear', from: '#1d4ed8', to: '#9333ea', angle: 45 } as const;
const square = design({ style: 'square', eyeStyle: 'square' });
/**
 * How much smaller than resvg's own PNG ours comes out is measured by bench:render (PNG bytes columns); here it must
 * only be smaller.
 */
const CASES: { name: string; design: RenderDesign; logo?: RenderLogo; colorType: number }[] = [
  { name: 'square', design: square, colorType: INDEXED },
  { name: 'square with a gradient', design: { ...square, gradient, eyeColor: gradient.from }, colorType: INDEXED },
  { name: 'dots', design: design({ style: 'dots' }), colorType: INDEXED },
  { name: 'rounded', design: design({ style: 'rounded' }), colorType: INDEXED },
  { name: 'branded', design: design(), colorType: INDEXED },
  { name: 'branded with a logo', design: design({ errorCorrection: 'H' }), logo: LOGO, colorType: INDEXED },
  { name: 'branded with a banner', design: design({ frame: 'banner', frameText: 'Scan me' }), colorType: INDEXED },
  {
    name: 'dots with a gradient',
    design: design({ style: 'dots', gradient, eyeColor: gradient.from }),
    colorType: TRUECOLOR,
  },
];

describe('svgToPng of a rendered code', () => {
  for (const c of CASES) {
    it(`${c.name}: resvg's pixels in a smaller PNG than resvg's, and it reads back`, () => {
      const svg = renderSvg(TEXT, c.design, c.logo ?? null, SIZE);
      // As the images service rasterises.
      const crispEdges = hasOnlyStraightEdges(c.design);
      const ours = svgToPng(svg, SIZE, { crispEdges });
      const resvgPng = new Resvg(svg, { fitTo: { mode: 'width', value: SIZE }, font: { loadSystemFonts: false } })
        .render()
        .asPng();

      const decoded = pixelsOf(ours);
      expect(decoded.colorType).toBe(c.colorType);
      const rendered = svgToRgba(svg, SIZE, { crispEdges });
      expect(decoded.width).toBe(rendered.width);
      expect(decoded.height).toBe(rendered.height);
      expect(differing(decoded.data, rendered.data)).toBe(0);
      expect(ours.length).toBeLessThan(resvgPng.length);
      expect(decodeQr(decoded)).toBe(TEXT);
    });
  }

  it('spends less deflate effort for one-off images, with the same pixels', () => {
    const svg = renderSvg(TEXT, design(), null, SIZE);
    const fast = svgToPng(svg, SIZE, { effort: 'fast' });
    expect(fast.length).toBeGreaterThanOrEqual(svgToPng(svg, SIZE, { effort: 'compact' }).length);
    expect(differing(pixelsOf(fast).data, svgToRgba(svg, SIZE).data)).toBe(0);
  });
});

describe('crisp edges for designs of straight edges only', () => {
  it('applies to square modules with square eyes and no caption', () => {
    expect(hasOnlyStraightEdges(square)).toBe(true);
    expect(hasOnlyStraightEdges({ ...square, frame: 'banner', frameText: '  ' })).toBe(true);
    expect(hasOnlyStraightEdges({ ...square, eyeStyle: 'rounded' })).toBe(false);
    expect(hasOnlyStraightEdges({ ...square, frame: 'banner', frameText: 'Scan me' })).toBe(false);
    expect(hasOnlyStraightEdges(design({ style: 'dots', eyeStyle: 'square' }))).toBe(false);
  });

  // At its own width an SVG's module edges all fall on pixel edges (render.ts), so this draws a
  // 512 px SVG 500 px wide: 15.15 px a module, most edges mid-pixel.
  const WIDTH = 500;
  for (const palette of [
    { fgColor: '#000000', bgColor: '#ffffff' },
    { fgColor: '#ffffff', bgColor: '#1a1a2e' },
  ]) {
    it(
      `changes only the anti-aliased edge pixels, each to one of the two colors (${palette.fgColor} on ` +
        `${palette.bgColor})`,
      () => {
        const svg = renderSvg(TEXT, { ...square, ...palette, eyeColor: palette.fgColor }, null, SIZE);
        const smooth = svgToRgba(svg, WIDTH);
        const crisp = svgToRgba(svg, WIDTH, { crispEdges: true });
        const colorAt = (data: Uint8ClampedArray, p: number) =>
          `#${Buffer.from(data.subarray(p * 4, p * 4 + 3)).toString('hex')}`;
        const twoColors = new Set([palette.fgColor, palette.bgColor]);
        let changed = 0;
        let wrong = 0;
        for (let p = 0; p < WIDTH * WIDTH; p++) {
          const before = colorAt(smooth.data, p);
          const after = colorAt(crisp.data, p);
          if (!twoColors.has(after)) wrong++;
          if (before === after) continue;
          changed++;
          // A pixel that was all module or all background stays as it was.
          if (twoColors.has(before)) wrong++;
        }
        expect(wrong).toBe(0);
        expect(changed).toBeGreaterThan(0);
        expect(pixelsOf(svgToPng(svg, WIDTH, { crispEdges: true })).depth).toBe(1);
        expect(decodeQr(crisp)).toBe(TEXT);
      },
    );
  }
});
