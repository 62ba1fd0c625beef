// An uploaded SVG is drawn once by resvg and only the pixels are kept, so nothing in it can ever
// run in a browser. What is refused here is what could reach outside the file while resvg draws
// it, or that only an attacker writes: resvg reads a local file named by an <image href> (tried:
// `href="/path/x.png"` is drawn), so any reference other than a fragment or an embedded raster
// image is refused; so are scripts, event handlers, foreignObject and DTDs (entity expansion).

/** True when the text is an SVG document (after an optional XML declaration and comments). */
export function looksLikeSvg(text: string): boolean {
  return /^\uFEFF?\s*(<\?xml[^>]*\?>\s*)?(<!--[\s\S]*?-->\s*)*(<!DOCTYPE[^[>]*(\[[\s\S]*?\])?\s*>\s*)?<svg[\s>/]/i.test(
    text,
  );
}

const EMBEDDED_RASTER = /^data:image\/(png|jpeg|gif);base64,/i;

/** Why this SVG is refused, or null when it may be drawn. */
export function svgProblem(text: string): string | null {
  if (/<!(DOCTYPE|ENTITY)/i.test(text)) return 'the SVG has a document type declaration, which is not accepted';
  if (/<script[\s>/]/i.test(text)) return 'the SVG contains a script, which is not accepted';
  if (/<foreignObject[\s>/]/i.test(text)) return 'the SVG contains a foreignObject, which is not accepted';
  if (/\son[a-z]+\s*=/i.test(text))
    return 'the SVG contains an event handler attribute (on...=), which is not accepted';
  if (/@import|javascript:/i.test(text)) return 'the SVG refers to a stylesheet or a script, which is not accepted';
  for (const match of text.matchAll(/href\s*=\s*(?:"([^"]*)"|'([^']*)')/gi)) {
    const target = (match[1] ?? match[2]!).trim();
    if (!target.startsWith('#') && !EMBEDDED_RASTER.test(target))
      return (
        'the SVG refers to another file or address; only #fragments and embedded PNG, JPEG or GIF images are ' +
        'accepted'
      );
  }
  for (const match of text.matchAll(/url\(\s*['"]?\s*([^'")\s]*)/gi)) {
    if (!match[1]!.startsWith('#'))
      return 'the SVG refers to another file or address in url(...), which is not accepted';
  }
  return null;
}
