// Accounts and their API keys: issuing, listing, rotating, revoking, and authenticating a
// presented key. Management functions take the caller's principal first and see only its
// account: another account's key id is a 404, like one that never existed.
import { LRUCache } from 'lru-cache';
import type { Knex } from 'knex';
import { inTransaction } from '../../db/transaction.ts';
import { CLI_ACTOR } from '../../shared/actor.ts';
import { DomainError, notFound } from '../../shared/errors.ts';
import type { AuditChange, AuditedCaller, RecordAudit } from '../audit/index.ts';
import { newId } from '../../shared/ids.ts';
import { SCOPES, type Principal, type Scope } from '../../shared/principal.ts';
import { generateApiKey, hashApiKey, looksLikeApiKey } from '../../shared/api-key.ts';
import type { CreateKeyInput, RotateKeyInput } from './schemas.ts';
import type { AccountsStore, ApiKeyRecord } from './store.ts';

export interface IssuedKey {
  accountId: string;
  accountName: string;
  keyId: string;
  /** The secret, shown this once. */
  key: string;
  prefix: string;
}

export interface KeyWithSecret {
  apiKey: ApiKeyRecord;
  /** The secret, shown this once. */
  secret: string;
}

/** "Last used" is written at most this often per key and process. */
const TOUCH_INTERVAL_MS = 60_000;

/** A key is usable until revoked or past its expiry (a rotated key: past its grace period). */
export function keyStatus(key: ApiKeyRecord, now = new Date()): 'active' | 'expired' | 'revoked' {
  if (key.revokedAt) return 'revoked';
  if (key.expiresAt && key.expiresAt <= now) return 'expired';
  return 'active';
}

/** A credential may hand out only scopes it holds itself, so no key can mint a stronger one. */
export function assertCanGrant(principal: Principal, scopes: readonly Scope[]): void {
  const missing = scopes.filter((scope) => !principal.scopes.has(scope));
  if (missing.length > 0) {
    throw new DomainError(
      'forbidden',
      `A credential can only grant scopes it has itself; this one lacks: ${missing.join(', ')}.`,
    );
  }
}

export interface AccountsServiceOptions {
  cacheTtlMs: number;
  /** What a key approved ends with it (OAuth grants); called after the revocation is stored. */
  onKeyRevoked?: (accountId: string, keyId: string) => Promise<void>;
  /** A rotated key's approvals pass to its replacement; called after the rotation is stored. */
  onKeyReplaced?: (accountId: string, fromKeyId: string, toKeyId: string) => Promise<void>;
  /** Told after a key was revoked or rotated (stored), so other processes drop it too. */
  onKeyChanged?: (keyId: string) => void;
  /** Records key changes in the audit log, in the change's transaction. */
  audit: RecordAudit;
}

/** A new key in the audit log: what it may do, never its secret. */
const keyCreated = (key: ApiKeyRecord): AuditChange => ({
  action: 'api_key.created',
  objectType: 'api_key',
  objectId: key.id,
  summary: { name: key.name, prefix: key.prefix, scopes: key.scopes, expires_at: key.expiresAt },
});

