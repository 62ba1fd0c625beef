// Vector PDF export: the renderer's SVG drawn onto a single page of exactly the code's size, so
// print shops get sharp edges at any scale. Metadata is fixed so the same code gives the same
// bytes (pdfkit derives the file ID from it).
import PDFDocument from 'pdfkit';
import SVGtoPDF from 'svg-to-pdfkit';

const FIXED_INFO = { Producer: 'qr-service', Creator: 'qr-service', CreationDate: new Date(0) };

/** Draws `svg` onto one `widthPt` × `heightPt` page (1 pt = 1/72 in) and returns the PDF bytes. */
export async function svgToPdf(svg: string, widthPt: number, heightPt: number): Promise<Buffer> {
  const doc = new PDFDocument({ size: [widthPt, heightPt], margin: 0, compress: false, info: FIXED_INFO });
  const chunks: Buffer[] = [];
  const done = new Promise<Buffer>((resolve, reject) => {
    doc.on('data', (chunk: Buffer) => chunks.push(chunk));
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
  });
  // The page is the viewport; `meet` maps the SVG's viewBox onto it whatever its pixel size.
  SVGtoPDF(doc, svg, 0, 0, { width: widthPt, height: heightPt, assumePt: true, preserveAspectRatio: 'xMidYMid meet' });
  doc.end();
  return done;
}
