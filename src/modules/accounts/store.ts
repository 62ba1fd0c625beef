import type { Queryable } from '../../db/transaction.ts';
import { type DbRow, fromJson, fromMillis, fromMillisOrNull, toJson, toMillis } from '../../db/rows.ts';
import { isScope, type Scope } from '../../shared/principal.ts';

export interface AccountRow {
  id: string;
  name: string;
  createdAt: Date;
}

export interface ApiKeyRecord {
  id: string;
  accountId: string;
  name: string;
  prefix: string;
  scopes: Scope[];
  createdAt: Date;
  lastUsedAt: Date | null;
  expiresAt: Date | null;
  revokedAt: Date | null;
  /** The key that replaced this one in a rotation. */
  replacedBy: string | null;
  /** Who made it: a user, a key, an OAuth client or `cli`; null for keys made before it was kept. */
  createdBy: string | null;
}

export type ApiKeyChanges = Partial<Pick<ApiKeyRecord, 'expiresAt' | 'revokedAt' | 'replacedBy'>>;

type Row = DbRow;

function toRecord(row: Row): ApiKeyRecord {
  return {
    id: row.id,
    accountId: row.account_id,
    name: row.name,
    prefix: row.prefix,
    // Unknown names (from a newer version, rolled back) grant nothing; null is no scope at all.
    scopes: (fromJson<string[]>(row.scopes) ?? []).filter(isScope),
    createdAt: fromMillis(row.created_at),
    lastUsedAt: fromMillisOrNull(row.last_used_at),
    expiresAt: fromMillisOrNull(row.expires_at),
    revokedAt: fromMillisOrNull(row.revoked_at),
    replacedBy: row.replaced_by ?? null,
    createdBy: row.created_by ?? null,
  };
}

const orNull = (date: Date | null) => (date ? toMillis(date) : null);

export function createAccountsStore(db: Queryable) {
  return {
    async insertAccount(account: AccountRow, q: Queryable = db): Promise<void> {
      await q('accounts').insert({ id: account.id, name: account.name, created_at: toMillis(account.createdAt) });
    },

    async findAccountByName(name: string, q: Queryable = db): Promise<AccountRow | null> {
      const row = await q('accounts').where({ name }).orderBy('created_at').first();
      return row ? { id: row.id, name: row.name, createdAt: fromMillis(row.created_at) } : null;
    },

    async findAccount(id: string, q: Queryable = db): Promise<AccountRow | null> {
      const row = await q('accounts').where({ id }).first();
      return row ? { id: row.id, name: row.name, createdAt: fromMillis(row.created_at) } : null;
    },

    /** Accounts of these ids (a user's workspaces), in no particular order. */
    async findAccounts(ids: readonly string[], q: Queryable = db): Promise<AccountRow[]> {
      if (ids.length === 0) return [];
      const rows = await q('accounts').whereIn('id', ids);
      return rows.map((row) => ({ id: row.id, name: row.name, createdAt: fromMillis(row.created_at) }));
    },

    async renameAccount(id: string, name: string, q: Queryable = db): Promise<void> {
      await q('accounts').where({ id }).update({ name });
    },

    async insertApiKey(key: ApiKeyRecord & { secretHash: string }, q: Queryable = db): Promise<void> {
      await q('api_keys').insert({
        id: key.id,
        account_id: key.accountId,
        name: key.name,
        prefix: key.prefix,
        secret_hash: key.secretHash,
        scopes: toJson(key.scopes),
        created_at: toMillis(key.createdAt),
        last_used_at: null,
        expires_at: orNull(key.expiresAt),
        revoked_at: null,
        replaced_by: null,
        created_by: key.createdBy,
      });
    },

    /** The account's keys that `createdBy` made and that are not revoked (a member removed). */
    async activeKeysCreatedBy(accountId: string, createdBy: string, q: Queryable = db): Promise<ApiKeyRecord[]> {
      const rows = await q('api_keys').where({ account_id: accountId, created_by: createdBy }).whereNull('revoked_at');
      return rows.map(toRecord);
    },

    async findApiKeyByHash(secretHash: string): Promise<ApiKeyRecord | null> {
      const row = await db('api_keys').where({ secret_hash: secretHash }).first();
      return row ? toRecord(row) : null;
    },

    /** The account's key, or null (another account's key is as unknown as a missing one). */
    async findApiKey(accountId: string, id: string, q: Queryable = db): Promise<ApiKeyRecord | null> {
      const row = await q('api_keys').where({ account_id: accountId, id }).first();
      return row ? toRecord(row) : null;
    },

    /** Every key of the account, newest first; accounts have a handful, so no paging. */
    async listApiKeys(accountId: string): Promise<ApiKeyRecord[]> {
      const rows = await db('api_keys')
        .where({ account_id: accountId })
        .orderBy([
          { column: 'created_at', order: 'desc' },
          { column: 'id', order: 'desc' },
        ]);
      return rows.map(toRecord);
    },

    async updateApiKey(accountId: string, id: string, changes: ApiKeyChanges, q: Queryable = db): Promise<boolean> {
      const update: Row = {};
      if (changes.expiresAt !== undefined) update.expires_at = orNull(changes.expiresAt);
      if (changes.revokedAt !== undefined) update.revoked_at = orNull(changes.revokedAt);
      if (changes.replacedBy !== undefined) update.replaced_by = changes.replacedBy;
      return (await q('api_keys').where({ account_id: accountId, id }).update(update)) > 0;
    },

    async touchApiKey(id: string, at: Date): Promise<void> {
      await db('api_keys')
        .where({ id })
        .update({ last_used_at: toMillis(at) });
    },
  };
}

export type AccountsStore = ReturnType<typeof createAccountsStore>;
