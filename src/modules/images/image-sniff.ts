// Recognises PNG, JPEG, GIF and WebP images by their magic bytes and reads their pixel size from
// the headers, so a fetched file is judged by what it is rather than by the Content-Type it was
// served with, and without decoding (or trusting a decoder with) the whole image.

export type ImageContentType = 'image/png' | 'image/jpeg' | 'image/gif' | 'image/webp';

const startsWith = (b: Uint8Array, prefix: number[]) => prefix.every((v, i) => b[i] === v);

/** Type and pixel size from the header bytes of a PNG, JPEG, GIF or WebP image; null for anything else. */
export function sniffImage(b: Uint8Array): { contentType: ImageContentType; width: number; height: number } | null {
  const u16be = (i: number) => (b[i]! << 8) | b[i + 1]!;
  const u16le = (i: number) => b[i]! | (b[i + 1]! << 8);
  const u24le = (i: number) => b[i]! | (b[i + 1]! << 8) | (b[i + 2]! << 16);
  const u32be = (i: number) => u16be(i) * 65536 + u16be(i + 2);
  const ascii = (i: number, s: string) =>
    b.length >= i + s.length && [...s].every((c, k) => b[i + k] === c.charCodeAt(0));

  // PNG: signature, then the IHDR chunk with big-endian width and height.
  if (b.length >= 24 && startsWith(b, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]) && ascii(12, 'IHDR')) {
    return { contentType: 'image/png', width: u32be(16), height: u32be(20) };
  }
  // GIF: logical screen size right after the signature.
  if (b.length >= 10 && (ascii(0, 'GIF87a') || ascii(0, 'GIF89a'))) {
    return { contentType: 'image/gif', width: u16le(6), height: u16le(8) };
  }
  // WebP: RIFF container, size from the first chunk (lossy, lossless or extended).
  if (b.length >= 30 && ascii(0, 'RIFF') && ascii(8, 'WEBP')) {
    if (ascii(12, 'VP8 ') && b[23] === 0x9d && b[24] === 0x01 && b[25] === 0x2a) {
      return { contentType: 'image/webp', width: u16le(26) & 0x3fff, height: u16le(28) & 0x3fff };
    }
    if (ascii(12, 'VP8L') && b[20] === 0x2f) {
      const bits = u16le(21) + u16le(23) * 65536;
      return { contentType: 'image/webp', width: (bits & 0x3fff) + 1, height: (Math.floor(bits / 16384) & 0x3fff) + 1 };
    }
    if (ascii(12, 'VP8X')) return { contentType: 'image/webp', width: u24le(24) + 1, height: u24le(27) + 1 };
    return null;
  }
  // JPEG: walk the marker segments up to the first start-of-frame.
  if (b.length >= 4 && b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff) {
    let i = 2;
    while (i + 4 <= b.length) {
      if (b[i] !== 0xff) return null;
      const marker = b[i + 1]!;
      if (marker === 0xff) {
        i += 1; // fill byte
        continue;
      }
      if (marker === 0x01 || (marker >= 0xd0 && marker <= 0xd8)) {
        i += 2; // standalone marker, no length
        continue;
      }
      if (marker === 0xd9 || marker === 0xda) return null; // end of image / scan data before any frame
      const length = u16be(i + 2);
      if (length < 2) return null;
      if (marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc) {
        if (i + 9 > b.length) return null;
        return { contentType: 'image/jpeg', width: u16be(i + 7), height: u16be(i + 5) };
      }
      i += 2 + length;
    }
    return null;
  }
  return null;
}
