// Draws a QR code as SVG: the single source of truth for every image format (PNG and PDF are
// made from this SVG). Output is a pure function of its inputs, byte for byte, so images can be
// cached by content and checked against golden files.
//
// Everything is laid out in module units (the viewBox), the quiet zone included, so shapes land
// on whole numbers and the pixel size only ever appears in the width and height attributes.
import type { QRCode as QRCodeSymbol, QRCodeMaskPattern } from 'qrcode';
import type { Gradient, ModuleStyle, RenderDesign, RenderLogo } from './design.ts';
import { alignmentPath, alignmentPatterns, finderPath, finderPatterns } from './eyes.ts';
import { logoImageBox, logoPlate } from './logo-plate.ts';
import { attr, circle, num, path, roundedRect, type Box } from './svg-primitives.ts';
import { encodeQr } from './symbol.ts';
import { textToPath } from './text-paths.ts';

export { logoAreaFraction } from './logo-plate.ts';

const GRADIENT_ID = 'qr-grad';
const LOGO_CLIP_ID = 'qr-logo-clip';
/** Dots keep a small gap so neighbours read as separate dots, not a smear. */
const DOT_RADIUS = 0.45;
const TILE_RADIUS = 0.35;
/** Branded modules round only the corners no neighbour touches, so runs merge into one shape. */
const LIQUID_RADIUS = 0.5;
/** Inner corners of branded L-shapes get a small fillet so the shapes flow like one stroke. */
const FILLET_RADIUS = 0.25;
/** The font size for glyph outlines; the banner scales them, so this only sets their precision. */
const TEXT_REFERENCE_SIZE = 100;

/**
 * Renders `text` as a standalone SVG `sizePx` wide. The image is square, or taller when a banner
 * frame is drawn under the code. The mask is the one qrcode picks, unless `maskPattern` (0-7)
 * forces one: bulk checks a design with every mask a code of its version can get.
 */
export function renderSvg(
  text: string,
  design: RenderDesign,
  logo: RenderLogo | null,
  sizePx: number,
  maskPattern?: QRCodeMaskPattern,
): string {
  return drawSvg(encodeSymbol(text, design, maskPattern), design, logo, sizePx);
}

/**
 * The QR symbol of `text` at the design's error-correction level (qrcode's error when it does not fit), with a UTF-8
 * ECI before text that is not ASCII (symbol.ts).
 */
export function encodeSymbol(
  text: string,
  design: Pick<RenderDesign, 'errorCorrection'>,
  maskPattern?: QRCodeMaskPattern,
): QRCodeSymbol {
  return encodeQr(text, design.errorCorrection, maskPattern);
}

/**
 * Modules across the image at its nominal width: the symbol and its quiet zone on both sides.
 * Image sizes are measured in pixels per one of these.
 */
export const sideInModules = (qr: QRCodeSymbol, design: Pick<RenderDesign, 'margin'>): number =>
  qr.modules.size + 2 * design.margin;

/**
 * renderSvg for a symbol already encoded, for callers that need its size first. At its nominal
 * size each module is a whole number of pixels (when there is room for one per module): a module
 * that straddles pixels comes out as an uneven run with gray edges, and decoders miss codes at
 * such fractional scales that they read at the whole scale just below (measured with jsQR and
 * zbar, a 97-module code between 3 and 6 px per module: jsQR missed 14 of 73 sizes, zbar with
 * circle eyes 4, none at whole scales). The pixels left over widen the quiet zone, evenly.
 */
