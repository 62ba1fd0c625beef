// The business card as a vCard 4.0 (RFC 6350), the "Save contact" download. Text values escape
// \ , and line breaks; the components of structured ones (N, ADR, ORG) ; too. Lines are folded
// at 75 octets, as the RFC asks, on character boundaries so that no UTF-8 sequence is split;
// lines end in CRLF.
import type { BusinessCardPage } from '../codes/index.ts';

/** A TEXT value (RFC 6350 3.4): a semicolon stands as it is (vCard 3.0 escaped it, 4.0 does not). */
const e = (value: string) => value.replace(/[\\,]/g, '\\$&').replace(/\r\n|\r|\n/g, '\\n');
/** A component of a structured value, where ; separates the components. */
const c = (value: string) => e(value).replace(/;/g, '\\;');

/** Labels people give that vCard has a TYPE for; any other label is left out of the file. */
const TYPES: Record<string, string> = {
  work: 'work',
  home: 'home',
  mobile: 'cell',
  cell: 'cell',
  fax: 'fax',
};
const typeParam = (label: string | undefined) => {
  const type = label && TYPES[label.toLowerCase()];
  return type ? `;TYPE=${type}` : '';
};

function fold(line: string): string {
  const out: string[] = [];
  let current = '';
  let octets = 0;
  for (const char of line) {
    const size = Buffer.byteLength(char);
    // Continuation lines start with a space, which counts toward their 75.
    if (octets + size > 75) {
      out.push(current);
      current = ' ';
      octets = 1;
    }
    current += char;
    octets += size;
  }
  out.push(current);
  return out.join('\r\n');
}

/** N's family and given names, guessed from the one name field: the last word is the family name. */
function structuredName(name: string): string {
  const words = name.split(/\s+/);
  const family = words.length > 1 ? words.pop()! : '';
  return `${c(family)};${c(words.join(' '))};;;`;
}

export function vcardOf(card: BusinessCardPage): string {
  const lines = ['BEGIN:VCARD', 'VERSION:4.0', `FN:${e(card.name)}`, `N:${structuredName(card.name)}`];
  if (card.organization) lines.push(`ORG:${c(card.organization)}`);
  if (card.title) lines.push(`TITLE:${e(card.title)}`);
  for (const phone of card.phones) lines.push(`TEL;VALUE=uri${typeParam(phone.label)}:tel:${phone.number}`);
  for (const email of card.emails) lines.push(`EMAIL${typeParam(email.label)}:${email.address}`);
  const a = card.address;
  if (a)
    lines.push(
      'ADR:;;' + [a.street, a.city, a.region, a.postal_code, a.country].map((part) => c(part ?? '')).join(';'),
    );
  // URI values are not TEXT: no escaping; URL's serialisation keeps them on one line.
  for (const link of card.links) lines.push(`URL:${new URL(link.url).href}`);
  if (card.note) lines.push(`NOTE:${e(card.note)}`);
  lines.push('END:VCARD');
  return lines.map(fold).join('\r\n') + '\r\n';
}

/**
 * The vCard with the card's photo (RFC 6350 6.2.4: PHOTO is a URI; vCard 4.0 embeds an image as a
 * data: URI, so the contact keeps its photo offline), before END:VCARD.
 */
export function withPhoto(vcard: string, png: Buffer): string {
  const end = 'END:VCARD\r\n';
  return vcard.slice(0, -end.length) + fold(`PHOTO:data:image/png;base64,${png.toString('base64')}`) + '\r\n' + end;
}

/** A file name for the download: the person's name in plain ASCII, `contact` when nothing is left. */
export function vcardFileName(card: BusinessCardPage): string {
  const ascii = card.name
    .normalize('NFKD')
    .replace(/[^A-Za-z0-9 _-]/g, '')
    .trim()
    .replace(/\s+/g, '-');
  return `${ascii.slice(0, 60) || 'contact'}.vcf`;
}
