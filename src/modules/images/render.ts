// Draws a QR code as SVG: the single source of truth for every image format (PNG and PDF are
// made from this SVG). Output is a pure function of its inputs, byte for byte, so images can be
// cached by content and checked against golden files.
//
// Everything is laid out in module units (the viewBox), the quiet zone included, so shapes land
// on whole numbers and the pixel size only ever appears in the width and height attributes.
import { createRequire } from 'node:module';
import QRCode from 'qrcode';
import type { ErrorCorrectionLevel, EyeStyle, Gradient, ModuleStyle, RenderDesign, RenderLogo } from './design.ts';
import { textToPath } from './text-paths.ts';

// qrcode's internal ISO 18004 block tables, so the logo's damage estimate always matches the
// encoder that laid the code out. Levels are compared by identity there, hence its own objects.
const requireCjs = createRequire(import.meta.url);
const ecTables = requireCjs('qrcode/lib/core/error-correction-code.js') as {
  getBlocksCount(version: number, level: object): number;
  getTotalCodewordsCount(version: number, level: object): number;
};
const ecLevels = requireCjs('qrcode/lib/core/error-correction-level.js') as Record<ErrorCorrectionLevel, object>;

const FINDER_SIZE = 7;
const ALIGNMENT_RADIUS = 2;
const GRADIENT_ID = 'qr-grad';
const LOGO_CLIP_ID = 'qr-logo-clip';
/**
 * The share of each Reed–Solomon block's correction capacity a logo may use up; the rest is left
 * for what printing, glare and camera blur do to the code.
 */
const LOGO_ERROR_BUDGET = 0.75;
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
 * The largest share of the symbol's area (size²) a logo may hide at each error-correction level;
 * the plate can come out smaller for versions whose block layout a centred patch hits hard.
 * Hidden modules become errors the decoder must repair, and a square patch damages more
 * codewords than its area suggests (it cuts through partial codewords at its edges, and blocks
 * are interleaved unevenly), so these stay well under the nominal recovery rates of 7/15/25/30 %.
 * L and M are not meant to carry a logo; the small allowance keeps an unexpected call scannable.
 */
export function logoAreaFraction(level: ErrorCorrectionLevel): number {
  switch (level) {
    case 'H':
      return 0.12;
    case 'Q':
      return 0.07;
    default:
      return 0.04;
  }
}

/** A rectangle in module coordinates of the symbol (column = x, row = y), quiet zone excluded. */
interface Box {
  x: number;
  y: number;
  w: number;
  h: number;
}

/**
 * Renders `text` as a standalone SVG `sizePx` wide. The image is square, or taller when a banner
 * frame is drawn under the code.
 */
export function renderSvg(text: string, design: RenderDesign, logo: RenderLogo | null, sizePx: number): string {
  const qr = QRCode.create(text, { errorCorrectionLevel: design.errorCorrection });
  const size = qr.modules.size;
  const margin = design.margin;
  const side = size + 2 * margin;

  const plate = logo ? logoPlate(qr, design.errorCorrection, logo) : null;
  const finders: Box[] = [
    { x: 0, y: 0, w: FINDER_SIZE, h: FINDER_SIZE },
    { x: size - FINDER_SIZE, y: 0, w: FINDER_SIZE, h: FINDER_SIZE },
    { x: 0, y: size - FINDER_SIZE, w: FINDER_SIZE, h: FINDER_SIZE },
  ];
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

  const banner = design.frame === 'banner' && design.frameText?.trim() ? design.frameText.trim() : null;
  const bannerHeight = banner ? Math.max(3, Math.round(side * 0.18)) : 0;
  // The band keeps a full quiet zone above it and as much again below.
  const height = banner ? side + bannerHeight + margin : side;
  const heightPx = Math.round((sizePx * height) / side);

  const moduleFill = design.gradient ? `url(#${GRADIENT_ID})` : design.fgColor;
  const out: string[] = [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${sizePx}" height="${heightPx}" viewBox="0 0 ${side} ${height}">`,
  ];
  const defs: string[] = [];
  if (design.gradient) defs.push(gradientDef(design.gradient, margin, size));
  const logoBox = logo && plate ? logoImageBox(plate, logo, margin) : null;
  if (logoBox && design.style === 'branded') {
    defs.push(
      `<clipPath id="${LOGO_CLIP_ID}"><rect x="${num(logoBox.x)}" y="${num(logoBox.y)}" width="${num(logoBox.w)}" height="${num(logoBox.h)}" rx="${num(Math.min(logoBox.w, logoBox.h) * 0.2)}"/></clipPath>`,
    );
  }
  if (defs.length > 0) out.push(`<defs>${defs.join('')}</defs>`);

  out.push(`<rect width="${side}" height="${height}" fill="${attr(design.bgColor)}"/>`);
  out.push(path(modulesPath(design.style, size, margin, isDark, isFree), moduleFill));
  out.push(path(alignments.map((box) => alignmentPath(design.style, box.x + margin, box.y + margin)).join(''), moduleFill));
  out.push(path(finders.map((box) => finderPath(design.eyeStyle, box.x + margin, box.y + margin)).join(''), design.eyeColor));

  if (logo && logoBox) {
    const clip = design.style === 'branded' ? ` clip-path="url(#${LOGO_CLIP_ID})"` : '';
    out.push(
      `<image href="${attr(logo.dataUri)}" x="${num(logoBox.x)}" y="${num(logoBox.y)}" width="${num(logoBox.w)}" height="${num(logoBox.h)}" preserveAspectRatio="xMidYMid meet"${clip}/>`,
    );
  }

  if (banner) {
    const bandColor = design.gradient ? design.gradient.from : design.fgColor;
    out.push(...bannerElements(banner, { x: margin, y: side, w: size, h: bannerHeight }, design.style, bandColor, design.bgColor));
  }

  out.push('</svg>');
  // A style can leave a layer empty (no alignment patterns in version 1): drop its blank line.
  return out.filter(Boolean).join('\n') + '\n';
}

