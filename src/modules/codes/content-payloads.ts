// Builds the string a static code's QR image encodes, in the form phones' camera apps recognise
// for each type (mailto:, tel:, SMSTO:, WIFI:, vCard, geo:), with each format's own escaping.
// The content types come from content-shapes.ts, below content-types.ts, whose schemas call
// payloadFor to check the size of the finished payload.
import type {
  EmailContent,
  GeoContent,
  PhoneContent,
  SmsContent,
  StaticContent,
  StaticType,
  VcardContent,
  WifiContent,
} from './content-shapes.ts';

/** mailto: per RFC 6068: hfields percent-encoded with encodeURIComponent (space is %20, not +). */
function emailPayload(email: EmailContent): string {
  // The address is limited to [A-Za-z0-9._'+-] and @ by the schema, all allowed verbatim in
  // a mailto: path; encode anything else defensively.
  const to = encodeURIComponent(email.to).replace(/%40/g, '@').replace(/%2B/gi, '+');
  const fields: string[] = [];
  if (email.subject) fields.push(`subject=${encodeURIComponent(email.subject)}`);
  // RFC 6068 §5: line breaks in a body are CRLF, percent-encoded as %0D%0A.
  if (email.body) fields.push(`body=${encodeURIComponent(email.body.replace(/\r\n|\r|\n/g, '\r\n'))}`);
  return `mailto:${to}${fields.length > 0 ? `?${fields.join('&')}` : ''}`;
}

function phonePayload(phone: PhoneContent): string {
  return `tel:${phone.number}`;
}

/**
 * `SMSTO:number:body`, the form ZXing introduced. It is what Android (Google Lens, ZXing-based
 * scanners) and the iOS camera all recognise; the `sms:` URI of RFC 5724 is handled unevenly
 * (iOS and Android disagree on `?body=` vs `&body=`, and some readers drop the body). The body
 * is everything after the second colon, so it needs no escaping.
 */
function smsPayload(sms: SmsContent): string {
  return sms.body ? `SMSTO:${sms.number}:${sms.body}` : `SMSTO:${sms.number}`;
}

/** ZXing's Wi-Fi escaping: a backslash before `\`, `;`, `,`, `:` and `"`. */
export function escapeWifi(value: string): string {
  return value.replace(/[\\;,:"]/g, '\\$&');
}

/** `WIFI:T:<enc>;S:<ssid>;P:<password>;H:true;;` as specified by ZXing. */
function wifiPayload(wifi: WifiContent): string {
  let payload = `WIFI:T:${wifi.encryption};S:${escapeWifi(wifi.ssid)};`;
  if (wifi.encryption !== 'nopass' && wifi.password !== undefined) payload += `P:${escapeWifi(wifi.password)};`;
  if (wifi.hidden === true) payload += 'H:true;';
  return `${payload};`;
}

/** vCard TEXT escaping (RFC 2426 §4, RFC 6350 §3.4): `\`, `,`, `;` and line breaks. */
export function escapeVcardText(value: string): string {
  return value.replace(/[\\,;]/g, '\\$&').replace(/\r\n|\r|\n/g, '\\n');
}

/**
 * vCard 3.0 (RFC 2426) with CRLF line endings. Lines are not folded at 75 octets: QR payloads
 * are short and scanners read long lines fine, while folding would cost bytes and trip up
 * some readers. Text is kept as UTF-8 without a CHARSET parameter (which is vCard 2.1 only).
 */
function vcardPayload(card: VcardContent): string {
  const e = escapeVcardText;
  const lines = ['BEGIN:VCARD', 'VERSION:3.0'];
  lines.push(`N:${e(card.last_name ?? '')};${e(card.first_name)};;;`);
  lines.push(`FN:${e([card.first_name, card.last_name].filter(Boolean).join(' '))}`);
  if (card.organization) lines.push(`ORG:${e(card.organization)}`);
  if (card.title) lines.push(`TITLE:${e(card.title)}`);
  for (const phone of card.phones ?? []) lines.push(`TEL:${phone}`);
  for (const email of card.emails ?? []) lines.push(`EMAIL:${email}`);
  // A URI value, not TEXT: no escaping. URL's serialisation drops stray tabs and line breaks
  // (which URL parsing ignores) and percent-encodes spaces, so the value stays on one line.
  if (card.url) lines.push(`URL:${URL.canParse(card.url) ? new URL(card.url).href : card.url}`);
  const address = card.address;
  if (address) {
    const parts = [address.street, address.city, address.region, address.postal_code, address.country];
    if (parts.some(Boolean)) lines.push(`ADR:;;${parts.map((part) => e(part ?? '')).join(';')}`);
  }
  if (card.note) lines.push(`NOTE:${e(card.note)}`);
  lines.push('END:VCARD');
  return lines.map((text) => `${text}\r\n`).join('');
}

/** At most 6 decimals, no trailing zeros, never exponent notation. */
function formatCoordinate(value: number): string {
  // After rounding to 6 decimals a non-zero value is at least 1e-6, which prints without an
  // exponent; -0 prints as 0.
  return String(Number(value.toFixed(6)));
}

/** `geo:lat,lon` (RFC 5870). */
function geoPayload(geo: GeoContent): string {
  return `geo:${formatCoordinate(geo.latitude)},${formatCoordinate(geo.longitude)}`;
}

const PAYLOAD_BUILDERS: { [T in StaticType]: (content: StaticContent[T]) => string } = {
  text: (content) => content.text,
  email: emailPayload,
  phone: phonePayload,
  sms: smsPayload,
  wifi: wifiPayload,
  vcard: vcardPayload,
  geo: geoPayload,
};

/**
 * The string the QR image encodes for validated (parsed) static content. Content that passed
 * `staticContentSchemas[type]` always yields at most MAX_PAYLOAD_BYTES bytes of UTF-8.
 */
export function payloadFor<T extends StaticType>(type: T, content: StaticContent[T]): string {
  const build = PAYLOAD_BUILDERS[type] as (content: StaticContent[T]) => string;
  return build(content);
}
