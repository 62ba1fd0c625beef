// The pages module's public face: hosted pages (business card, app download, list of links)
// rendered to HTML for the scan route; their content is a field of a url code (codes/page.ts).
export { CONTACT_FILE, PHOTO_FILE } from './business-card.ts';
export { withPhoto } from './vcard.ts';
export { hostedPageOf } from './render.ts';
export type { HostedPage } from './render.ts';
