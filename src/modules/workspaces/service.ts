// Workspaces (today's accounts) and their members: the user's workspaces, and member management
// by role. Which workspace a signed-in request acts in is principals.ts's.
import type { Knex } from 'knex';
import { inTransaction } from '../../db/transaction.ts';
import type { Actor } from '../../shared/actor.ts';
import { DomainError, notFound, validationFailed } from '../../shared/errors.ts';
import { newId } from '../../shared/ids.ts';
import type { AccountRow, AccountsStore } from '../accounts/index.ts';
import type { AuditedCaller, RecordAudit } from '../audit/index.ts';
import type { UserRecord, UsersStore } from '../users/index.ts';
import { ROLE_RULES, type Role } from '../../shared/roles.ts';
import type { ListPageQuery, UpdateWorkspaceInput } from './schemas.ts';
import type { Membership, MembershipsStore } from './store.ts';

/** A signed-in person acting, with the actor the audit log records. */
export interface Person {
  userId: string;
  actor: Actor;
}

export interface Page<T> {
  data: T[];
  nextCursor: string | null;
}

export interface Workspace {
  account: AccountRow;
  membership: Membership;
}

export interface Member {
  membership: Membership;
  user: UserRecord;
}

const encodeCursor = (id: string) => Buffer.from(id).toString('base64url');
function decodeCursor(cursor: string | undefined): string | null {
  if (cursor === undefined) return null;
  const id = Buffer.from(cursor, 'base64url').toString('utf8');
  if (!/^(acct|user)_[0-9A-Za-z]{20}$/.test(id))
    throw validationFailed([{ path: 'cursor', message: 'is not a cursor returned by this list' }]);
  return id;
}

/** One page of rows read with one extra, which tells whether another page exists. */
function pageOf<T>(rows: T[], limit: number, idOf: (row: T) => string): { rows: T[]; nextCursor: string | null } {
  const kept = rows.slice(0, limit);
  return { rows: kept, nextCursor: rows.length > limit ? encodeCursor(idOf(kept.at(-1)!)) : null };
}

