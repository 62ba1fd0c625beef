// Every design the renderer can draw must still scan: each combination is rendered, rasterised
// and decoded back with jsQR. 600 px is plenty for a decoder and keeps the file fast.
import QRCode from 'qrcode';
import { describe, expect, it } from 'vitest';
import { decodeQr } from '../../src/modules/images/decode.ts';
import type {
  ErrorCorrectionLevel,
  EyeStyle,
  ModuleStyle,
  RenderDesign,
  RenderLogo,
} from '../../src/modules/images/design.ts';
import { svgToPdf } from '../../src/modules/images/pdf.ts';
import { svgToPng, svgToRgba } from '../../src/modules/images/raster.ts';
import { hasOnlyStraightEdges, logoAreaFraction, renderSvg } from '../../src/modules/images/render.ts';
import { renderDesign } from '../support/designs.ts';

const SIZE = 600;
const TEXT = 'https://qr.example/AbC1234';
const STYLES: ModuleStyle[] = ['square', 'dots', 'rounded', 'branded'];
const LEVELS: ErrorCorrectionLevel[] = ['L', 'M', 'Q', 'H'];
const EYES: EyeStyle[] = ['square', 'rounded', 'circle'];
const PALETTES = [
  { name: 'dark on light', fg: '#000000', bg: '#ffffff' },
  { name: 'light on dark', fg: '#ffffff', bg: '#1a1a2e' },
];

function pngLogo(svg: string): RenderLogo {
  return { dataUri: `data:image/png;base64,${svgToPng(svg, 96).toString('base64')}`, width: 96, height: 96 };
}

// A coloured disc with a light diamond: busy enough to confuse a decoder if it bled into modules.
const LOGO = pngLogo(
  '<svg xmlns="http://www.w3.org/2000/svg" width="96" height="96"><circle cx="48" cy="48" r="46" ' +
    'fill="#e11d48"/><path d="M48 18 72 48 48 78 24 48z" fill="#fde68a"/></svg>',
);
// Fully transparent, so whatever shows through the logo's box is what the renderer drew there.
const CLEAR_LOGO = pngLogo('<svg xmlns="http://www.w3.org/2000/svg" width="96" height="96"/>');

function decodes(text: string, d: RenderDesign, logo: RenderLogo | null = null): string | null {
  const svg = renderSvg(text, d, logo, SIZE);
  expect(svg).not.toContain('<text');
  // Rasterised as the images service does (square designs with crisp edges).
  return decodeQr(svgToRgba(svg, SIZE, { crispEdges: hasOnlyStraightEdges(d) }));
}

describe('renderSvg decodes', () => {
  for (const style of STYLES) {
    for (const level of LEVELS) {
      for (const palette of PALETTES) {
        const withLogo = level === 'Q' || level === 'H' ? [false, true] : [false];
        for (const logo of withLogo) {
          it(`${style}, level ${level}, ${palette.name}${logo ? ', with logo' : ''}`, () => {
            const d = renderDesign({ style, errorCorrection: level, fgColor: palette.fg, bgColor: palette.bg });
            expect(decodes(TEXT, d, logo ? LOGO : null)).toBe(TEXT);
          });
        }
      }
    }
  }

  for (const eyeStyle of EYES) {
    it(`eye style ${eyeStyle} (branded, H, logo)`, () => {
      expect(decodes(TEXT, renderDesign({ style: 'branded', eyeStyle, errorCorrection: 'H' }), LOGO)).toBe(TEXT);
    });
  }

  for (const type of ['linear', 'radial'] as const) {
    for (const style of ['square', 'branded'] as const) {
      it(`${type} gradient, ${style}`, () => {
        const gradient = { type, from: '#1d4ed8', to: '#7c3aed', angle: 45 };
        const d = renderDesign({ style, gradient, eyeColor: '#1d4ed8', errorCorrection: 'Q' });
        expect(decodes(TEXT, d, LOGO)).toBe(TEXT);
      });
    }
  }

  it('with a banner frame', () => {
    const d = renderDesign({
      style: 'branded',
      eyeStyle: 'rounded',
      frame: 'banner',
      frameText: 'Scan me',
      errorCorrection: 'H',
    });
    expect(decodes(TEXT, d, LOGO)).toBe(TEXT);
  });

  for (const margin of [2, 8]) {
    it(`with a margin of ${margin}`, () => {
      expect(decodes(TEXT, renderDesign({ style: 'rounded', margin }))).toBe(TEXT);
    });
  }

  it('a ~300 character URL at H with a logo', () => {
    const text = `https://qr.example/landing?campaign=spring-sale&${'x'.repeat(240)}&end=1`;
    expect(text.length).toBeGreaterThan(290);
    expect(decodes(text, renderDesign({ style: 'branded', eyeStyle: 'rounded', errorCorrection: 'H' }), LOGO)).toBe(
      text,
    );
  });
});

