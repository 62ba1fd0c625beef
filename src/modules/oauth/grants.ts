// The consent an account gave OAuth clients, as the account manages it: listed, withdrawn, and
// ended when the API key that approved it is revoked. Withdrawing a grant deletes its refresh
// tokens and codes at once; its access tokens (JWTs, never stored) carry the grant's id and are
// refused once the grant is gone: at once in this process, in others once told (onGrantEnded, over
// REDIS_URL) or at the latest within API_KEY_CACHE_TTL_MS.
import { LRUCache } from 'lru-cache';
import type { Knex } from 'knex';
import { inTransaction } from '../../db/transaction.ts';
import { notFound } from '../../shared/errors.ts';
import type { RecordAudit } from '../audit/index.ts';
import type { Principal } from '../../shared/principal.ts';
import type { GrantStore, OAuthGrant } from './grant-store.ts';

export interface GrantsServiceDeps {
  db: Knex;
  store: GrantStore;
  /** Records a grant the account withdrew in the audit log, in the same transaction. */
  audit: RecordAudit;
  cacheTtlMs: number;
  /** Told after a grant ended (deleted), so other processes refuse its tokens too. */
  onGrantEnded?: (grantId: string) => void;
}

export function createGrantsService({ db, store, audit, cacheTtlMs, onGrantEnded }: GrantsServiceDeps) {
  // Grant id -> alive. Its TTL bounds how long a grant withdrawn by another process keeps working
  // here when that process's invalidation does not arrive.
  const alive = new LRUCache<string, { live: boolean }>({ max: 10_000, ttl: Math.max(cacheTtlMs, 1) });
  // Bumped by every drop: a lookup that read the database before a drop must not cache what it read.
  let generation = 0;

  /** The grant is gone (already deleted): refused here from now on, and the others are told. */
  function ended(grantId: string): void {
    generation++;
    alive.set(grantId, { live: false });
    onGrantEnded?.(grantId);
  }

  async function end(accountId: string, id: string): Promise<boolean> {
    const deleted = await store.delete(accountId, id);
    // Only a grant of this account: another account's id must change nothing, not even a cache.
    if (deleted) ended(id);
    return deleted;
  }

  return {
    /** The caller's grants, newest first. */
    async list(principal: Principal): Promise<OAuthGrant[]> {
      return store.list(principal.accountId);
    },

    async get(principal: Principal, id: string): Promise<OAuthGrant> {
      const grant = await store.find(principal.accountId, id);
      if (!grant) throw notFound('OAuth grant', id);
      return grant;
    },

    /** Withdraws a grant: its refresh tokens and codes are deleted, its access tokens refused. */
    async revoke(principal: Principal, id: string): Promise<void> {
      // Read first, for the log: what the account withdrew from which client.
      const grant = await store.find(principal.accountId, id);
      const deleted = await inTransaction(db, async (trx) => {
        if (!grant || !(await store.delete(principal.accountId, id, trx))) return false;
        const summary = { client_id: grant.clientId, scopes: grant.scopes };
        await audit(
          principal,
          { action: 'oauth_grant.revoked', objectType: 'oauth_grant', objectId: id, summary },
          trx,
        );
        return true;
      });
      if (!deleted) throw notFound('OAuth grant', id);
      ended(id);
    },

    /** Called when an API key is revoked: what it approved ends with it. */
    async keyRevoked(accountId: string, keyId: string): Promise<void> {
      for (const id of await store.approvedBy(accountId, keyId)) await end(accountId, id);
    },

    /** Called when an API key is rotated: its replacement now answers for what it approved. */
    async keyReplaced(accountId: string, fromKeyId: string, toKeyId: string): Promise<void> {
      await store.moveApprover(accountId, fromKeyId, toKeyId);
    },

    /** Records which key approved a grant on the consent page. */
    async approved(grantId: string, keyId: string): Promise<void> {
      await store.recordApprover(grantId, keyId);
    },

    /** The OAuth server ended a grant itself: its tokens are refused from now on (here, and elsewhere once told). */
    ended,

    /** Another process ended this grant: read it again (it is gone) on its next token. */
    forget(grantId: string): void {
      generation++;
      alive.delete(grantId);
    },

    /** Invalidations may have been missed (Redis was away): drop every cached grant. */
    forgetAll(): void {
      generation++;
      alive.clear();
    },

    /** Whether an access token's grant still stands (cached). */
    async isLive(grantId: string): Promise<boolean> {
      const hit = alive.get(grantId);
      if (hit) return hit.live;
      const readAt = generation;
      const live = await store.exists(grantId);
      if (readAt === generation) alive.set(grantId, { live });
      return live;
    },
  };
}

export type GrantsService = ReturnType<typeof createGrantsService>;
