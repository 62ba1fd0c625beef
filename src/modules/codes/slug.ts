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

/** Paths the server answers itself; a slug must never shadow one of them. */
const RESERVED = new Set(['v1', 'v2', 'graphql', 'healthz', 'readyz', 'metrics', 'docs', 'dashboard', 'problems', PREVIEW_SLUG.toLowerCase()]);

/** True for a first path segment that belongs to the server, not to a code. */
export function isReservedPath(segment: string): boolean {
  return RESERVED.has(segment.toLowerCase());
}

/**
 * Draws slugs until `reserve` accepts one. `reserve` records the slug for good (a tombstone
 * outlives the code), so a slug is never handed out twice.
 */
export async function allocateSlug(reserve: (slug: string) => Promise<boolean>): Promise<string> {
  for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
    const slug = randomBase62(SLUG_LENGTH);
    if (isReservedPath(slug)) continue;
    if (await reserve(slug)) return slug;
  }
  throw new Error(`No free slug after ${MAX_ATTEMPTS} attempts; the slug space may be nearly full`);
}