export function drawSvg(qr: QRCodeSymbol, design: RenderDesign, logo: RenderLogo | null, sizePx: number): string {
  const size = qr.modules.size;
  const margin = design.margin;
  const side = size + 2 * margin;

  const plate = logo ? logoPlate(qr, design.errorCorrection, logo) : null;
  const finders = finderPatterns(size);
  // An alignment pattern under the logo is simply lost: decoders locate the code by its finders
  // and the bottom-right alignment pattern, which a centred logo never reaches.
  const alignments = alignmentPatterns(qr.version).filter((box) => !plate || !overlaps(box, plate));

  // Cells drawn by something other than the module style (or by nothing, under the logo).
  const reserved = new Uint8Array(size * size);
  for (const box of [...finders, ...alignments, ...(plate ? [plate] : [])]) {
    for (let row = box.y; row < box.y + box.h; row++) {
      for (let col = box.x; col < box.x + box.w; col++) reserved[row * size + col] = 1;
    }
  }
  const isFree = (row: number, col: number) =>
    row >= 0 && col >= 0 && row < size && col < size && reserved[row * size + col] === 0;
  const isDark = (row: number, col: number) => isFree(row, col) && qr.modules.get(row, col) === 1;

  const banner = bannerText(design);
  const bannerHeight = banner ? Math.max(3, Math.round(side * 0.18)) : 0;
  // The band keeps a full quiet zone above it and as much again below.
  const height = banner ? side + bannerHeight + margin : side;
  // Pixels per module, and the pixels left over (none below one pixel per module).
  const unit = sizePx >= side ? Math.floor(sizePx / side) : sizePx / side;
  const spare = sizePx - side * unit;
  const heightPx = Math.round(height * unit + spare);
  // The view, in modules: the spare pixels go half before the quiet zone (whole pixels) and the
  // rest after it, so module edges stay on pixel edges.
  const lead = Math.floor(spare / 2) / unit;
  const view = { x: -lead, y: -lead, w: sizePx / unit, h: heightPx / unit };
  const viewBox = [view.x, view.y, view.w, view.h].map((n) => num(n, 6)).join(' ');

  const moduleFill = design.gradient ? `url(#${GRADIENT_ID})` : design.fgColor;
  const out: string[] = [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${sizePx}" height="${heightPx}" viewBox="${viewBox}">`,
  ];
  const defs: string[] = [];
  if (design.gradient) defs.push(gradientDef(design.gradient, margin, size));
  const logoBox = logo && plate ? logoImageBox(plate, logo, margin) : null;
  if (logoBox && design.style === 'branded') {
    defs.push(
      `<clipPath id="${LOGO_CLIP_ID}"><rect x="${num(logoBox.x)}" y="${num(logoBox.y)}" width="${num(logoBox.w)}" ` +
        `height="${num(logoBox.h)}" rx="${num(Math.min(logoBox.w, logoBox.h) * 0.2)}"/></clipPath>`,
    );
  }
  if (defs.length > 0) out.push(`<defs>${defs.join('')}</defs>`);

  const origin = lead ? ` x="${num(view.x, 6)}" y="${num(view.y, 6)}"` : '';
  out.push(`<rect${origin} width="${num(view.w, 6)}" height="${num(view.h, 6)}" fill="${attr(design.bgColor)}"/>`);
  out.push(path(modulesPath(design.style, size, margin, isDark, isFree), moduleFill));
  out.push(
    path(alignments.map((box) => alignmentPath(design.style, box.x + margin, box.y + margin)).join(''), moduleFill),
  );
  out.push(
    path(finders.map((box) => finderPath(design.eyeStyle, box.x + margin, box.y + margin)).join(''), design.eyeColor),
  );

  if (logo && logoBox) {
    const clip = design.style === 'branded' ? ` clip-path="url(#${LOGO_CLIP_ID})"` : '';
    out.push(
      `<image href="${attr(logo.dataUri)}" x="${num(logoBox.x)}" y="${num(logoBox.y)}" width="${num(logoBox.w)}" ` +
        `height="${num(logoBox.h)}" preserveAspectRatio="xMidYMid meet"${clip}/>`,
    );
  }

  if (banner) {
    const bandColor = design.gradient ? design.gradient.from : design.fgColor;
    out.push(
      ...bannerElements(
        banner,
        { x: margin, y: side, w: size, h: bannerHeight },
        design.style,
        bandColor,
        design.bgColor,
      ),
    );
  }

  out.push('</svg>');
  // A style can leave a layer empty (no alignment patterns in version 1): drop its blank line.
  return out.filter(Boolean).join('\n') + '\n';
}

/**
 * Whether the design draws only axis-aligned rectangles (square modules and eyes, no caption),
 * so a rasteriser may snap its edges to whole pixels: each edge moves less than a pixel, only
 * the edge pixels' gray shades change (to the color either side), and a plain code keeps
 * exactly its two colors. A logo is a raster image either way.
 */
export function hasOnlyStraightEdges(design: RenderDesign): boolean {
  return design.style === 'square' && design.eyeStyle === 'square' && bannerText(design) === null;
}

/** The banner's caption, or null when no banner is drawn. */
function bannerText(design: RenderDesign): string | null {
  return design.frame === 'banner' && design.frameText?.trim() ? design.frameText.trim() : null;
}

function overlaps(a: Box, b: Box): boolean {
  return a.x < b.x + b.w && b.x < a.x + a.w && a.y < b.y + b.h && b.y < a.y + a.h;
}

function gradientDef(gradient: Gradient, margin: number, size: number): string {
  const stops =
    `<stop offset="0" stop-color="${attr(gradient.from)}"/><stop offset="1" ` + `stop-color="${attr(gradient.to)}"/>`;
  const centre = margin + size / 2;
  if (gradient.type === 'radial') {
    // Reaches `to` at the symbol's corners.
    return (
      `<radialGradient id="${GRADIENT_ID}" gradientUnits="userSpaceOnUse" cx="${num(centre)}" ` +
      `cy="${num(centre)}" r="${num((size / 2) * Math.SQRT2)}">${stops}</radialGradient>`
    );
  }
  const radians = (gradient.angle * Math.PI) / 180;
  const dx = Math.cos(radians);
  const dy = Math.sin(radians);
  // Half the symbol's extent along the direction, so `from` and `to` sit on its opposite corners.
  const reach = (size / 2) * (Math.abs(dx) + Math.abs(dy));
  return (
    `<linearGradient id="${GRADIENT_ID}" gradientUnits="userSpaceOnUse" x1="${num(centre - dx * reach)}" ` +
    `y1="${num(centre - dy * reach)}" ` +
    `x2="${num(centre + dx * reach)}" y2="${num(centre + dy * reach)}">${stops}</linearGradient>`
  );
}

