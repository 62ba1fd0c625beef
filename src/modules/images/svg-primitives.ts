// Shape and number formatting helpers shared by the renderer's layers (modules, eyes, banner).
// They live apart from render.ts so those layers can use them without importing the renderer.

/** A rectangle in module coordinates of the symbol (column = x, row = y), quiet zone excluded. */
export interface Box {
  x: number;
  y: number;
  w: number;
  h: number;
}

/**
 * A rounded rectangle as path data; `clockwise` false winds it the other way, which cuts it out
 * of a clockwise shape it sits in under the default nonzero fill rule.
 */
export function roundedRect(x: number, y: number, w: number, h: number, r: number, clockwise: boolean): string {
  const a = (dx: number, dy: number) =>
    r ? `a${num(r)} ${num(r)} 0 0 ${clockwise ? 1 : 0} ${num(dx)} ${num(dy)}` : '';
  const width = num(w - 2 * r);
  const height = num(h - 2 * r);
  if (clockwise) {
    return (
      `M${num(x + r)} ` +
      `${num(y)}h${width}${a(r, r)}v${height}${a(-r, r)}h-${width}${a(-r, -r)}v-${height}${a(r, -r)}z`
    );
  }
  return `M${num(x + r)} ${num(y)}${a(-r, r)}v${height}${a(r, r)}h${width}${a(r, -r)}v-${height}${a(-r, -r)}z`;
}

export function circle(cx: number, cy: number, r: number, clockwise: boolean): string {
  const sweep = clockwise ? 1 : 0;
  return (
    `M${num(cx - r)} ${num(cy)}a${num(r)} ${num(r)} 0 1 ${sweep} ${num(2 * r)} 0a${num(r)} ${num(r)} 0 1 ` +
    `${sweep} ${num(-2 * r)} 0z`
  );
}

export function path(d: string, fill: string): string {
  return d ? `<path d="${d}" fill="${attr(fill)}"/>` : '';
}

/**
 * Fixed precision keeps output stable and free of float noise such as 4.3500000000000005; the
 * leading zero goes (".35") because module shapes repeat thousands of times in a large code.
 */
export function num(value: number, digits = 3): string {
  const factor = 10 ** digits;
  const rounded = Math.round(value * factor) / factor;
  return Object.is(rounded, -0) ? '0' : String(rounded).replace(/^(-?)0\./, '$1.');
}

export function attr(value: string): string {
  return value.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}
