// qrcode's internal ISO 18004 tables (logo-plate.ts), which its types leave out.
declare module 'qrcode/lib/core/error-correction-code.js' {
  export function getBlocksCount(version: number, level: object): number;
  export function getTotalCodewordsCount(version: number, level: object): number;
}
declare module 'qrcode/lib/core/error-correction-level.js' {
  const levels: Record<'L' | 'M' | 'Q' | 'H', object>;
  export default levels;
}
