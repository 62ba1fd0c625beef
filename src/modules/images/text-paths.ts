// Text as vector outlines. Frame captions are drawn as glyph paths rather than <text> so a code
// looks the same (and is byte-identical) on every machine, whatever fonts it has installed, and
// so rasterising and PDF export never need a font of their own.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { create, type Font } from 'fontkit';

const FONT_MODULE = '@fontsource/inter/files/inter-latin-600-normal.woff';

let font: Font | null = null;

// Loaded on first use: most processes (redirects, API) never draw a caption.
function interSemiBold(): Font {
  if (!font) {
    const loaded = create(readFileSync(createRequire(import.meta.url).resolve(FONT_MODULE)));
    if (!('unitsPerEm' in loaded)) throw new Error(`${FONT_MODULE} is a font collection, expected a single font`);
    font = loaded;
  }
  return font;
}

/** Two decimals: a hundredth of a unit is invisible at any font size callers use. */
function num(value: number): string {
  const rounded = Math.round(value * 100) / 100;
  return Object.is(rounded, -0) ? '0' : String(rounded);
}

/**
 * Lays out one line of Inter SemiBold (with kerning) and returns its outline as SVG path data.
 * The path sits in a box `width` × `height` whose top is the cap height and whose bottom is the
 * baseline, so centring that box centres the text optically; descenders hang below `height`.
 * Characters outside the Latin subset come out as the font's .notdef glyph.
 */
export function textToPath(text: string, fontSize: number): { d: string; width: number; height: number } {
  const inter = interSemiBold();
  const scale = fontSize / inter.unitsPerEm;
  const capHeight = inter.capHeight;
  const run = inter.layout(text);
  const parts: string[] = [];
  let penX = 0;
  run.glyphs.forEach((glyph, i) => {
    const position = run.positions[i];
    const originX = penX + (position?.xOffset ?? 0);
    const originY = position?.yOffset ?? 0;
    // Font units are y-up from the baseline; SVG is y-down from the cap height.
    const point = (x: number, y: number) => `${num((originX + x) * scale)} ${num((capHeight - originY - y) * scale)}`;
    for (const { command, args } of glyph.path.commands) {
      const [a = 0, b = 0, c = 0, d = 0, e = 0, f = 0] = args;
      if (command === 'moveTo') parts.push(`M${point(a, b)}`);
      else if (command === 'lineTo') parts.push(`L${point(a, b)}`);
      else if (command === 'quadraticCurveTo') parts.push(`Q${point(a, b)} ${point(c, d)}`);
      else if (command === 'bezierCurveTo') parts.push(`C${point(a, b)} ${point(c, d)} ${point(e, f)}`);
      else parts.push('Z');
    }
    penX += position?.xAdvance ?? glyph.advanceWidth;
  });
  return { d: parts.join(''), width: penX * scale, height: capHeight * scale };
}
