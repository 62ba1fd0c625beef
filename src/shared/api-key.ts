// API key format and hashing. Keys are 40 base62 characters (about 238 bits) behind a
// recognisable prefix so secret scanners can spot leaked ones; only a SHA-256 is stored.
import { hashToken } from './token-hash.ts';
import { randomBase62 } from './ids.ts';

export const API_KEY_PREFIX = 'qrk_';
const SECRET_LENGTH = 40;
/** How much of a key is kept in clear to tell keys apart in listings. */
const DISPLAY_PREFIX_LENGTH = API_KEY_PREFIX.length + 6;

export function generateApiKey(): { key: string; displayPrefix: string; hash: string } {
  const key = API_KEY_PREFIX + randomBase62(SECRET_LENGTH);
  return { key, displayPrefix: key.slice(0, DISPLAY_PREFIX_LENGTH), hash: hashApiKey(key) };
}

/**
 * The lookup key for a presented secret. Looking keys up by their hash (rather than comparing
 * secrets) means no comparison ever runs over the secret itself, so timing reveals nothing.
 */
export function hashApiKey(key: string): string {
  return hashToken(key);
}

/** Cheap shape check so obvious garbage never reaches the database. */
export function looksLikeApiKey(value: string): boolean {
  return value.length === API_KEY_PREFIX.length + SECRET_LENGTH && value.startsWith(API_KEY_PREFIX);
}