describe('renderSvg output', () => {
  it('is deterministic', () => {
    const d = renderDesign({
      style: 'branded',
      eyeStyle: 'circle',
      gradient: { type: 'linear', from: '#1d4ed8', to: '#7c3aed', angle: 30 },
      frame: 'banner',
      frameText: 'Scan me',
      errorCorrection: 'H',
    });
    expect(renderSvg(TEXT, d, LOGO, 512)).toBe(renderSvg(TEXT, d, LOGO, 512));
  });

  it('is square without a frame and taller with a banner, at the requested width', () => {
    const plain = svgToRgba(renderSvg(TEXT, renderDesign(), null, SIZE), SIZE);
    expect([plain.width, plain.height]).toEqual([SIZE, SIZE]);
    const svg = renderSvg(TEXT, renderDesign({ frame: 'banner', frameText: 'Scan me' }), null, SIZE);
    expect(svg).toMatch(new RegExp(`^<svg [^>]*width="${SIZE}"`));
    const framed = svgToRgba(svg, SIZE);
    expect(framed.width).toBe(SIZE);
    expect(framed.height).toBeGreaterThan(SIZE);
  });

  it('draws each module a whole number of pixels wide, the pixels left over widening the quiet zone', () => {
    // 33 modules across (25 and a quiet zone of 4): 200 px is 6 px a module and 2 spare pixels.
    const d = renderDesign();
    const svg = renderSvg(TEXT, d, null, 200);
    expect(svg).toMatch(/^<svg [^>]*width="200" height="200"/);
    // Anti-aliased, not snapped by crispEdges: only a module edge off the pixel grid makes gray.
    const image = svgToRgba(svg, 200);
    const shades = new Set<number>();
    for (let i = 0; i < image.data.length; i += 4) shades.add(image.data[i]!);
    expect([...shades].sort((a, b) => a - b)).toEqual([0, 255]);
    // The symbol starts one spare pixel plus 4 modules of 6 px in: the top-left eye's first pixel.
    const at = (x: number, y: number) => image.data[(y * 200 + x) * 4];
    expect([at(24, 25), at(25, 25), at(25, 24)]).toEqual([255, 0, 255]);
    // Below one pixel per module there is nothing to snap to: the old fractional scale.
    expect(renderSvg(TEXT, d, null, 20)).toMatch(/^<svg [^>]*width="20" height="20" viewBox="0 0 33 33"/);
  });

  it('decodes at widths from 2 to 6 pixels per module (a 290-character text, 77 modules across)', () => {
    // Every 5th width: before widths were snapped to whole pixels per module, jsQR missed this
    // code at 9 of these 62 widths (159, 164, 179, 199, 204, 214, 234, 269 and 279 px).
    const text = 'Lorem ipsum dolor sit amet, consectetur adipiscing elit. '.repeat(6).slice(0, 290);
    const d = renderDesign({ style: 'dots' });
    const side = QRCode.create(text, { errorCorrectionLevel: 'M' }).modules.size + 2 * d.margin;
    expect(side).toBe(77);
    const missed = [];
    for (let width = 2 * side; width <= 6 * side; width += 5) {
      if (decodeQr(svgToRgba(renderSvg(text, d, null, width), width)) !== text) missed.push(width);
    }
    expect(missed).toEqual([]);
  });

  it('draws the banner caption as paths, not text', () => {
    const svg = renderSvg(TEXT, renderDesign({ frame: 'banner', frameText: 'Scan me' }), null, SIZE);
    expect(svg).not.toContain('<text');
    expect(svg).not.toContain('Scan me');
  });

  it('leaves the modules under the logo undrawn, within the level allowance', () => {
    for (const style of STYLES) {
      const d = renderDesign({ style, errorCorrection: 'H' });
      const svg = renderSvg(TEXT, d, CLEAR_LOGO, SIZE);
      const box = imageBox(svg);
      const size = QRCode.create(TEXT, { errorCorrectionLevel: 'H' }).modules.size;
      expect(box.w * box.h).toBeLessThanOrEqual(logoAreaFraction('H') * size * size);
      // The logo is see-through, so its box shows only what was drawn under it: nothing.
      expect(darkPixels(svgToRgba(svg, SIZE), box, svg), style).toBe(0);
      const plain = renderSvg(TEXT, d, null, SIZE);
      expect(darkPixels(svgToRgba(plain, SIZE), box, plain)).toBeGreaterThan(0);
    }
  });

  it('escapes the logo URI in its attribute', () => {
    const svg = renderSvg(
      TEXT,
      renderDesign({ errorCorrection: 'H' }),
      { dataUri: 'data:x"/><script>&', width: 1, height: 1 },
      SIZE,
    );
    expect(svg).toContain('href="data:x&quot;/&gt;&lt;script&gt;&amp;"');
    expect(svg).not.toContain('<script');
  });

  it('allows logos only as much area as each level can recover', () => {
    expect(logoAreaFraction('H')).toBeGreaterThan(logoAreaFraction('Q'));
    expect(logoAreaFraction('Q')).toBeGreaterThan(logoAreaFraction('M'));
    expect(logoAreaFraction('H')).toBeLessThan(0.3);
  });
});

