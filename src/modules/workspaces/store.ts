// Memberships: which user is in which workspace (account), with which role. The accounts and
// users tables are their own modules'; this store runs SQL only on `memberships`.
import { isSqlite } from '../../db/knex.ts';
import type { Queryable } from '../../db/transaction.ts';
import { type DbRow, fromMillis, toMillis } from '../../db/rows.ts';
import { isRole, type Role } from '../../shared/roles.ts';

export interface Membership {
  userId: string;
  accountId: string;
  role: Role;
  createdAt: Date;
  lastUsedAt: Date;
}

// An unknown role (a newer version's, rolled back) is read as the least one.
const toMembership = (row: DbRow): Membership => ({
  userId: row.user_id,
  accountId: row.account_id,
  role: isRole(row.role) ? row.role : 'viewer',
  createdAt: fromMillis(row.created_at),
  lastUsedAt: fromMillis(row.last_used_at),
});

export function createMembershipsStore(db: Queryable) {
  return {
    async insert(membership: Membership, q: Queryable = db): Promise<void> {
      await q('memberships').insert({
        user_id: membership.userId,
        account_id: membership.accountId,
        role: membership.role,
        created_at: toMillis(membership.createdAt),
        last_used_at: toMillis(membership.lastUsedAt),
      });
    },

    /** The membership, locked for update when asked (a role change or removal decides on it). */
    async find(userId: string, accountId: string, q: Queryable = db, forUpdate = false): Promise<Membership | null> {
      const query = q('memberships').where({ user_id: userId, account_id: accountId });
      if (forUpdate && !isSqlite(q)) query.forUpdate();
      const row = await query.first();
      return row ? toMembership(row) : null;
    },

    /** The user's most recently used membership: the workspace a request without Qr-Workspace acts in. */
    async latest(userId: string): Promise<Membership | null> {
      const row = await db('memberships')
        .where({ user_id: userId })
        .orderBy([
          { column: 'last_used_at', order: 'desc' },
          { column: 'account_id', order: 'asc' },
        ])
        .first();
      return row ? toMembership(row) : null;
    },

    /** One page of the user's memberships, by workspace id after `after`. */
    async ofUser(userId: string, after: string | null, limit: number): Promise<Membership[]> {
      const query = db('memberships').where({ user_id: userId });
      if (after) query.where('account_id', '>', after);
      return (await query.orderBy('account_id').limit(limit)).map(toMembership);
    },

    /** One page of a workspace's members, by user id after `after`. */
    async ofAccount(accountId: string, after: string | null, limit: number): Promise<Membership[]> {
      const query = db('memberships').where({ account_id: accountId });
      if (after) query.where('user_id', '>', after);
      return (await query.orderBy('user_id').limit(limit)).map(toMembership);
    },

    /** The workspace's owners, locked: the last one must stay. */
    async owners(accountId: string, q: Queryable): Promise<string[]> {
      // SQLite runs one writing transaction at a time: nothing to lock.
      const query = q('memberships').where({ account_id: accountId, role: 'owner' }).select('user_id');
      const rows = await (isSqlite(q) ? query : query.forUpdate());
      return rows.map((row: DbRow) => row.user_id as string);
    },

    async setRole(userId: string, accountId: string, role: Role, q: Queryable = db): Promise<void> {
      await q('memberships').where({ user_id: userId, account_id: accountId }).update({ role });
    },

    async remove(userId: string, accountId: string, q: Queryable = db): Promise<void> {
      await q('memberships').where({ user_id: userId, account_id: accountId }).delete();
    },

    async touch(userId: string, accountId: string, at: Date): Promise<void> {
      await db('memberships')
        .where({ user_id: userId, account_id: accountId })
        .update({ last_used_at: toMillis(at) });
    },
  };
}

export type MembershipsStore = ReturnType<typeof createMembershipsStore>;
