// Short public slugs. 7 base62 characters give 62^7 (about 3.5e12) values, so a random one
// is unguessable in practice and collisions are rare; on a collision we draw again.
import { randomBase62 } from '../../shared/ids.ts';

export const SLUG_LENGTH = 7;
const MAX_ATTEMPTS = 8;

/**
 * Stands in for the slug of a code not yet saved (previews): scan URLs all have this length and
 * alphabet. Reserved below, so scanning a preview leads to no code.
 */
export const PREVIEW_SLUG = 'A'.repeat(SLUG_LENGTH);

/**
 * Paths the server answers itself, and a few it may; a slug must never shadow one of them, in
 * any case (a custom `GraphQL` would confuse people as much as `graphql` would the server).
 */
const RESERVED = new Set([
  'v1',
  'v2',
  'v3',
  'graphql',
  'healthz',
  'readyz',
  'metrics',
  'docs',
  'dashboard',
  'problems',
  'oauth',
  'api',
  'assets',
  'static',
  'admin',
  PREVIEW_SLUG.toLowerCase(),
]);

/** A custom slug: 3-64 of A-Z a-z 0-9 _ -, compared case-sensitively like random ones. */
export const CUSTOM_SLUG = /^[A-Za-z0-9_-]{3,64}$/;

/** True for a first path segment that belongs to the server, not to a code. */
export function isReservedPath(segment: string): boolean {
  return RESERVED.has(segment.toLowerCase());
}

/**
 * Draws slugs and calls `attempt` with each until it succeeds. `attempt` reserves the slug (a
 * tombstone that outlives the code, so a slug is never handed out twice) and answers null when
 * another code holds it already, for another draw.
 */
export async function withNewSlug<T>(attempt: (slug: string) => Promise<T | null>): Promise<T> {
  for (let tries = 0; tries < MAX_ATTEMPTS; tries++) {
    const slug = randomBase62(SLUG_LENGTH);
    if (isReservedPath(slug)) continue;
    const result = await attempt(slug);
    if (result !== null) return result;
  }
  throw new Error(`No free slug after ${MAX_ATTEMPTS} attempts; the slug space may be nearly full`);
}
