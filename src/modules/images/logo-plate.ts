// Sizes the plate cleared for a logo in the middle of a QR code. Every module under the logo is
// an error the decoder must repair, so the plate is sized from the error-correction level and
// then shrunk until no Reed–Solomon block of this particular version is hit too hard.
import type { QRCode } from 'qrcode';
import * as ecTables from 'qrcode/lib/core/error-correction-code.js';
import ecLevelsTable from 'qrcode/lib/core/error-correction-level.js';
import type { ErrorCorrectionLevel, RenderLogo } from './design.ts';
import type { Box } from './svg-primitives.ts';

// qrcode's internal ISO 18004 block tables, so the logo's damage estimate always matches the
// encoder that laid the code out. Levels are compared by identity there, hence its own objects.
const ecLevels = ecLevelsTable as Record<ErrorCorrectionLevel, object>;

/**
 * The share of each Reed–Solomon block's correction capacity a logo may use up; the rest is left
 * for what printing, glare and camera blur do to the code.
 */
const LOGO_ERROR_BUDGET = 0.75;

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

/**
 * The centred area cleared for a logo: whole modules, with the symbol's (odd) parity so it is
 * exactly centred, shaped like the logo, no larger than the level's allowance and clear of the
 * finders and format information along rows and columns 0–8. The allowance alone is not enough:
 * how many codewords a centred patch cuts depends on the version's block layout (at H, version 13
 * loses a block at 11 % where its neighbours shrug off 12 %), so the plate shrinks until every
 * block keeps a reserve for real-world damage. Null when not even 3×3 modules can be spared.
 */
export function logoPlate(qr: QRCode, level: ErrorCorrectionLevel, logo: RenderLogo): Box | null {
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
function blockDamage(qr: QRCode, level: ErrorCorrectionLevel): (box: Box) => number {
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
export function logoImageBox(plate: Box, logo: RenderLogo, margin: number): Box {
  const inset = Math.min(plate.w, plate.h) >= 7 ? 1 : 0.5;
  const maxW = plate.w - 2 * inset;
  const maxH = plate.h - 2 * inset;
  const aspect = logo.width / logo.height || 1;
  const w = Math.min(maxW, maxH * aspect);
  const h = w / aspect;
  return { x: margin + plate.x + (plate.w - w) / 2, y: margin + plate.y + (plate.h - h) / 2, w, h };
}