export function createWorkspacesService(options: {
  db: Knex;
  memberships: MembershipsStore;
  accounts: AccountsStore;
  users: UsersStore;
  audit: RecordAudit;
  /** After a member's role changed or they were removed (cached principals are dropped). */
  onMembershipChanged?: (userId: string) => void;
  /** The accounts module's: revokes, in the removal's transaction, the keys the member made. */
  keysOfMember: {
    revoke: (accountId: string, userId: string, by: AuditedCaller, trx: Knex.Transaction) => Promise<string[]>;
    revoked: (accountId: string, ids: readonly string[]) => Promise<void>;
  };
  now?: () => number;
}) {
  const { db, memberships, accounts, users, audit } = options;
  const now = () => new Date((options.now ?? Date.now)());

  /** The caller's membership of the workspace; a 404 when not a member (never tell it exists). */
  async function membershipOf(userId: string, accountId: string): Promise<Membership> {
    const membership = await memberships.find(userId, accountId);
    if (!membership) throw notFound('workspace', accountId);
    return membership;
  }

  async function workspace(membership: Membership): Promise<Workspace> {
    const account = await accounts.findAccount(membership.accountId);
    if (!account) throw notFound('workspace', membership.accountId);
    return { account, membership };
  }

  /**
   * Checks a change of `target`'s membership: the caller's role must manage the target's role
   * (and, for a role change, the new one); leaving is always allowed; the last owner stays (409).
   */
  async function decide(
    person: Person,
    accountId: string,
    targetUserId: string,
    newRole: Role | null,
    trx: Knex.Transaction,
  ): Promise<Membership> {
    // Both locked: a caller demoted at the same moment must not act on the role they had.
    const caller = await memberships.find(person.userId, accountId, trx, true);
    if (!caller) throw notFound('workspace', accountId);
    const target = await memberships.find(targetUserId, accountId, trx, true);
    if (!target) throw notFound('member', targetUserId);
    const leaving = newRole === null && targetUserId === person.userId;
    const manages = ROLE_RULES[caller.role].manages;
    if (!leaving && (!manages.includes(target.role) || (newRole && !manages.includes(newRole))))
      throw new DomainError(
        'forbidden',
        caller.role === 'admin'
          ? 'An admin cannot change an owner’s membership or make someone an owner; ask an owner.'
          : `A ${caller.role} cannot manage members; owners and admins can.`,
      );
    if (target.role === 'owner' && newRole !== 'owner') {
      const owners = await memberships.owners(accountId, trx);
      if (owners.length <= 1)
        throw new DomainError('conflict', 'A workspace keeps at least one owner: make another member an owner first.');
    }
    return target;
  }

  async function member(accountId: string, userId: string): Promise<Member> {
    const membership = await memberships.find(userId, accountId);
    const user = await users.findUser(userId);
    if (!membership || !user) throw notFound('member', userId);
    return { membership, user };
  }

  return {
    /** One page of the user's workspaces, each with the user's role. */
    async listMine(userId: string, query: ListPageQuery): Promise<Page<Workspace>> {
      const rows = await memberships.ofUser(userId, decodeCursor(query.cursor), query.limit + 1);
      const { rows: kept, nextCursor } = pageOf(rows, query.limit, (m) => m.accountId);
      const byId = new Map((await accounts.findAccounts(kept.map((m) => m.accountId))).map((a) => [a.id, a]));
      const data = kept.flatMap((membership) => {
        const account = byId.get(membership.accountId);
        return account ? [{ account, membership }] : [];
      });
      return { data, nextCursor };
    },

    /** A new workspace, its creator its owner. */
    async create(person: Person, name: string): Promise<Workspace> {
      const at = now();
      const account: AccountRow = { id: newId('acct'), name, createdAt: at };
      const membership: Membership = {
        userId: person.userId,
        accountId: account.id,
        role: 'owner',
        createdAt: at,
        lastUsedAt: at,
      };
      await inTransaction(db, async (trx) => {
        await accounts.insertAccount(account, trx);
        await memberships.insert(membership, trx);
        const by = { accountId: account.id, actor: person.actor };
        await audit(
          by,
          { action: 'workspace.created', objectType: 'workspace', objectId: account.id, summary: { name } },
          trx,
        );
      });
      return { account, membership };
    },

    async get(userId: string, accountId: string): Promise<Workspace> {
      return workspace(await membershipOf(userId, accountId));
    },

    /** Renames the workspace: owners only. */
    async update(person: Person, accountId: string, input: UpdateWorkspaceInput): Promise<Workspace> {
      const membership = await membershipOf(person.userId, accountId);
      if (!ROLE_RULES[membership.role].ownsWorkspace)
        throw new DomainError('forbidden', `Only an owner can change the workspace; you are its ${membership.role}.`);
      const before = await workspace(membership);
      if (input.name !== undefined && input.name !== before.account.name) {
        await inTransaction(db, async (trx) => {
          await accounts.renameAccount(accountId, input.name!, trx);
          const summary = { changes: { name: { old: before.account.name, new: input.name } } };
          const by = { accountId, actor: person.actor };
          await audit(by, { action: 'workspace.updated', objectType: 'workspace', objectId: accountId, summary }, trx);
        });
      }
      return workspace(membership);
    },

    /** One page of the workspace's members, for any member of it. */
    async members(userId: string, accountId: string, query: ListPageQuery): Promise<Page<Member>> {
      await membershipOf(userId, accountId);
      const rows = await memberships.ofAccount(accountId, decodeCursor(query.cursor), query.limit + 1);
      const { rows: kept, nextCursor } = pageOf(rows, query.limit, (m) => m.userId);
      const byId = new Map((await users.findUsers(kept.map((m) => m.userId))).map((u) => [u.id, u]));
      const data = kept.flatMap((membership) => {
        const user = byId.get(membership.userId);
        return user ? [{ membership, user }] : [];
      });
      return { data, nextCursor };
    },

    /** Changes a member's role (owners any; admins those of admin and below, never to owner). */
    async changeRole(person: Person, accountId: string, targetUserId: string, role: Role): Promise<Member> {
      await inTransaction(db, async (trx) => {
        const target = await decide(person, accountId, targetUserId, role, trx);
        if (target.role === role) return;
        await memberships.setRole(targetUserId, accountId, role, trx);
        const summary = { user_id: targetUserId, changes: { role: { old: target.role, new: role } } };
        const by = { accountId, actor: person.actor };
        await audit(by, { action: 'member.role_changed', objectType: 'member', objectId: targetUserId, summary }, trx);
      });
      options.onMembershipChanged?.(targetUserId);
      return member(accountId, targetUserId);
    },

    /** Ends a membership; anyone may leave, but the last owner stays. */
    /**
     * Removes a member (or the caller leaves). The API keys they made in the workspace are revoked
     * with it, unless `keepKeys` (the remover chose to keep them working; the audit log says so).
     */
    async removeMember(person: Person, accountId: string, targetUserId: string, keepKeys = false): Promise<void> {
      const revoked = await inTransaction(db, async (trx) => {
        const target = await decide(person, accountId, targetUserId, null, trx);
        await memberships.remove(targetUserId, accountId, trx);
        const by = { accountId, actor: person.actor };
        const keys = keepKeys ? [] : await options.keysOfMember.revoke(accountId, targetUserId, by, trx);
        const summary = { user_id: targetUserId, role: target.role, kept_keys: keepKeys, revoked_keys: keys.length };
        await audit(by, { action: 'member.removed', objectType: 'member', objectId: targetUserId, summary }, trx);
        return keys;
      });
      options.onMembershipChanged?.(targetUserId);
      await options.keysOfMember.revoked(accountId, revoked);
    },
  };
}

export type WorkspacesService = ReturnType<typeof createWorkspacesService>;
