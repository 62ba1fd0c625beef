// Contrast between two colors as WCAG defines it (relative luminance ratio, 1 to 21). Scanners
// cannot read low contrast; light-on-dark codes only some read (zbar and many phone cameras look
// for dark modules on a light ground only), so a design must ask for them (model.ts).

function channel(value: number): number {
  const c = value / 255;
  return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
}

export function luminance(hex: string): number {
  const n = Number.parseInt(hex.slice(1), 16);
  return 0.2126 * channel((n >> 16) & 255) + 0.7152 * channel((n >> 8) & 255) + 0.0722 * channel(n & 255);
}

export function contrastRatio(a: string, b: string): number {
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x) as [number, number];
  return (hi + 0.05) / (lo + 0.05);
}

/** Below this, phone cameras in ordinary light fail often; 3:1 is WCAG's floor for graphics. */
export const MIN_CONTRAST = 3;

/** Whether modules of `color` on `bg` are lighter than their background: a light-on-dark (inverted) code. */
export const isLighter = (color: string, bg: string): boolean => luminance(color) > luminance(bg);