/**
 * The centred area cleared for a logo: whole modules, with the symbol's (odd) parity so it is
 * exactly centred, shaped like the logo, no larger than the level's allowance and clear of the
 * finders and format information along rows and columns 0–8. The allowance alone is not enough:
 * how many codewords a centred patch cuts depends on the version's block layout (at H, version 13
 * loses a block at 11 % where its neighbours shrug off 12 %), so the plate shrinks until every
 * block keeps a reserve for real-world damage. Null when not even 3×3 modules can be spared.
 */
function logoPlate(qr: QRCode.QRCode, level: ErrorCorrectionLevel, logo: RenderLogo): Box | null {
  const size = qr.modules.size;
  const damage = blockDamage(qr, level);
  const aspect = Math.min(2, Math.max(0.5, logo.width / logo.height || 1));
  const limit = oddFloor(size - 18);
  for (let area = logoAreaFraction(level) * size * size; ; area *= 0.85) {
    const h = Math.min(limit, oddFloor(Math.sqrt(area / aspect)));
    const w = Math.min(limit, oddFloor(Math.min(area / h, h * aspect + 1)));
    if (w < 3 || h < 3) return null;
    const plate = { x: (size - w) / 2, y: (size - h) / 2, w, h };
    if (damage(plate) <= LOGO_ERROR_BUDGET) return plate;
  }
}

/**
 * For a box of hidden modules, the worst share of any Reed–Solomon block's correction capacity
 * it uses up, counting every codeword it touches as wrong. Codewords are traced through the
 * standard zigzag placement and block interleaving, with qrcode's own block tables.
 */
function blockDamage(qr: QRCode.QRCode, level: ErrorCorrectionLevel): (box: Box) => number {
  const { size, reservedBit } = qr.modules;
  const codewordAt = new Int32Array(size * size).fill(-1);
  let bit = 0;
  let upward = true;
  // Column pairs from the right, skipping the vertical timing pattern in column 6.
  for (let right = size - 1; right > 0; right -= 2) {
    if (right === 6) right--;
    for (let i = 0; i < size; i++) {
      const row = upward ? size - 1 - i : i;
      for (const col of [right, right - 1]) {
        if (reservedBit[row * size + col]) continue;
        codewordAt[row * size + col] = bit >> 3;
        bit++;
      }
    }
    upward = !upward;
  }
  const ecLevel = ecLevels[level];
  const blocks = ecTables.getBlocksCount(qr.version, ecLevel);
  const ecPerBlock = ecTables.getTotalCodewordsCount(qr.version, ecLevel) / blocks;
  // Leftover bits past the last whole codeword are remainder bits, not data.
  const total = bit >> 3;
  const dataTotal = total - ecPerBlock * blocks;
  const shortBlocks = blocks - (dataTotal % blocks);
  const shortLength = Math.floor(dataTotal / blocks);
  // Codewords are interleaved: the i-th data codeword of every block in turn (short blocks run
  // out one earlier), then the EC codewords the same way.
  const blockOf: number[] = [];
  for (let i = 0; i <= shortLength; i++) {
    for (let b = 0; b < blocks; b++) if (i < shortLength || b >= shortBlocks) blockOf.push(b);
  }
  for (let i = 0; i < ecPerBlock; i++) for (let b = 0; b < blocks; b++) blockOf.push(b);
  const capacity = Math.floor(ecPerBlock / 2);

  return (box) => {
    const touched = new Set<number>();
    for (let row = box.y; row < box.y + box.h; row++) {
      for (let col = box.x; col < box.x + box.w; col++) {
        const codeword = codewordAt[row * size + col] ?? -1;
        if (codeword >= 0 && codeword < total) touched.add(codeword);
      }
    }
    const perBlock = new Array<number>(blocks).fill(0);
    for (const codeword of touched) {
      const block = blockOf[codeword] ?? 0;
      perBlock[block] = (perBlock[block] ?? 0) + 1;
    }
    return Math.max(...perBlock) / capacity;
  };
}

