// Reads a QR code back out of pixels: how tests (and anyone checking a design) prove an image
// still scans, rather than trusting that it looks right.
import jsQRModule from 'jsqr';

// jsqr is CommonJS whose typings declare an ES default export, so from ESM TypeScript sees the
// module object; the bundle sets `jsQR.default = jsQR`, which makes `.default` right at runtime too.
const jsQR = jsQRModule.default;

/**
 * The text encoded in the image, or null when no code can be read. Both polarities are tried so
 * light-on-dark designs decode too.
 */
export function decodeQr(image: { data: Uint8ClampedArray; width: number; height: number }): string | null {
  return jsQR(image.data, image.width, image.height, { inversionAttempts: 'attemptBoth' })?.data ?? null;
}
