// The frame every hosted page shares: one document with its style inline (the CSP lets nothing
// be fetched), sized for a phone first, readable without JavaScript. Every user field reaching
// the markup goes through escapeHtml (`esc` below) at the place it is written.
import { escapeHtml } from '../../shared/html.ts';

export const esc = escapeHtml;

// Colours meet WCAG AA on their backgrounds (axe checks them in test/e2e/hosted-pages.test.ts);
// overflow-wrap keeps a long word or URL from widening a 360 px screen.
const STYLE =
  '*{box-sizing:border-box}' +
  'body{margin:0;font:16px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:#1a1a1a;background:#f3f4f6}' +
  'main{max-width:32rem;margin:0 auto;padding:2rem 1rem}' +
  'h1{font-size:1.75rem;line-height:1.2;margin:0 0 .25rem}' +
  'h2{font-size:1rem;margin:1.5rem 0 .25rem;color:#3d4451}' +
  'h1,p,li,a{overflow-wrap:anywhere}' +
  'p{margin:.25rem 0}.sub{color:#3d4451}' +
  'ul{list-style:none;margin:0;padding:0}' +
  '.btn{display:block;margin:.75rem 0;padding:.85rem 1rem;border-radius:.6rem;font-weight:600;text-align:center;' +
  'text-decoration:none;background:#1a4fd6;color:#fff}' +
  '.btn.plain{background:#fff;color:#1a1a1a;border:1px solid #b8bec9}' +
  '.row{padding:.35rem 0}.row span{color:#3d4451;margin-right:.5rem}' +
  'a{color:#1a4fd6}' +
  '.badge{display:flex;align-items:center;gap:.75rem;margin:.75rem 0;padding:.6rem 1rem;border-radius:.6rem;' +
  'background:#000;color:#fff;text-decoration:none;line-height:1.2}' +
  '.badge small{display:block;font-size:.75rem}.badge b{font-size:1.2rem}' +
  '.badge svg{flex:none}' +
  '.photo{display:block;width:8rem;height:8rem;border-radius:50%;object-fit:cover;margin:0 0 1rem}';

/** A whole page: `title` is plain text (escaped here), `body` markup already escaped. */
export function layout(title: string, body: string): string {
  return (
    '<!doctype html><html lang="en"><head><meta charset="utf-8">' +
    '<meta name="viewport" content="width=device-width, initial-scale=1">' +
    `<title>${esc(title)}</title><style>${STYLE}</style></head><body><main>${body}</main></body></html>`
  );
}

/** A button-like link to an http(s) URL (schemas allow nothing else in a page's links). */
export const linkButton = (label: string, url: string, plain = true) =>
  `<a class="btn${plain ? ' plain' : ''}" href="${esc(url)}" rel="noopener">${esc(label)}</a>`;

/** A paragraph of free text whose line breaks are kept. */
export const paragraphs = (text: string, cls = 'sub') =>
  text
    .split(/\r\n|\r|\n/)
    .filter((line) => line.trim() !== '')
    .map((line) => `<p class="${cls}">${esc(line)}</p>`)
    .join('');
