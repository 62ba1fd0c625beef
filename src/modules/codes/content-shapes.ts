// Static code types and the shapes of their content, with the types parsed content has. The
// payload-size check is added over these shapes in content-types.ts, which needs the payload
// builder (content-payloads.ts); the builder needs only these types, so neither imports the other.
import { z } from 'zod';
import { httpUrlSchema } from '../../shared/url.ts';

export const STATIC_TYPES = ['text', 'email', 'phone', 'sms', 'wifi', 'vcard', 'geo'] as const;
export type StaticType = (typeof STATIC_TYPES)[number];

export function isStaticType(value: unknown): value is StaticType {
  return typeof value === 'string' && (STATIC_TYPES as readonly string[]).includes(value);
}

/**
 * Largest payload, in UTF-8 bytes, that we put into a QR code. The largest QR code (version 40)
 * holds 2953 bytes at error correction L and 2331 at M, so 2000 fits at L and M with room to
 * spare. At Q (1663) and H (1273) a payload near this limit does not fit: the renderer has to
 * lower the error correction level for it.
 */
export const MAX_PAYLOAD_BYTES = 2000;

export const TOO_LONG_MESSAGE = 'is too long to fit in a QR code';

export function utf8ByteLength(value: string): number {
  return Buffer.byteLength(value, 'utf8');
}

// ---------------------------------------------------------------------------------------------
// Field building blocks. Every string has a maximum length so that a payload stays small; the
// per-type refine below checks the built payload as a whole.

const required = (what: string) => (issue: { input?: unknown }) =>
  issue.input === undefined ? 'is required' : `must be ${what}`;

/** Half of a surrogate pair alone: JSON can carry it (\ud800), but it is no text, and
 * encodeURIComponent (mailto:) throws on it. */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
const wellFormed = [(v: string) => !LONE_SURROGATE.test(v), 'must be valid Unicode text'] as const;

/** A trimmed, non-empty string of at most `max` characters. */
export function line(max: number) {
  return z
    .string({ error: required('a string') })
    .trim()
    .min(1, 'must not be empty')
    .max(max, `must be at most ${max} characters`)
    .refine(...wellFormed);
}

/** A trimmed string, possibly empty, of at most `max` characters. */
function optionalLine(max: number) {
  return z
    .string({ error: required('a string') })
    .trim()
    .max(max, `must be at most ${max} characters`)
    .refine(...wellFormed);
}

/** A string kept as given (spaces matter), possibly empty, of at most `max` characters. */
export function freeText(max: number) {
  return z
    .string({ error: required('a string') })
    .max(max, `must be at most ${max} characters`)
    .refine(...wellFormed);
}

const MAX_EMAIL_LENGTH = 254;
export const emailAddress = z
  .string({ error: required('a string') })
  .trim()
  .min(1, 'must not be empty')
  .max(MAX_EMAIL_LENGTH, `must be at most ${MAX_EMAIL_LENGTH} characters`)
  .pipe(z.email({ error: 'must be an email address such as name@example.com' }));

/** Longest phone number as typed, separators included. */
const MAX_PHONE_INPUT_LENGTH = 32;
export const phoneNumber = z
  .string({ error: required('a string') })
  .trim()
  .min(1, 'must not be empty')
  .max(MAX_PHONE_INPUT_LENGTH, `must be at most ${MAX_PHONE_INPUT_LENGTH} characters`)
  .regex(
    /^\+?[0-9 ()-]+$/,
    'must be a phone number: digits with an optional leading +; spaces, dashes and parentheses are allowed',
  )
  // Separators are for people; the payload carries only + and digits.
  .transform((value) => value.replace(/[ ()-]/g, ''))
  .refine((value) => /^\+?[0-9]{3,15}$/.test(value), 'must have between 3 and 15 digits');

function coordinate(limit: number) {
  const message = `must be a number between -${limit} and ${limit}`;
  return z
    .number({ error: (issue) => (issue.input === undefined ? 'is required' : message) })
    .min(-limit, message)
    .max(limit, message);
}

// ---------------------------------------------------------------------------------------------
// Shapes. The JSDoc on each schema is the documented content shape of that type.

/**
 * `text`: free text, encoded as is.
 *
 * ```json
 * { "text": "Hello, world" }
 * ```
 * - `text` (string, required): 1 to 2000 characters, kept as given (not trimmed).
 */
export const textShape = z.strictObject({
  text: freeText(2000).min(1, 'must not be empty'),
});

/**
 * `email`: a `mailto:` link that opens a new message.
 *
 * ```json
 * { "to": "info@example.com", "subject": "Hello", "body": "Hi there" }
 * ```
 * - `to` (string, required): one email address, at most 254 characters.
 * - `subject` (string, optional): at most 255 characters.
 * - `body` (string, optional): at most 1000 characters; line breaks allowed.
 */
export const emailShape = z.strictObject({
  to: emailAddress,
  subject: freeText(255).optional(),
  body: freeText(1000).optional(),
});

/**
 * `phone`: a `tel:` link that starts a call.
 *
 * ```json
 * { "number": "+49 30 123456" }
 * ```
 * - `number` (string, required): an optional leading `+` and 3 to 15 digits; spaces, dashes
 *   and parentheses may be used in the input and are removed (stored as `+4930123456`).
 */
export const phoneShape = z.strictObject({
  number: phoneNumber,
});

/**
 * `sms`: opens a text message to a number, optionally prefilled.
 *
 * ```json
 * { "number": "+49 30 123456", "body": "Hello" }
 * ```
 * - `number` (string, required): as for `phone`.
 * - `body` (string, optional): at most 1000 characters.
 */
export const smsShape = z.strictObject({
  number: phoneNumber,
  body: freeText(1000).optional(),
});

