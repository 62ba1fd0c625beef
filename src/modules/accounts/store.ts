import type { Queryable } from '../../db/transaction.ts';
import { fromMillisOrNull, toMillis } from '../../db/rows.ts';

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
  createdAt: Date;
  expiresAt: Date | null;
  revokedAt: Date | null;
}

export function createAccountsStore(db: Queryable) {
  return {
    async insertAccount(account: AccountRow, q: Queryable = db): Promise<void> {
      await q('accounts').insert({ id: account.id, name: account.name, created_at: toMillis(account.createdAt) });
    },

    async findAccountByName(name: string, q: Queryable = db): Promise<AccountRow | null> {
      const row = await q('accounts').where({ name }).orderBy('created_at').first();
      return row ? { id: row.id, name: row.name, createdAt: new Date(Number(row.created_at)) } : null;
    },

    async insertApiKey(key: ApiKeyRecord & { secretHash: string }, q: Queryable = db): Promise<void> {
      await q('api_keys').insert({
        id: key.id,
        account_id: key.accountId,
        name: key.name,
        prefix: key.prefix,
        secret_hash: key.secretHash,
        created_at: toMillis(key.createdAt),
        expires_at: key.expiresAt ? toMillis(key.expiresAt) : null,
        revoked_at: null,
      });
    },

    async findApiKeyByHash(secretHash: string): Promise<ApiKeyRecord | null> {
      const row = await db('api_keys').where({ secret_hash: secretHash }).first();
      if (!row) return null;
      return {
        id: row.id,
        accountId: row.account_id,
        name: row.name,
        prefix: row.prefix,
        createdAt: new Date(Number(row.created_at)),
        expiresAt: fromMillisOrNull(row.expires_at),
        revokedAt: fromMillisOrNull(row.revoked_at),
      };
    },

    async touchApiKey(id: string, at: Date): Promise<void> {
      await db('api_keys').where({ id }).update({ last_used_at: toMillis(at) });
    },
  };
}

export type AccountsStore = ReturnType<typeof createAccountsStore>;