function oddFloor(value: number): number {
  const floor = Math.floor(value);
  return Math.max(1, floor % 2 === 1 ? floor : floor - 1);
}

/** The logo's own box inside the plate (viewBox units), inset so it never touches a module. */
function logoImageBox(plate: Box, logo: RenderLogo, margin: number): Box {
  const inset = Math.min(plate.w, plate.h) >= 7 ? 1 : 0.5;
  const maxW = plate.w - 2 * inset;
  const maxH = plate.h - 2 * inset;
  const aspect = logo.width / logo.height || 1;
  const w = Math.min(maxW, maxH * aspect);
  const h = w / aspect;
  return { x: margin + plate.x + (plate.w - w) / 2, y: margin + plate.y + (plate.h - h) / 2, w, h };
}

/** 5×5 boxes of the alignment patterns, per ISO/IEC 18004 (as the qrcode package places them). */
function alignmentPatterns(version: number): Box[] {
  if (version === 1) return [];
  const size = version * 4 + 17;
  const count = Math.floor(version / 7) + 2;
  const step = size === 145 ? 26 : Math.ceil((size - 13) / (2 * count - 2)) * 2;
  const centres = [6];
  for (let i = count - 2; i >= 0; i--) centres.push(size - 7 - i * step);
  const last = centres.length - 1;
  const boxes: Box[] = [];
  centres.forEach((row, i) => {
    centres.forEach((col, j) => {
      // The three corners taken by finder patterns carry no alignment pattern.
      if ((i === 0 && j === 0) || (i === 0 && j === last) || (i === last && j === 0)) return;
      boxes.push({ x: col - ALIGNMENT_RADIUS, y: row - ALIGNMENT_RADIUS, w: 5, h: 5 });
    });
  });
  return boxes;
}

function overlaps(a: Box, b: Box): boolean {
  return a.x < b.x + b.w && b.x < a.x + a.w && a.y < b.y + b.h && b.y < a.y + a.h;
}

