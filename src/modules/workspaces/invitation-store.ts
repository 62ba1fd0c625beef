// Invitations to a workspace: this store runs SQL only on `invitations`. An invitation is taken
// (accepted) by one conditional UPDATE, so that two people holding the same link cannot both join.
import type { Queryable } from '../../db/transaction.ts';
import { type DbRow, fromMillis, fromMillisOrNull, toMillis } from '../../db/rows.ts';
import { isRole, type Role } from '../../shared/roles.ts';

export interface Invitation {
  id: string;
  accountId: string;
  /** Lower-cased; null: whoever holds the link may accept it. */
  email: string | null;
  role: Role;
  invitedBy: string;
  createdAt: Date;
  expiresAt: Date;
  acceptedAt: Date | null;
  acceptedBy: string | null;
  revokedAt: Date | null;
  /** When its link was mailed to `email` (null: a link to copy only); accepting it then proves the address. */
  mailedAt: Date | null;
}

const toInvitation = (row: DbRow): Invitation => ({
  id: row.id,
  accountId: row.account_id,
  email: row.email ?? null,
  // An unknown role (a newer version's, rolled back) is read as the least one.
  role: isRole(row.role) ? row.role : 'viewer',
  invitedBy: row.invited_by,
  createdAt: fromMillis(row.created_at),
  expiresAt: fromMillis(row.expires_at),
  acceptedAt: fromMillisOrNull(row.accepted_at),
  acceptedBy: row.accepted_by ?? null,
  revokedAt: fromMillisOrNull(row.revoked_at),
  mailedAt: fromMillisOrNull(row.mailed_at),
});

/** Neither accepted nor revoked, and not yet expired at `at`. */
const pendingAt = (q: Queryable, at: Date) =>
  q('invitations').whereNull('accepted_at').whereNull('revoked_at').where('expires_at', '>', toMillis(at));

export function createInvitationsStore(db: Queryable) {
  return {
    async insert(invitation: Invitation, tokenHash: string, q: Queryable = db): Promise<void> {
      await q('invitations').insert({
        id: invitation.id,
        account_id: invitation.accountId,
        email: invitation.email,
        role: invitation.role,
        token_hash: tokenHash,
        invited_by: invitation.invitedBy,
        created_at: toMillis(invitation.createdAt),
        expires_at: toMillis(invitation.expiresAt),
      });
    },

    /** Notes that the invitation's link went to its email by mail. */
    async markMailed(id: string, at: Date, q: Queryable = db): Promise<void> {
      await q('invitations')
        .where({ id })
        .update({ mailed_at: toMillis(at) });
    },

    /** The workspace's pending invitations, newest first (a workspace has a few, not pages of them). */
    async pending(accountId: string, at: Date): Promise<Invitation[]> {
      const rows = await pendingAt(db, at).where({ account_id: accountId }).orderBy('created_at', 'desc').limit(500);
      return rows.map(toInvitation);
    },

    /** The pending invitation of a link's token, or null (unknown, accepted, revoked or expired). */
    async pendingByToken(tokenHash: string, at: Date, q: Queryable = db): Promise<Invitation | null> {
      const row = await pendingAt(q, at).where({ token_hash: tokenHash }).first();
      return row ? toInvitation(row) : null;
    },

    /** Marks the pending invitation accepted by `userId`; false when someone else took it first. */
    async take(id: string, userId: string, at: Date, q: Queryable = db): Promise<boolean> {
      const changed = await pendingAt(q, at)
        .where({ id })
        .update({ accepted_at: toMillis(at), accepted_by: userId });
      return changed === 1;
    },

    /** Revokes the workspace's pending invitation; null when there is none by that id. */
    async revoke(accountId: string, id: string, at: Date, q: Queryable = db): Promise<Invitation | null> {
      const row = await pendingAt(q, at).where({ account_id: accountId, id }).first();
      if (!row) return null;
      await q('invitations')
        .where({ id })
        .update({ revoked_at: toMillis(at) });
      return toInvitation(row);
    },
  };
}

export type InvitationsStore = ReturnType<typeof createInvitationsStore>;
