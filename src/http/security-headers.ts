// Headers for the HTML we serve (GraphiQL, the scan route's pages, the dashboard, /docs): no
// MIME sniffing, no Referer leaving the page, no framing, and a Content-Security-Policy that
// allows exactly what each page needs and nothing from other origins.
export const HTML_SECURITY_HEADERS: Readonly<Record<string, string>> = Object.freeze({
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'no-referrer',
  // frame-ancestors in the CSP does the same for current browsers; this is for older ones.
  'X-Frame-Options': 'DENY',
});

/** The scan route's pages: markup and an inline style attribute, nothing to fetch or run. */
export const STATIC_PAGE_CSP =
  "default-src 'none'; style-src 'unsafe-inline'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

/** A hosted page (business card): the static policy, plus images from this origin (its photo). */
export const HOSTED_PAGE_CSP =
  "default-src 'none'; style-src 'unsafe-inline'; img-src 'self'; base-uri 'none'; form-action 'none'; " +
  "frame-ancestors 'none'";

/** A page's policy: nothing but what `allowed` names, no <base>, no form posts, no framing. */
function pagePolicy(allowed: string[]): string {
  return ["default-src 'none'", ...allowed, "base-uri 'none'", "form-action 'none'", "frame-ancestors 'none'"].join(
    '; ',
  );
}

/**
 * Everything the dashboard loads is its own bundle, and its data comes from /graphql on this
 * origin. QR previews are SVG data: URLs in <img> (an image cannot run scripts). Preact sets
 * styles through the CSSOM (element.style), which style-src does not govern, so neither
 * 'unsafe-inline' nor 'unsafe-eval' is needed. The scans chart is drawn by a worker from the
 * bundle (worker-src falls back to script-src 'self').
 */
export const DASHBOARD_CSP = pagePolicy([
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "connect-src 'self'",
]);

/**
 * Redoc renders with styled-components (style elements it writes at run time) and builds its
 * search index in a worker started from a blob: URL; everything else comes from this origin.
 */
export const DOCS_CSP = pagePolicy([
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  "font-src 'self' data:",
  "connect-src 'self'",
  "worker-src 'self' blob:",
]);

/**
 * GraphiQL (development only): its script, styles and icon from /graphql/assets; its editor
 * sets style attributes as it runs and starts its workers from blob: URLs it makes.
 */
export const GRAPHIQL_CSP = pagePolicy([
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  "font-src 'self' data:",
  "connect-src 'self'",
  'worker-src blob:',
]);
