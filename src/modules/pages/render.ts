// A code's page as the scan route serves it, built once when the code enters the scan cache
// (scans/target-cache.ts), so that a scan of a page costs no more than a lookup and a write.
import type { Page } from '../codes/index.ts';
import { renderAppDownload } from './app-download.ts';
import { renderBusinessCard } from './business-card.ts';
import { renderLinks } from './links.ts';
import { vcardFileName, vcardOf } from './vcard.ts';

/** A store URL as a Location header carries it (URLs are stored as written, maybe with non-ASCII). */
const locationOf = (url: string | undefined) => (url === undefined ? null : new URL(url).href);

export interface HostedPage {
  /** The page's HTML document. */
  html: string;
  /** A business card's vCard (without its photo: see withPhoto) and its download name; null for other kinds. */
  vcard: { body: string; fileName: string } | null;
  /** A business card's photo (an uploaded image of the code's account), or null. */
  photoImageId: string | null;
  /** An app download page's store links, where the scan from that OS goes first; null for other kinds. */
  stores: { ios: string | null; android: string | null } | null;
}

/** The page of the code at `scanPath` (`/<slug>`: the page's own links to the vCard start from it). */
export function hostedPageOf(page: Page, scanPath: string): HostedPage {
  switch (page.kind) {
    case 'business_card':
      return {
        html: renderBusinessCard(page, scanPath),
        vcard: { body: vcardOf(page), fileName: vcardFileName(page) },
        photoImageId: page.photo_image_id ?? null,
        stores: null,
      };
    case 'app_download':
      return {
        html: renderAppDownload(page),
        vcard: null,
        photoImageId: null,
        stores: { ios: locationOf(page.app_store_url), android: locationOf(page.play_store_url) },
      };
    case 'links':
      return { html: renderLinks(page), vcard: null, photoImageId: null, stores: null };
  }
}
