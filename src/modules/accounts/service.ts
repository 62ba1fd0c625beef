import { LRUCache } from 'lru-cache';
import type { Knex } from 'knex';
import { inTransaction } from '../../db/transaction.ts';
import { newId } from '../../shared/ids.ts';
import type { Principal } from '../../shared/principal.ts';
import { generateApiKey, hashApiKey, looksLikeApiKey } from './api-key.ts';
import type { AccountsStore } from './store.ts';

export interface IssuedKey {
  accountId: string;
  accountName: string;
  keyId: string;
  /** The secret, shown this once. */
  key: string;
  prefix: string;
}

export function createAccountsService(db: Knex, store: AccountsStore, options: { cacheTtlMs: number }) {
  // Hash -> principal. Bounds how long a revoked key keeps working in this process.
  const cache = new LRUCache<string, Principal>({ max: 10_000, ttl: Math.max(options.cacheTtlMs, 1) });

  return {
    /**
     * Issues a new API key for the named account, creating the account when it does not
     * exist yet. Used by the CLI on a fresh install and by tests.
     */
    async issueKey(accountName: string, keyName = 'default'): Promise<IssuedKey> {
      const now = new Date();
      const generated = generateApiKey();
      const keyId = newId('key');
      return inTransaction(db, async (trx) => {
        let account = await store.findAccountByName(accountName, trx);
        if (!account) {
          account = { id: newId('acct'), name: accountName, createdAt: now };
          await store.insertAccount(account, trx);
        }
        await store.insertApiKey(
          {
            id: keyId,
            accountId: account.id,
            name: keyName,
            prefix: generated.displayPrefix,
            secretHash: generated.hash,
            createdAt: now,
            expiresAt: null,
            revokedAt: null,
          },
          trx,
        );
        return { accountId: account.id, accountName, keyId, key: generated.key, prefix: generated.displayPrefix };
      });
    },

    /** The principal for a presented key, or null when the key is unknown, revoked or expired. */
    async authenticate(presented: string): Promise<Principal | null> {
      if (!looksLikeApiKey(presented)) return null;
      const hash = hashApiKey(presented);
      const cached = cache.get(hash);
      if (cached) return cached;
      const record = await store.findApiKeyByHash(hash);
      const now = new Date();
      if (!record || record.revokedAt || (record.expiresAt && record.expiresAt <= now)) return null;
      const principal: Principal = Object.freeze({ accountId: record.accountId, keyId: record.id });
      // A key that expires soon must not outlive its expiry in the cache.
      const ttl = record.expiresAt ? Math.min(cache.ttl, record.expiresAt.getTime() - now.getTime()) : cache.ttl;
      cache.set(hash, principal, { ttl });
      // Recorded on cache fills only, so "last used" costs one write per key per TTL, not per request.
      await store.touchApiKey(record.id, now);
      return principal;
    },
  };
}

export type AccountsService = ReturnType<typeof createAccountsService>;
