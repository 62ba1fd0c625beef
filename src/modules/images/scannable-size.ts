// The smallest image of a code that still scans. A decoder reads a code module by module, so
// what it needs is pixels per module, counted across the symbol and its quiet zone (the image's
// width over modules + 2 × margin), not a fixed pixel size: a 290-character text (77 modules
// across) needs more than twice the pixels of a short URL (33).
//
// Measured on the served PNG with zbar (Debian's zbar-tools 0.23.92) and jsQR, 21 designs (every
// style at every level; logos, gradients, eye styles, a banner) each with a 26-character URL and
// a 290-character text, sharp and degraded as an image is before a camera sees it (shown at 75%,
// Gaussian blur of 1 px, JPEG at quality 50, rotated 5°):
// - sharp at whole scales (render.ts snaps to them), both decoders read all 42 at 2, 3 and 4 px
//   a module (zbar starts reading them at 1.2-1.7);
// - degraded, zbar missed 80 of the 168 images at 2 px a module, 44 at 2.5, 4 at 3 and 1 at 4;
//   logos are what fails: over 144 degraded images of logo designs at level H (4 styles, 9
//   payloads of 20-350 characters) zbar missed 14 at 3 px a module, 1 at 4 and 3 at 5, and
//   none of the same designs without a logo (test/unit/scannable-sizes.test.ts says why).
// Hence 4: where failures stop falling with size.
export const MIN_PIXELS_PER_MODULE = 4;

/**
 * The width an image asked at `requested` pixels is drawn at: never fewer than
 * MIN_PIXELS_PER_MODULE pixels a module across `modulesAcross` (symbol and quiet zone). Asking
 * for less gets the smallest width that scans, which the answer reports.
 */
export function scannableWidth(requested: number, modulesAcross: number): number {
  return Math.max(requested, MIN_PIXELS_PER_MODULE * modulesAcross);
}