export function createAccountsService(db: Knex, store: AccountsStore, options: AccountsServiceOptions) {
  // Hash -> principal. Its TTL bounds how long a key changed by another process keeps working
  // here when that process's invalidation does not arrive (no REDIS_URL, Redis away).
  const cache = new LRUCache<string, Principal>({ max: 10_000, ttl: Math.max(options.cacheTtlMs, 1) });
  const { audit } = options;
  const touched = new LRUCache<string, true>({ max: 10_000, ttl: TOUCH_INTERVAL_MS });
  // Bumped by every drop: a lookup that read the database before a drop must not cache what it read.
  let generation = 0;

  /** Drops the key from this process's cache. */
  function forget(keyId: string): void {
    generation++;
    for (const [hash, principal] of cache.entries()) if (principal.keyId === keyId) cache.delete(hash);
  }

  /** Drops the key here at once, then tells the other processes. */
  function changed(keyId: string): void {
    forget(keyId);
    options.onKeyChanged?.(keyId);
  }

  async function find(principal: Principal, id: string): Promise<ApiKeyRecord> {
    const key = await store.findApiKey(principal.accountId, id);
    if (!key) throw notFound('API key', id);
    return key;
  }

  /** Writes a new key of the account; the secret leaves only in the return value. */
  /** Who a key made by `principal` is recorded as made by: the person, or else the key or client acting. */
  const creatorOf = (principal: Principal) => principal.actor?.id ?? principal.keyId;

  async function insertKey(
    trx: Knex.Transaction | Knex,
    accountId: string,
    fields: { name: string; scopes: Scope[]; expiresAt: Date | null; createdBy: string },
    now: Date,
  ): Promise<KeyWithSecret> {
    const generated = generateApiKey();
    const apiKey: ApiKeyRecord = {
      id: newId('key'),
      accountId,
      name: fields.name,
      prefix: generated.displayPrefix,
      scopes: fields.scopes,
      createdAt: now,
      lastUsedAt: null,
      expiresAt: fields.expiresAt,
      revokedAt: null,
      replacedBy: null,
      createdBy: fields.createdBy,
    };
    await store.insertApiKey({ ...apiKey, secretHash: generated.hash }, trx);
    return { apiKey, secret: generated.key };
  }

  return {
    /** The account of this name (the oldest, should two share it), or null: the CLI's way to an account. */
    async findAccount(name: string): Promise<{ id: string; name: string } | null> {
      const account = await store.findAccountByName(name);
      return account ? { id: account.id, name: account.name } : null;
    },

    /**
     * Issues a new API key for the named account, creating the account when it does not
     * exist yet. Used by the CLI on a fresh install and by tests; every scope unless told.
     */
    async issueKey(
      accountName: string,
      options: { name?: string; scopes?: readonly Scope[] } = {},
    ): Promise<IssuedKey> {
      const now = new Date();
      return inTransaction(db, async (trx) => {
        let account = await store.findAccountByName(accountName, trx);
        if (!account) {
          account = { id: newId('acct'), name: accountName, createdAt: now };
          await store.insertAccount(account, trx);
        }
        const { apiKey, secret } = await insertKey(
          trx,
          account.id,
          {
            name: options.name ?? 'default',
            scopes: [...(options.scopes ?? SCOPES)],
            expiresAt: null,
            createdBy: CLI_ACTOR.id,
          },
          now,
        );
        await audit({ accountId: account.id, actor: CLI_ACTOR }, keyCreated(apiKey), trx);
        return { accountId: account.id, accountName, keyId: apiKey.id, key: secret, prefix: apiKey.prefix };
      });
    },

    /** A new key of the caller's account, with scopes the caller holds; the secret is shown once. */
    async create(principal: Principal, body: CreateKeyInput): Promise<KeyWithSecret> {
      assertCanGrant(principal, body.scopes);
      return inTransaction(db, async (trx) => {
        const created = await insertKey(
          trx,
          principal.accountId,
          { name: body.name, scopes: body.scopes, expiresAt: body.expires_at ?? null, createdBy: creatorOf(principal) },
          new Date(),
        );
        await audit(principal, keyCreated(created.apiKey), trx);
        return created;
      });
    },

    /** Every key of the caller's account, revoked and expired ones included, newest first. */
    async list(principal: Principal): Promise<ApiKeyRecord[]> {
      return store.listApiKeys(principal.accountId);
    },

    get: find,

    /**
     * A replacement key with the same name and scopes. The old key keeps working for the grace
     * period (default 24 hours, 0 to stop it at once) and is then expired; only a key that is
     * active and not already replaced can be rotated, and only by a caller holding all its scopes.
     */
    async rotate(
      principal: Principal,
      id: string,
      body: RotateKeyInput,
    ): Promise<KeyWithSecret & { previous: ApiKeyRecord }> {
      const now = new Date();
      const result = await inTransaction(db, async (trx) => {
        const old = await store.findApiKey(principal.accountId, id, trx);
        if (!old) throw notFound('API key', id);
        // The replacement's secret goes to the caller, so rotating is granting: a keys:manage
        // credential must not turn another key's wider scopes into a secret of its own.
        assertCanGrant(principal, old.scopes);
        if (keyStatus(old, now) !== 'active')
          throw new DomainError('conflict', `API key '${id}' is ${keyStatus(old, now)}; create a new key instead.`);
        if (old.replacedBy)
          throw new DomainError(
            'conflict',
            `API key '${id}' was already rotated; rotate its replacement '${old.replacedBy}' instead.`,
          );
        const expiresAt = body.expires_at === undefined ? old.expiresAt : body.expires_at;
        const created = await insertKey(
          trx,
          principal.accountId,
          { name: old.name, scopes: old.scopes, expiresAt, createdBy: creatorOf(principal) },
          now,
        );
        const graceEnd = new Date(now.getTime() + body.grace_period_seconds * 1000);
        const oldExpiry = old.expiresAt && old.expiresAt < graceEnd ? old.expiresAt : graceEnd;
        await store.updateApiKey(principal.accountId, id, { expiresAt: oldExpiry, replacedBy: created.apiKey.id }, trx);
        const summary = {
          replaced_by: created.apiKey.id,
          changes: { expires_at: { old: old.expiresAt, new: oldExpiry } },
        };
        await audit(principal, { action: 'api_key.rotated', objectType: 'api_key', objectId: id, summary }, trx);
        return { ...created, previous: { ...old, expiresAt: oldExpiry, replacedBy: created.apiKey.id } };
      });
      // The cached entry carries the old expiry as its TTL; drop it so the grace end applies.
      changed(id);
      await options.onKeyReplaced?.(principal.accountId, id, result.apiKey.id);
      return result;
    },

    /**
     * Revokes a key at once: this process refuses it from the next request, other processes
     * once told (onKeyChanged) or at the latest once their cache entry ages out
     * (API_KEY_CACHE_TTL_MS). The OAuth grants it approved end with it. Revoking twice is harmless.
     */
    async revoke(principal: Principal, id: string): Promise<void> {
      const key = await find(principal, id);
      if (!key.revokedAt) {
        await inTransaction(db, async (trx) => {
          await store.updateApiKey(principal.accountId, id, { revokedAt: new Date() }, trx);
          const summary = { name: key.name, prefix: key.prefix };
          await audit(principal, { action: 'api_key.revoked', objectType: 'api_key', objectId: id, summary }, trx);
        });
      }
      changed(id);
      // Also when revoked before: a grant given in the meantime (a race) ends too.
      await options.onKeyRevoked?.(principal.accountId, id);
    },

    /**
     * Revokes, in `trx`, the account's keys that `createdBy` made (a member removed without keeping
     * them), and the keys those keys made or rotated into, and so on: a key made with a member's key
     * is the member's too. Each is audited; returns their ids for keysRevoked once committed.
     */
    async revokeKeysCreatedBy(
      accountId: string,
      createdBy: string,
      by: AuditedCaller,
      trx: Knex.Transaction,
    ): Promise<string[]> {
      const revoked: string[] = [];
      for (let makers = [createdBy]; makers.length > 0;) {
        const made: string[] = [];
        for (const maker of makers)
          for (const key of await store.activeKeysCreatedBy(accountId, maker, trx)) {
            await store.updateApiKey(accountId, key.id, { revokedAt: new Date() }, trx);
            const summary = { name: key.name, prefix: key.prefix, with_member: createdBy };
            await audit(by, { action: 'api_key.revoked', objectType: 'api_key', objectId: key.id, summary }, trx);
            made.push(key.id);
          }
        revoked.push(...made);
        makers = made;
      }
      return revoked;
    },

    /** After revokeKeysCreatedBy committed: every process stops the keys, and their OAuth grants end. */
    async keysRevoked(accountId: string, ids: readonly string[]): Promise<void> {
      for (const id of ids) {
        changed(id);
        await options.onKeyRevoked?.(accountId, id);
      }
    },

    /** The principal for a presented key, or null when the key is unknown, revoked or expired. */
    async authenticate(presented: string): Promise<Principal | null> {
      if (!looksLikeApiKey(presented)) return null;
      const hash = hashApiKey(presented);
      const cached = cache.get(hash);
      if (cached) return cached;
      const readAt = generation;
      const record = await store.findApiKeyByHash(hash);
      const now = new Date();
      if (!record || keyStatus(record, now) !== 'active') return null;
      const principal: Principal = Object.freeze({
        accountId: record.accountId,
        keyId: record.id,
        scopes: new Set(record.scopes),
      });
      // A key that expires soon must not outlive its expiry in the cache.
      const ttl = record.expiresAt ? Math.min(cache.ttl, record.expiresAt.getTime() - now.getTime()) : cache.ttl;
      if (readAt === generation) cache.set(hash, principal, { ttl });
      // At most once a minute per key and process, so "last used" costs no write per request.
      if (!touched.has(record.id)) {
        touched.set(record.id, true);
        await store.touchApiKey(record.id, now);
      }
      return principal;
    },

    /** Another process revoked or rotated this key: drop it here. */
    forgetKey: forget,

    /** Invalidations may have been missed (Redis was away): drop every cached key. */
    forgetAllKeys(): void {
      generation++;
      cache.clear();
    },
  };
}

export type AccountsService = ReturnType<typeof createAccountsService>;
