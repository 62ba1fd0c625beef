// Grants as the account sees them: the consent it gave a client, read from the OAuth server's
// own Grant rows (./adapter.ts writes them; this file only reads, labels and deletes them).
import { type DbRow, fromJson } from '../../db/rows.ts';
import { inTransaction, type Queryable } from '../../db/transaction.ts';

export interface OAuthGrant {
  id: string;
  accountId: string;
  clientId: string;
  /** The API scopes granted (the resource's scope string, split). */
  scopes: string[];
  /** The API key that approved it on the consent page; null for grants older than the record. */
  approvedByKeyId: string | null;
  createdAt: Date;
  expiresAt: Date | null;
}

type Row = DbRow;
const GRANT = 'Grant';

function toGrant(row: Row, resource: string): OAuthGrant {
  const payload = fromJson<{ clientId: string; iat?: number; resources?: Record<string, string> }>(row.payload)!;
  return {
    id: row.id,
    accountId: row.account_id,
    clientId: payload.clientId,
    scopes: (payload.resources?.[resource] ?? '').split(' ').filter((scope) => scope !== ''),
    approvedByKeyId: row.approved_by_key_id ?? null,
    createdAt: new Date((payload.iat ?? 0) * 1000),
    expiresAt: row.expires_at === null ? null : new Date(Number(row.expires_at)),
  };
}

export function createGrantStore(db: Queryable, resource: string) {
  /** Grants alive at `now`: the library's rows outlive their expiry until swept. */
  const live = (now: number) =>
    db('oauth_payloads')
      .where({ model: GRANT })
      .where((q) => q.whereNull('expires_at').orWhere('expires_at', '>', now));

  return {
    async list(accountId: string, now = Date.now()): Promise<OAuthGrant[]> {
      const rows: Row[] = await live(now).where({ account_id: accountId });
      return rows
        .map((row) => toGrant(row, resource))
        .sort((a, b) => b.createdAt.getTime() - a.createdAt.getTime() || (a.id < b.id ? 1 : -1));
    },

    async find(accountId: string, id: string, now = Date.now()): Promise<OAuthGrant | null> {
      const row: Row | undefined = await live(now).where({ account_id: accountId, id }).first();
      return row ? toGrant(row, resource) : null;
    },

    async exists(id: string, now = Date.now()): Promise<boolean> {
      return (await live(now).where({ id }).first('id')) !== undefined;
    },

    /** Ids of the account's grants that this key approved. */
    async approvedBy(accountId: string, keyId: string): Promise<string[]> {
      const rows: { id: string }[] = await db('oauth_payloads')
        .where({ model: GRANT, account_id: accountId, approved_by_key_id: keyId })
        .select('id');
      return rows.map((row) => row.id);
    },

    async recordApprover(grantId: string, keyId: string): Promise<void> {
      await db('oauth_payloads').where({ model: GRANT, id: grantId }).update({ approved_by_key_id: keyId });
    },

    /** A rotated key's grants pass to its replacement. */
    async moveApprover(accountId: string, fromKeyId: string, toKeyId: string): Promise<void> {
      await db('oauth_payloads')
        .where({ model: GRANT, account_id: accountId, approved_by_key_id: fromKeyId })
        .update({ approved_by_key_id: toKeyId });
    },

    /** Deletes the grant and everything issued under it (codes, refresh tokens); false if none. */
    async delete(accountId: string, id: string, q: Queryable = db): Promise<boolean> {
      return inTransaction(q, async (trx) => {
        const deleted = await trx('oauth_payloads').where({ model: GRANT, account_id: accountId, id }).delete();
        if (deleted > 0) await trx('oauth_payloads').where({ grant_id: id }).delete();
        return deleted > 0;
      });
    },
  };
}

export type GrantStore = ReturnType<typeof createGrantStore>;
