// Static code types: their content is encoded straight into the QR image (no scan URL, no
// redirect), so each type has a schema for its content, and content-payloads.ts builds the
// standard payload string that phones' camera apps recognise. The schemas are the single place
// where static content is validated, for REST and GraphQL alike. The shapes and types are in
// content-shapes.ts, below both this file and the payload builder.
import type { z } from 'zod';
import { payloadFor } from './content-payloads.ts';
import {
  emailShape,
  geoShape,
  MAX_PAYLOAD_BYTES,
  phoneShape,
  smsShape,
  textShape,
  TOO_LONG_MESSAGE,
  utf8ByteLength,
  vcardShape,
  wifiShape,
  type StaticContent,
  type StaticType,
} from './content-shapes.ts';

export * from './content-shapes.ts';
export { escapeVcardText, escapeWifi, payloadFor } from './content-payloads.ts';

// ---------------------------------------------------------------------------------------------
// Schemas: shape plus a check that the whole payload fits in a QR code. The check runs only
// when everything else is valid, and reports at the content object itself (path []).

function fitsInQrCode<T extends StaticType, S extends z.ZodType<StaticContent[T]>>(type: T, schema: S) {
  return schema.refine((content) => utf8ByteLength(payloadFor(type, content)) <= MAX_PAYLOAD_BYTES, {
    message: TOO_LONG_MESSAGE,
    // Some field checks (refines) let parsing go on; build payloads only from fully valid content.
    when: (payload) => payload.issues.length === 0,
  });
}

/** One schema per static type, for the `content` of a code of that type. */
export const staticContentSchemas = {
  text: fitsInQrCode('text', textShape),
  email: fitsInQrCode('email', emailShape),
  phone: fitsInQrCode('phone', phoneShape),
  sms: fitsInQrCode('sms', smsShape),
  wifi: fitsInQrCode('wifi', wifiShape),
  vcard: fitsInQrCode('vcard', vcardShape),
  geo: fitsInQrCode('geo', geoShape),
} satisfies { [T in StaticType]: z.ZodType<StaticContent[T], unknown> };
