// The fixed patterns decoders locate a QR code by: the three finder patterns ("eyes") in the
// corners and the smaller alignment patterns. They are drawn apart from the data modules because
// each style must keep them recognisable, which the per-module shapes would not.
import type { EyeStyle, ModuleStyle } from './design.ts';
import { circle, roundedRect, type Box } from './svg-primitives.ts';

const FINDER_SIZE = 7;
const ALIGNMENT_RADIUS = 2;

/** 7×7 boxes of the three finder patterns: top left, top right, bottom left. */
export function finderPatterns(size: number): Box[] {
  return [
    { x: 0, y: 0, w: FINDER_SIZE, h: FINDER_SIZE },
    { x: size - FINDER_SIZE, y: 0, w: FINDER_SIZE, h: FINDER_SIZE },
    { x: 0, y: size - FINDER_SIZE, w: FINDER_SIZE, h: FINDER_SIZE },
  ];
}

/** 5×5 boxes of the alignment patterns, per ISO/IEC 18004 (as the qrcode package places them). */
export function alignmentPatterns(version: number): Box[] {
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

/**
 * Alignment patterns stay solid in every style (dots would shrink them below what decoders
 * look for); the soft styles only round their corners.
 */
export function alignmentPath(style: ModuleStyle, x: number, y: number): string {
  if (style === 'square' || style === 'dots') {
    return `M${x} ${y}h5v5h-5z` + `M${x + 1} ${y + 1}v3h3v-3z` + `M${x + 2} ${y + 2}h1v1h-1z`;
  }
  return (
    roundedRect(x, y, 5, 5, 1.5, true) +
    roundedRect(x + 1, y + 1, 3, 3, 0.5, false) +
    roundedRect(x + 2, y + 2, 1, 1, 0.3, true)
  );
}

/** One finder pattern: a 7×7 ring (1 module thick) around a 3×3 centre, in the eye style. */
export function finderPath(style: EyeStyle, x: number, y: number): string {
  if (style === 'circle') {
    return (
      circle(x + 3.5, y + 3.5, 3.5, true) + circle(x + 3.5, y + 3.5, 2.5, false) + circle(x + 3.5, y + 3.5, 1.5, true)
    );
  }
  if (style === 'rounded') {
    return (
      roundedRect(x, y, 7, 7, 2, true) +
      roundedRect(x + 1, y + 1, 5, 5, 1, false) +
      roundedRect(x + 2, y + 2, 3, 3, 1, true)
    );
  }
  return `M${x} ${y}h7v7h-7z` + `M${x + 1} ${y + 1}v5h5v-5z` + `M${x + 2} ${y + 2}h3v3h-3z`;
}
