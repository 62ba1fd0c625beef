// Standard Webhooks signing (https://www.standardwebhooks.com): secrets are `whsec_` + base64
// of random bytes; the signature is `v1,` + base64 HMAC-SHA256 of `id.timestamp.body` under
// the secret's bytes. Receivers verify with any Standard Webhooks (or Svix) library.
import { createHmac, randomBytes } from 'node:crypto';

export const SECRET_PREFIX = 'whsec_';
/** 32 bytes: the top of the 24-64 byte range the convention recommends. */
const SECRET_BYTES = 32;

export function generateSecret(): string {
  return SECRET_PREFIX + randomBytes(SECRET_BYTES).toString('base64');
}

export function sign(secret: string, id: string, timestampSeconds: number, body: string): string {
  const key = Buffer.from(secret.slice(SECRET_PREFIX.length), 'base64');
  return `v1,${createHmac('sha256', key).update(`${id}.${timestampSeconds}.${body}`).digest('base64')}`;
}

/**
 * The three headers of one attempt. With several secrets (during a rotation) the signature
 * header lists one signature per secret, space-separated; a receiver accepts any that matches.
 */
export function signedHeaders(secrets: string[], id: string, at: Date, body: string): Record<string, string> {
  const timestamp = Math.floor(at.getTime() / 1000);
  return {
    'webhook-id': id,
    'webhook-timestamp': String(timestamp),
    'webhook-signature': secrets.map((secret) => sign(secret, id, timestamp, body)).join(' '),
  };
}

/**
 * The body of an event: `{ type, timestamp, data }`. Built by concatenation so the stored
 * payload goes out byte for byte, the same on every attempt.
 */
export function eventBody(type: string, createdAt: Date, payload: string): string {
  return `{"type":${JSON.stringify(type)},"timestamp":${JSON.stringify(createdAt.toISOString())},"data":${payload}}`;
}
