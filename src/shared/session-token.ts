// The session cookie's secret and what is derived from it. Only a SHA-256 of the token is stored
// (a database dump signs nobody in). The CSRF token is derived from the session token rather than
// stored: only whoever holds the cookie's value can compute it, a cross-site page cannot read the
// cookie, and the edge checks it without a database read.
import { createHash, timingSafeEqual } from 'node:crypto';
import { randomBase62 } from './ids.ts';
import { hashToken } from './token-hash.ts';

export const SESSION_COOKIE = 'qr_session';
const PREFIX = 'qrs_';
const SECRET_LENGTH = 43;

export function generateSessionToken(): { token: string; hash: string } {
  const token = PREFIX + randomBase62(SECRET_LENGTH);
  return { token, hash: hashToken(token) };
}

/** Cheap shape check so a garbage cookie never reaches the database. */
export const looksLikeSessionToken = (value: string): boolean =>
  value.length === PREFIX.length + SECRET_LENGTH && value.startsWith(PREFIX);

/** The session's CSRF token: a one-way derivation, under its own label so it is never the stored hash. */
export const csrfTokenOf = (token: string): string =>
  createHash('sha256').update(`csrf:${token}`, 'utf8').digest('base64url');

/** Whether `presented` is the session's CSRF token, compared in constant time. */
export function csrfTokenMatches(token: string, presented: string | undefined): boolean {
  if (!presented) return false;
  const expected = Buffer.from(csrfTokenOf(token));
  const given = Buffer.from(presented);
  return given.length === expected.length && timingSafeEqual(given, expected);
}
