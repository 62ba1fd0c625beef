// The page a link-preview crawler gets for a code with a social preview (codes/preview.ts): Open
// Graph and Twitter card tags and a plain link, so that a shared scan URL shows the code's own
// card rather than whatever the destination's page says (Dub's custom social cards work so).
// It loads nothing: the image is only named in a meta tag for the crawler to fetch, the CSP is the
// scan route's static one, and every value is escaped. No refresh or script sends the crawler on,
// since one that followed would read the destination's tags instead.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { HTML_SECURITY_HEADERS, STATIC_PAGE_CSP } from '../../http/security-headers.ts';
import { escapeHtml } from '../../shared/html.ts';
import type { Preview } from '../codes/index.ts';

const meta = (attr: 'property' | 'name', key: string, value: string | undefined) =>
  value === undefined ? '' : `<meta ${attr}="${key}" content="${escapeHtml(value)}">`;

/**
 * The preview page of the scan URL `pageUrl`; `link` is where its one link goes: the destination,
 * or the scan URL itself for a password-protected code, whose destination is never shown.
 */
export function previewPage(preview: Preview, pageUrl: string, link: string): string {
  const { title, description, image_url: image } = preview;
  const heading = escapeHtml(title ?? description ?? pageUrl);
  return (
    '<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, ' +
    `initial-scale=1"><meta name="robots" content="noindex"><title>${heading}</title>` +
    meta('property', 'og:type', 'website') +
    meta('property', 'og:url', pageUrl) +
    meta('property', 'og:title', title) +
    meta('property', 'og:description', description) +
    meta('property', 'og:image', image) +
    meta('name', 'twitter:card', image === undefined ? 'summary' : 'summary_large_image') +
    meta('name', 'twitter:title', title) +
    meta('name', 'twitter:description', description) +
    meta('name', 'twitter:image', image) +
    meta('name', 'description', description) +
    '</head><body style="font-family:system-ui,sans-serif;max-width:32rem;margin:4rem auto;padding:0 1rem">' +
    `<main><h1>${heading}</h1>${description && title ? `<p>${escapeHtml(description)}</p>` : ''}` +
    `<p><a href="${escapeHtml(link)}">Continue</a></p></main></body></html>`
  );
}

const HEADERS = {
  'Content-Type': 'text/html; charset=utf-8',
  'Content-Security-Policy': STATIC_PAGE_CSP,
  ...HTML_SECURITY_HEADERS,
  // Crawlers cache cards themselves; every request must still reach us to be counted.
  'Cache-Control': 'private, max-age=0',
};

/** Answers the preview page with 200; HEAD gets its headers only. */
export function sendPreviewPage(req: IncomingMessage, res: ServerResponse, html: string): void {
  res.writeHead(200, { ...HEADERS, 'Content-Length': Buffer.byteLength(html) });
  res.end(req.method === 'HEAD' ? undefined : html);
}