describe('svgToPdf', () => {
  it('writes one vector page, the same bytes every time', async () => {
    const svg = renderSvg(
      TEXT,
      renderDesign({ style: 'branded', eyeStyle: 'rounded', frame: 'banner', frameText: 'Scan me' }),
      null,
      SIZE,
    );
    const pdf = await svgToPdf(svg, 200, 250);
    expect(Buffer.isBuffer(pdf)).toBe(true);
    expect(pdf.subarray(0, 5).toString('latin1')).toBe('%PDF-');
    expect(pdf.toString('latin1')).toContain('/MediaBox [0 0 200 250]');
    expect(pdf.toString('latin1')).not.toContain('/Subtype /Image');
    expect((await svgToPdf(svg, 200, 250)).equals(pdf)).toBe(true);
  });

  it('embeds the logo as an image', async () => {
    const pdf = await svgToPdf(renderSvg(TEXT, renderDesign({ errorCorrection: 'H' }), LOGO, SIZE), 200, 200);
    expect(pdf.toString('latin1')).toContain('/Subtype /Image');
  });
});

/** The logo's <image> box, in viewBox (module) units. */
function imageBox(svg: string): { x: number; y: number; w: number; h: number } {
  const tag = /<image [^>]*>/.exec(svg)?.[0] ?? '';
  const value = (name: string) => Number(new RegExp(` ${name}="([^"]+)"`).exec(tag)?.[1]);
  return { x: value('x'), y: value('y'), w: value('width'), h: value('height') };
}

/** Dark pixels inside `box` (viewBox units) of `image`, the raster of `svg` at its own width. */
function darkPixels(
  image: { data: Uint8ClampedArray; width: number },
  box: { x: number; y: number; w: number; h: number },
  svg: string,
): number {
  const [originX, originY, viewWidth] = (/viewBox="([^"]+)"/.exec(svg)?.[1] ?? '').split(' ').map(Number) as [
    number,
    number,
    number,
  ];
  const scale = image.width / viewWidth;
  const left = (box.x - originX) * scale;
  const top = (box.y - originY) * scale;
  let dark = 0;
  // Half a pixel in from the edges so anti-aliasing of neighbouring modules does not count.
  for (let y = Math.ceil(top + 0.5); y < Math.floor(top + box.h * scale - 0.5); y++) {
    for (let x = Math.ceil(left + 0.5); x < Math.floor(left + box.w * scale - 0.5); x++) {
      if ((image.data[(y * image.width + x) * 4] ?? 255) < 128) dark++;
    }
  }
  return dark;
}
