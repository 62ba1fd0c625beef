// A business card page: who the person is, how to reach them, and the "Save contact" button,
// a plain link to the vCard the scan route serves beside the page (`<scan path>/contact.vcf`).
import type { BusinessCardPage } from '../codes/index.ts';
import { esc, layout, linkButton, paragraphs } from './layout.ts';

/** The vCard's path under a code's scan path (the scan route answers it without counting a scan). */
export const CONTACT_FILE = 'contact.vcf';
/** The photo's path under a code's scan path: served from our origin, as the page's CSP allows. */
export const PHOTO_FILE = 'photo.png';

const row = (label: string | undefined, link: string, text: string) =>
  `<li class="row">${label ? `<span>${esc(label)}</span>` : ''}<a href="${esc(link)}">${esc(text)}</a></li>`;

function addressLines(address: NonNullable<BusinessCardPage['address']>): string {
  const cityLine = [address.postal_code, address.city].filter(Boolean).join(' ');
  return [address.street, cityLine, address.region, address.country]
    .filter((part): part is string => Boolean(part))
    .map((part) => `${esc(part)}<br>`)
    .join('');
}

export function renderBusinessCard(card: BusinessCardPage, scanPath: string): string {
  const role = [card.title, card.organization].filter(Boolean).join(', ');
  const photo = card.photo_image_id
    ? `<img class="photo" src="${esc(`${scanPath}/${PHOTO_FILE}`)}" alt="Photo of ${esc(card.name)}" width="128" ` +
      'height="128">'
    : '';
  const parts = [photo, `<h1>${esc(card.name)}</h1>`, role ? `<p class="sub">${esc(role)}</p>` : ''];
  parts.push(linkButton('Save contact', `${scanPath}/${CONTACT_FILE}`, false));
  if (card.phones.length > 0)
    parts.push(
      '<h2>Phone</h2><ul>' + card.phones.map((p) => row(p.label, `tel:${p.number}`, p.number)).join('') + '</ul>',
    );
  if (card.emails.length > 0)
    parts.push(
      '<h2>Email</h2><ul>' + card.emails.map((e) => row(e.label, `mailto:${e.address}`, e.address)).join('') + '</ul>',
    );
  const address = card.address && addressLines(card.address);
  if (address) parts.push(`<h2>Address</h2><address style="font-style:normal">${address}</address>`);
  if (card.links.length > 0)
    parts.push(
      '<h2>Links</h2><ul>' + card.links.map((l) => `<li>${linkButton(l.label, l.url)}</li>`).join('') + '</ul>',
    );
  if (card.note) parts.push('<h2>About</h2>' + paragraphs(card.note, ''));
  return layout(card.name, parts.join(''));
}
