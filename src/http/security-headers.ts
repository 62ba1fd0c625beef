// Headers for the HTML we serve (GraphiQL, the scan route's pages, the dashboard, /docs): no
// MIME sniffing, no Referer leaving the page, no framing, and a Content-Security-Policy that
// allows exactly what each page needs and nothing from other origins.
import { createHash } from 'node:crypto';

export const HTML_SECURITY_HEADERS: Readonly<Record<string, string>> = Object.freeze({
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'no-referrer',
  // frame-ancestors in the CSP does the same for current browsers; this is for older ones.
  'X-Frame-Options': 'DENY',
});

/** The scan route's pages: markup and an inline style attribute, nothing to fetch or run. */
export const STATIC_PAGE_CSP = "default-src 'none'; style-src 'unsafe-inline'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

/** A page's policy: nothing but what `allowed` names, no <base>, no form posts, no framing. */
function pagePolicy(allowed: string[]): string {
  return ["default-src 'none'", ...allowed, "base-uri 'none'", "form-action 'none'", "frame-ancestors 'none'"].join('; ');
}

/**
 * Everything the dashboard loads is its own bundle, and its data comes from /graphql on this
 * origin. QR previews are SVG data: URLs in <img> (an image cannot run scripts). Preact and
 * Chart.js set styles through the CSSOM (element.style), which style-src does not govern, so
 * neither 'unsafe-inline' nor 'unsafe-eval' is needed.
 */
export const DASHBOARD_CSP = pagePolicy(["script-src 'self'", "style-src 'self'", "img-src 'self' data:", "connect-src 'self'"]);

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

const INLINE_SCRIPT = /<script(?![^>]*\ssrc=)[^>]*>([\s\S]*?)<\/script>/gi;

/** 'sha256-…' sources for every inline script of a page, as CSP matches them (UTF-8 bytes). */
export function inlineScriptHashes(html: string): string[] {
  return [...html.matchAll(INLINE_SCRIPT)].map((m) => `'sha256-${createHash('sha256').update(m[1]!, 'utf8').digest('base64')}'`);
}

let graphiqlPolicy: { html: string; csp: string } | undefined;

/**
 * GraphiQL (@graphql-yoga/render-graphiql) is one self-contained page: its script inline (allowed
 * by hash, so no other script can run), styles inline, fonts and icons as data: URLs, the Monaco
 * editor's workers from blob: URLs, and queries to this origin only. The page is the same on every
 * request, so its policy is computed once.
 */
export function graphiqlCsp(html: string): string {
  if (graphiqlPolicy?.html !== html) {
    const csp = [
      "default-src 'none'",
      `script-src ${inlineScriptHashes(html).join(' ') || "'none'"}`,
      "style-src 'unsafe-inline'",
      'img-src data:',
      'font-src data:',
      "connect-src 'self'",
      'worker-src blob:',
      "base-uri 'none'",
      "form-action 'none'",
      "frame-ancestors 'none'",
    ].join('; ');
    graphiqlPolicy = { html, csp };
  }
  return graphiqlPolicy.csp;
}
