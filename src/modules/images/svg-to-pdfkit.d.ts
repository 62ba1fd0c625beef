// svg-to-pdfkit ships no types; this covers the one call pdf.ts makes.
declare module 'svg-to-pdfkit' {
  interface SvgToPdfOptions {
    /** Viewport size; defaults to the page size. */
    width?: number;
    height?: number;
    /** Treat SVG user units as points instead of CSS pixels (72/96 pt). */
    assumePt?: boolean;
    preserveAspectRatio?: string;
  }
  export default function SVGtoPDF(
    doc: PDFKit.PDFDocument,
    svg: string,
    x?: number,
    y?: number,
    options?: SvgToPdfOptions,
  ): void;
}
