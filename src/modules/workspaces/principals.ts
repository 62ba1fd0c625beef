// Which workspace a signed-in request acts in, and with which scopes: the membership named by
// Qr-Workspace (or the latest used), cached per process so that a request reads nothing from the
// database. A role change or removal drops the member's entries here at once (forgetUser, called
// by the composition root after the change) and in the other processes through the invalidation
// bus; without Redis, they follow within cacheTtlMs.
import { LRUCache } from 'lru-cache';
import type { Principal } from '../../shared/principal.ts';
import { scopesOfRole } from '../../shared/roles.ts';
import type { Membership, MembershipsStore } from './store.ts';

/** "Last used" of a membership is written at most this often per process. */
const TOUCH_INTERVAL_MS = 60_000;

export function createWorkspacePrincipals(options: {
  memberships: MembershipsStore;
  /** How long this process keeps a user's membership (0: read it on every request). */
  cacheTtlMs: number;
  now?: () => number;
}) {
  const { memberships, cacheTtlMs } = options;
  const now = options.now ?? Date.now;
  // By user and named workspace ('' for the latest used).
  const cache = new LRUCache<string, Membership>({ max: 10_000, ttl: Math.max(cacheTtlMs, 1) });
  const touched = new LRUCache<string, true>({ max: 10_000, ttl: TOUCH_INTERVAL_MS });
  // Bumped by every drop: a lookup that read the database before a drop must not cache what it read.
  let generation = 0;

  /** Remembers the workspace as the latest used, at most once a minute per membership and process. */
  async function used(membership: Membership): Promise<void> {
    const key = `${membership.userId}/${membership.accountId}`;
    if (touched.has(key)) return;
    touched.set(key, true);
    await memberships.touch(membership.userId, membership.accountId, new Date(now()));
  }

  return {
    /**
     * The principal a signed-in request acts with: in the named workspace, or without a name in
     * the latest used; its scopes are its role's. Null when the user is no member of it.
     */
    async principalFor(userId: string, workspaceId: string | null): Promise<Principal | null> {
      const key = `${userId}/${workspaceId ?? ''}`;
      let membership = cache.get(key);
      if (!membership) {
        const readAt = generation;
        const found = workspaceId ? await memberships.find(userId, workspaceId) : await memberships.latest(userId);
        if (!found) return null;
        membership = found;
        if (readAt === generation && cacheTtlMs > 0) cache.set(key, membership);
      }
      await used(membership);
      return { accountId: membership.accountId, keyId: userId, scopes: scopesOfRole(membership.role) };
    },

    /** The user's memberships changed (here or in another process): drop them here. */
    forgetUser(userId: string): void {
      generation++;
      for (const key of cache.keys()) if (key.startsWith(`${userId}/`)) cache.delete(key);
    },

    /** Invalidations may have been missed (Redis was away): drop every cached membership. */
    forgetAll(): void {
      generation++;
      cache.clear();
    },
  };
}

export type WorkspacePrincipals = ReturnType<typeof createWorkspacePrincipals>;