function gradientDef(gradient: Gradient, margin: number, size: number): string {
  const stops = `<stop offset="0" stop-color="${attr(gradient.from)}"/><stop offset="1" stop-color="${attr(gradient.to)}"/>`;
  const centre = margin + size / 2;
  if (gradient.type === 'radial') {
    // Reaches `to` at the symbol's corners.
    return `<radialGradient id="${GRADIENT_ID}" gradientUnits="userSpaceOnUse" cx="${num(centre)}" cy="${num(centre)}" r="${num((size / 2) * Math.SQRT2)}">${stops}</radialGradient>`;
  }
  const radians = (gradient.angle * Math.PI) / 180;
  const dx = Math.cos(radians);
  const dy = Math.sin(radians);
  // Half the symbol's extent along the direction, so `from` and `to` sit on its opposite corners.
  const reach = (size / 2) * (Math.abs(dx) + Math.abs(dy));
  return (
    `<linearGradient id="${GRADIENT_ID}" gradientUnits="userSpaceOnUse" x1="${num(centre - dx * reach)}" y1="${num(centre - dy * reach)}" ` +
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
function liquidCell(row: number, col: number, x: number, y: number, isDark: (row: number, col: number) => boolean): string {
  const up = isDark(row - 1, col);
  const down = isDark(row + 1, col);
  const left = isDark(row, col - 1);
  const right = isDark(row, col + 1);
  const r = LIQUID_RADIUS;
  const tl = !up && !left ? r : 0;
  const tr = !up && !right ? r : 0;
  const br = !down && !right ? r : 0;
  const bl = !down && !left ? r : 0;
  const arc = (radius: number, dx: number, dy: number) => (radius ? `a${num(radius)} ${num(radius)} 0 0 1 ${num(dx)} ${num(dy)}` : '');
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
function fillets(row: number, col: number, x: number, y: number, isDark: (row: number, col: number) => boolean): string {
  const f = FILLET_RADIUS;
  let d = '';
  for (const [dr, dc] of [[-1, -1], [-1, 1], [1, 1], [1, -1]] as const) {
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

/**
 * Alignment patterns stay solid in every style (dots would shrink them below what decoders
 * look for); the soft styles only round their corners.
 */
function alignmentPath(style: ModuleStyle, x: number, y: number): string {
  if (style === 'square' || style === 'dots') {
    return `M${x} ${y}h5v5h-5z` + `M${x + 1} ${y + 1}v3h3v-3z` + `M${x + 2} ${y + 2}h1v1h-1z`;
  }
  return roundedRect(x, y, 5, 5, 1.5, true) + roundedRect(x + 1, y + 1, 3, 3, 0.5, false) + roundedRect(x + 2, y + 2, 1, 1, 0.3, true);
}

/** One finder pattern: a 7×7 ring (1 module thick) around a 3×3 centre, in the eye style. */
function finderPath(style: EyeStyle, x: number, y: number): string {
  if (style === 'circle') {
    return circle(x + 3.5, y + 3.5, 3.5, true) + circle(x + 3.5, y + 3.5, 2.5, false) + circle(x + 3.5, y + 3.5, 1.5, true);
  }
  if (style === 'rounded') {
    return roundedRect(x, y, 7, 7, 2, true) + roundedRect(x + 1, y + 1, 5, 5, 1, false) + roundedRect(x + 2, y + 2, 3, 3, 1, true);
  }
  return `M${x} ${y}h7v7h-7z` + `M${x + 1} ${y + 1}v5h5v-5z` + `M${x + 2} ${y + 2}h3v3h-3z`;
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
    `<path transform="translate(${num(tx)} ${num(ty)}) scale(${num(scale, 5)})" d="${glyphs.d}" fill="${attr(textColor)}"/>`,
  ];
}

/**
 * A rounded rectangle as path data; `clockwise` false winds it the other way, which cuts it out
 * of a clockwise shape it sits in under the default nonzero fill rule.
 */
function roundedRect(x: number, y: number, w: number, h: number, r: number, clockwise: boolean): string {
  const a = (dx: number, dy: number) => (r ? `a${num(r)} ${num(r)} 0 0 ${clockwise ? 1 : 0} ${num(dx)} ${num(dy)}` : '');
  const width = num(w - 2 * r);
  const height = num(h - 2 * r);
  if (clockwise) {
    return `M${num(x + r)} ${num(y)}h${width}${a(r, r)}v${height}${a(-r, r)}h-${width}${a(-r, -r)}v-${height}${a(r, -r)}z`;
  }
  return `M${num(x + r)} ${num(y)}${a(-r, r)}v${height}${a(r, r)}h${width}${a(r, -r)}v-${height}${a(-r, -r)}z`;
}

function circle(cx: number, cy: number, r: number, clockwise: boolean): string {
  const sweep = clockwise ? 1 : 0;
  return `M${num(cx - r)} ${num(cy)}a${num(r)} ${num(r)} 0 1 ${sweep} ${num(2 * r)} 0a${num(r)} ${num(r)} 0 1 ${sweep} ${num(-2 * r)} 0z`;
}

function path(d: string, fill: string): string {
  return d ? `<path d="${d}" fill="${attr(fill)}"/>` : '';
}

/**
 * Fixed precision keeps output stable and free of float noise such as 4.3500000000000005; the
 * leading zero goes (".35") because module shapes repeat thousands of times in a large code.
 */
function num(value: number, digits = 3): string {
  const factor = 10 ** digits;
  const rounded = Math.round(value * factor) / factor;
  return Object.is(rounded, -0) ? '0' : String(rounded).replace(/^(-?)0\./, '$1.');
}

function attr(value: string): string {
  return value.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}
