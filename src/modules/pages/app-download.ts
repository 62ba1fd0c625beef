// An app download page, for the scans that are not sent straight to a store (the scan route
// redirects iOS to app_store_url and Android to play_store_url first): a badge per store, drawn
// here as inline SVG and text (no store artwork is fetched; the CSP would refuse it anyway).
import type { AppDownloadPage } from '../codes/index.ts';
import { esc, layout, paragraphs } from './layout.ts';

// Simple marks, hidden from assistive technology: the badge's text says which store it is.
const APPLE_MARK =
  '<svg aria-hidden="true" width="28" height="28" viewBox="0 0 24 24" fill="#fff"><path d="M16.4 12.6c0-2.4 2-3.5 ' +
  '2-3.6-1.1-1.6-2.8-1.8-3.4-1.8-1.4-.1-2.8.9-3.5.9s-1.8-.9-3-.8C7 7.3 5.5 8.2 4.7 9.6c-1.6 2.8-.4 7 1.2 9.3.8 1.1 ' +
  '1.7 2.4 2.9 2.3 1.2 0 1.6-.7 3-.7s1.8.7 3 .7c1.3 0 2.1-1.1 2.8-2.3.9-1.3 1.3-2.6 1.3-2.6s-2.5-1-2.5-3.7zM14.1 ' +
  '5.6c.6-.8 1.1-1.9 1-3-1 0-2.1.7-2.8 1.4-.6.7-1.2 1.8-1 2.9 1 .1 2.1-.6 2.8-1.3z"/></svg>';
const PLAY_MARK =
  '<svg aria-hidden="true" width="28" height="28" viewBox="0 0 24 24"><path fill="#34a853" d="M3.6 2.3 13.4 12l-9.8 ' +
  '9.7c-.3-.2-.5-.6-.5-1.1V3.4c0-.5.2-.9.5-1.1z"/><path fill="#fbbc04" d="m16.7 15.3-3.3-3.3 3.3-3.3 3.8 2.2c1 .6 1 ' +
  '1.6 0 2.2z"/><path fill="#4285f4" d="M16.7 8.7 13.4 12 3.6 2.3c.3-.2.8-.2 1.3.1z"/><path fill="#ea4335" d="m16.7 ' +
  '15.3-11.8 6.6c-.5.3-1 .3-1.3.1l9.8-9.7z"/></svg>';

const badge = (url: string, mark: string, small: string, store: string) =>
  `<li><a class="badge" href="${esc(url)}" rel="noopener">${mark}` +
  `<span><small>${small}</small><b>${store}</b></span></a></li>`;

export function renderAppDownload(page: AppDownloadPage): string {
  const badges = [
    page.app_store_url && badge(page.app_store_url, APPLE_MARK, 'Download on the', 'App Store'),
    page.play_store_url && badge(page.play_store_url, PLAY_MARK, 'Get it on', 'Google Play'),
  ].join('');
  const description = page.description ? paragraphs(page.description) : '';
  return layout(page.app_name, `<h1>${esc(page.app_name)}</h1>${description}<h2>Get the app</h2><ul>${badges}</ul>`);
}