/** Data and timing modules in the chosen style, as one path. */
function modulesPath(
  style: ModuleStyle,
  size: number,
  margin: number,
  isDark: (row: number, col: number) => boolean,
  isFree: (row: number, col: number) => boolean,
): string {
  const parts: string[] = [];
  for (let row = 0; row < size; row++) {
    const y = row + margin;
    if (style === 'square') {
      // Horizontal runs: one subpath per run keeps plain codes small.
      for (let col = 0; col < size; col++) {
        if (!isDark(row, col)) continue;
        let end = col;
        while (isDark(row, end + 1)) end++;
        parts.push(`M${col + margin} ${y}h${end - col + 1}v1h${col - end - 1}z`);
        col = end;
      }
      continue;
    }
    for (let col = 0; col < size; col++) {
      const x = col + margin;
      if (!isDark(row, col)) {
        if (style === 'branded' && isFree(row, col)) parts.push(fillets(row, col, x, y, isDark));
        continue;
      }
      if (style === 'dots') parts.push(circle(x + 0.5, y + 0.5, DOT_RADIUS, true));
      else if (style === 'rounded') parts.push(roundedRect(x, y, 1, 1, TILE_RADIUS, true));
      else parts.push(liquidCell(row, col, x, y, isDark));
    }
  }
  return parts.join('');
}

/** A branded module: square where it joins a neighbour, rounded where it is exposed. */
function liquidCell(
  row: number,
  col: number,
  x: number,
  y: number,
  isDark: (row: number, col: number) => boolean,
): string {
  const up = isDark(row - 1, col);
  const down = isDark(row + 1, col);
  const left = isDark(row, col - 1);
  const right = isDark(row, col + 1);
  const r = LIQUID_RADIUS;
  const tl = !up && !left ? r : 0;
  const tr = !up && !right ? r : 0;
  const br = !down && !right ? r : 0;
  const bl = !down && !left ? r : 0;
  const arc = (radius: number, dx: number, dy: number) =>
    radius ? `a${num(radius)} ${num(radius)} 0 0 1 ${num(dx)} ${num(dy)}` : '';
  const line = (command: 'h' | 'v', length: number) => (length ? `${command}${num(length)}` : '');
  return (
    `M${num(x + tl)} ${y}` +
    line('h', 1 - tl - tr) +
    arc(tr, tr, tr) +
    line('v', 1 - tr - br) +
    arc(br, -br, br) +
    line('h', -(1 - br - bl)) +
    arc(bl, -bl, -bl) +
    line('v', -(1 - bl - tl)) +
    arc(tl, tl, -tl) +
    'z'
  );
}

/** Concave fillets in the corners of an empty cell where three dark modules form an inner corner. */
function fillets(
  row: number,
  col: number,
  x: number,
  y: number,
  isDark: (row: number, col: number) => boolean,
): string {
  const f = FILLET_RADIUS;
  let d = '';
  for (const [dr, dc] of [
    [-1, -1],
    [-1, 1],
    [1, 1],
    [1, -1],
  ] as const) {
    if (!isDark(row + dr, col) || !isDark(row, col + dc) || !isDark(row + dr, col + dc)) continue;
    // The corner point, and which way is into the cell from it.
    const px = x + (dc > 0 ? 1 : 0);
    const py = y + (dr > 0 ? 1 : 0);
    const sx = -dc;
    const sy = -dr;
    const sweep = sx * sy > 0 ? 0 : 1;
    d += `M${px} ${py}h${num(sx * f)}a${num(f)} ${num(f)} 0 0 ${sweep} ${num(-sx * f)} ${num(sy * f)}z`;
  }
  return d;
}

function bannerElements(text: string, band: Box, style: ModuleStyle, bandColor: string, textColor: string): string[] {
  const radius = style === 'square' ? 0 : band.h * 0.25;
  const glyphs = textToPath(text, TEXT_REFERENCE_SIZE);
  // Cap height about a third of the band, smaller when that would not fit across it.
  const padding = band.h * 0.3;
  const fontSize = Math.min(band.h * 0.45, ((band.w - 2 * padding) * TEXT_REFERENCE_SIZE) / glyphs.width);
  const scale = fontSize / TEXT_REFERENCE_SIZE;
  const tx = band.x + (band.w - glyphs.width * scale) / 2;
  const ty = band.y + (band.h - glyphs.height * scale) / 2;
  return [
    path(roundedRect(band.x, band.y, band.w, band.h, radius, true), bandColor),
    `<path transform="translate(${num(tx)} ${num(ty)}) scale(${num(scale, 5)})" d="${glyphs.d}" ` +
      `fill="${attr(textColor)}"/>`,
  ];
}