export const WIFI_ENCRYPTIONS = ['WPA', 'WEP', 'nopass'] as const;
export type WifiEncryption = (typeof WIFI_ENCRYPTIONS)[number];
const MAX_SSID_BYTES = 32;

/**
 * `wifi`: joins a Wi-Fi network.
 *
 * ```json
 * { "ssid": "Café Guest", "password": "s3cret;pass", "encryption": "WPA", "hidden": false }
 * ```
 * - `ssid` (string, required): the network name, 1 to 32 bytes of UTF-8, kept as given.
 * - `password` (string): required for `WPA` (8 to 63 characters, or 64 hex digits) and `WEP`
 *   (1 to 64 characters); must be left out for `nopass`.
 * - `encryption` (`"WPA"` | `"WEP"` | `"nopass"`, optional): default `"WPA"` (also covers WPA2/WPA3 personal).
 * - `hidden` (boolean, optional): true if the network does not broadcast its name.
 */
export const wifiShape = z
  .strictObject({
    ssid: freeText(MAX_SSID_BYTES)
      .min(1, 'must not be empty')
      .refine((value) => utf8ByteLength(value) <= MAX_SSID_BYTES, `must be at most ${MAX_SSID_BYTES} bytes (UTF-8)`),
    password: freeText(64).optional(),
    encryption: z.enum(WIFI_ENCRYPTIONS, { error: `must be one of ${WIFI_ENCRYPTIONS.join(', ')}` }).default('WPA'),
    hidden: z.boolean({ error: 'must be true or false' }).optional(),
  })
  .superRefine((wifi, ctx) => {
    const { password, encryption } = wifi;
    if (encryption === 'nopass') {
      if (password !== undefined) {
        ctx.addIssue({ code: 'custom', path: ['password'], message: 'must be left out when encryption is nopass' });
      }
      return;
    }
    if (password === undefined || password.length === 0) {
      ctx.addIssue({ code: 'custom', path: ['password'], message: `is required when encryption is ${encryption}` });
      return;
    }
    if (encryption === 'WPA' && !/^[0-9a-fA-F]{64}$/.test(password) && (password.length < 8 || password.length > 63)) {
      ctx.addIssue({
        code: 'custom',
        path: ['password'],
        message: 'must be 8 to 63 characters (or 64 hex digits) for WPA',
      });
    }
  });

/** A postal address as a vCard's ADR holds it (the vcard type's and a business card page's). */
export const postalAddressShape = z.strictObject(
  {
    street: optionalLine(200).optional(),
    city: optionalLine(100).optional(),
    region: optionalLine(100).optional(),
    postal_code: optionalLine(20).optional(),
    country: optionalLine(100).optional(),
  },
  { error: required('an object') },
);

/**
 * `vcard`: a contact card (vCard 3.0) that the phone offers to save.
 *
 * ```json
 * {
 *   "first_name": "Ada", "last_name": "Lovelace", "organization": "Analytical Engines Ltd",
 *   "title": "Programmer", "phones": ["+44 20 7946 0000"], "emails": ["ada@example.com"],
 *   "url": "https://example.com",
 *   "address": { "street": "1 Main St", "city": "London", "region": "", "postal_code": "NW1", "country": "UK" },
 *   "note": "Met at the conference"
 * }
 * ```
 * - `first_name` (string, required): 1 to 100 characters.
 * - `last_name` (string, optional): at most 100 characters.
 * - `organization` (string, optional): at most 200 characters.
 * - `title` (string, optional): job title, at most 100 characters.
 * - `phones` (string[], optional): at most 5 phone numbers, each as for `phone`.
 * - `emails` (string[], optional): at most 5 email addresses.
 * - `url` (string, optional): an absolute http(s) URL.
 * - `address` (object, optional): `street` (≤ 200), `city` (≤ 100), `region` (≤ 100),
 *   `postal_code` (≤ 20), `country` (≤ 100), all optional strings.
 * - `note` (string, optional): at most 1000 characters; line breaks allowed.
 *
 * Strings are trimmed; non-ASCII text is kept as is (UTF-8).
 */
export const vcardShape = z.strictObject({
  first_name: line(100),
  last_name: line(100).optional(),
  organization: line(200).optional(),
  title: line(100).optional(),
  phones: z
    .array(phoneNumber, { error: required('a list of phone numbers') })
    .max(5, 'must have at most 5 entries')
    .optional(),
  emails: z
    .array(emailAddress, { error: required('a list of email addresses') })
    .max(5, 'must have at most 5 entries')
    .optional(),
  url: httpUrlSchema.optional(),
  address: postalAddressShape.optional(),
  note: optionalLine(1000).optional(),
});

/**
 * `geo`: a location that opens in a maps app.
 *
 * ```json
 * { "latitude": 52.520008, "longitude": 13.404954 }
 * ```
 * - `latitude` (number, required): -90 to 90.
 * - `longitude` (number, required): -180 to 180.
 * Encoded with at most 6 decimals (about 10 cm).
 */
export const geoShape = z.strictObject({
  latitude: coordinate(90),
  longitude: coordinate(180),
});

export type TextContent = z.output<typeof textShape>;
export type EmailContent = z.output<typeof emailShape>;
export type PhoneContent = z.output<typeof phoneShape>;
export type SmsContent = z.output<typeof smsShape>;
export type WifiContent = z.output<typeof wifiShape>;
export type VcardContent = z.output<typeof vcardShape>;
export type GeoContent = z.output<typeof geoShape>;

/** The parsed (output) content of each static type. */
export type StaticContent = {
  text: TextContent;
  email: EmailContent;
  phone: PhoneContent;
  sms: SmsContent;
  wifi: WifiContent;
  vcard: VcardContent;
  geo: GeoContent;
};
