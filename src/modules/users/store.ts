// The users module's tables: users, sessions and setup tokens. Memberships belong to the
// workspaces module; this store never reads them.
import type { Queryable } from '../../db/transaction.ts';
import { type DbRow, fromMillis, fromMillisOrNull, toMillis } from '../../db/rows.ts';

export interface UserRecord {
  id: string;
  email: string;
  displayName: string;
  passwordHash: string | null;
  /** When the user proved they read mail at `email`; null while not (docs/workspaces.md). */
  emailVerifiedAt: Date | null;
  createdAt: Date;
  updatedAt: Date;
}

export interface SessionRecord {
  id: string;
  userId: string;
  createdAt: Date;
  lastSeenAt: Date;
  /** The absolute end; the idle end is computed from lastSeenAt. */
  expiresAt: Date;
  userAgent: string | null;
  addressHash: string | null;
}

export interface SetupTokenRecord {
  email: string | null;
  accountId: string | null;
  /** The role in `accountId` (in a new workspace: owner). */
  role: string;
  expiresAt: Date;
  usedAt: Date | null;
}

const toUser = (row: DbRow): UserRecord => ({
  id: row.id,
  email: row.email,
  displayName: row.display_name,
  passwordHash: row.password_hash ?? null,
  emailVerifiedAt: fromMillisOrNull(row.email_verified_at),
  createdAt: fromMillis(row.created_at),
  updatedAt: fromMillis(row.updated_at),
});

const toSession = (row: DbRow): SessionRecord => ({
  id: row.id,
  userId: row.user_id,
  createdAt: fromMillis(row.created_at),
  lastSeenAt: fromMillis(row.last_seen_at),
  expiresAt: fromMillis(row.expires_at),
  userAgent: row.user_agent ?? null,
  addressHash: row.address_hash ?? null,
});

export function createUsersStore(db: Queryable) {
  return {
    async insertUser(user: UserRecord, q: Queryable = db): Promise<void> {
      await q('users').insert({
        id: user.id,
        email: user.email,
        email_lower: user.email.toLowerCase(),
        display_name: user.displayName,
        password_hash: user.passwordHash,
        email_verified_at: user.emailVerifiedAt ? toMillis(user.emailVerifiedAt) : null,
        created_at: toMillis(user.createdAt),
        updated_at: toMillis(user.updatedAt),
      });
    },

    async findUser(id: string, q: Queryable = db): Promise<UserRecord | null> {
      const row = await q('users').where({ id }).first();
      return row ? toUser(row) : null;
    },

    /** Case-insensitive: emails are compared lower-cased. */
    async findUserByEmail(email: string, q: Queryable = db): Promise<UserRecord | null> {
      const row = await q('users').where({ email_lower: email.toLowerCase() }).first();
      return row ? toUser(row) : null;
    },

    /** Users of these ids, for member listings (another module's rows name them). */
    async findUsers(ids: readonly string[], q: Queryable = db): Promise<UserRecord[]> {
      if (ids.length === 0) return [];
      return (await q('users').whereIn('id', ids)).map(toUser);
    },

    async anyUser(q: Queryable = db): Promise<boolean> {
      return (await q('users').first('id')) !== undefined;
    },

    async updateUser(
      id: string,
      changes: { displayName?: string; passwordHash?: string; updatedAt: Date },
      q: Queryable = db,
    ): Promise<void> {
      const update: DbRow = { updated_at: toMillis(changes.updatedAt) };
      if (changes.displayName !== undefined) update.display_name = changes.displayName;
      if (changes.passwordHash !== undefined) update.password_hash = changes.passwordHash;
      await q('users').where({ id }).update(update);
    },

    /** Marks the user's email verified at `at`, unless it was already (the first proof's date stays). */
    async markEmailVerified(id: string, at: Date, q: Queryable = db): Promise<void> {
      await q('users')
        .where({ id })
        .whereNull('email_verified_at')
        .update({ email_verified_at: toMillis(at) });
    },

    async insertSession(session: SessionRecord & { tokenHash: string }, q: Queryable = db): Promise<void> {
      await q('sessions').insert({
        id: session.id,
        token_hash: session.tokenHash,
        user_id: session.userId,
        created_at: toMillis(session.createdAt),
        last_seen_at: toMillis(session.lastSeenAt),
        expires_at: toMillis(session.expiresAt),
        user_agent: session.userAgent,
        address_hash: session.addressHash,
      });
    },

    async findSessionByHash(tokenHash: string): Promise<SessionRecord | null> {
      const row = await db('sessions').where({ token_hash: tokenHash }).first();
      return row ? toSession(row) : null;
    },

    /** The user's sessions, newest first: a person has a handful. */
    async listSessions(userId: string): Promise<SessionRecord[]> {
      const rows = await db('sessions')
        .where({ user_id: userId })
        .orderBy([
          { column: 'created_at', order: 'desc' },
          { column: 'id', order: 'desc' },
        ]);
      return rows.map(toSession);
    },

    async touchSession(id: string, at: Date): Promise<void> {
      await db('sessions')
        .where({ id })
        .update({ last_seen_at: toMillis(at) });
    },

    /** Deletes the user's session; false when the user has none of this id. */
    async deleteSession(userId: string, id: string, q: Queryable = db): Promise<boolean> {
      return (await q('sessions').where({ user_id: userId, id }).delete()) > 0;
    },

    /** Uses up the user's open password reset links: a new password makes the others stale. */
    async expirePasswordResets(userId: string, at: Date, q: Queryable = db): Promise<void> {
      await q('password_resets')
        .where({ user_id: userId })
        .whereNull('used_at')
        .update({ used_at: toMillis(at) });
    },

    /** Ends every session of the user but `keepId` (a password change). */
    async deleteOtherSessions(userId: string, keepId: string | null, q: Queryable = db): Promise<void> {
      const query = q('sessions').where({ user_id: userId });
      if (keepId) query.whereNot({ id: keepId });
      await query.delete();
    },

    async insertSetupToken(
      token: SetupTokenRecord & { tokenHash: string; createdAt: Date },
      q: Queryable = db,
    ): Promise<void> {
      await q('setup_tokens').insert({
        token_hash: token.tokenHash,
        email: token.email,
        account_id: token.accountId,
        role: token.role,
        created_at: toMillis(token.createdAt),
        expires_at: toMillis(token.expiresAt),
        used_at: null,
      });
    },

    /** Whether an unused, unexpired setup token has this hash (a look before the costly work). */
    async setupTokenUsable(tokenHash: string, now: Date): Promise<boolean> {
      const row = await db('setup_tokens')
        .where({ token_hash: tokenHash })
        .whereNull('used_at')
        .where('expires_at', '>', toMillis(now))
        .first('token_hash');
      return row !== undefined;
    },

    /**
     * Marks an unused, unexpired token used and returns it; null when there is none. One UPDATE
     * decides, so two requests racing with one token cannot both win.
     */
    async claimSetupToken(tokenHash: string, now: Date, q: Queryable = db): Promise<SetupTokenRecord | null> {
      const claimed = await q('setup_tokens')
        .where({ token_hash: tokenHash })
        .whereNull('used_at')
        .where('expires_at', '>', toMillis(now))
        .update({ used_at: toMillis(now) });
      if (claimed === 0) return null;
      const row = await q('setup_tokens').where({ token_hash: tokenHash }).first();
      return {
        email: row.email ?? null,
        accountId: row.account_id ?? null,
        role: row.role,
        expiresAt: fromMillis(row.expires_at),
        usedAt: fromMillisOrNull(row.used_at),
      };
    },
  };
}

export type UsersStore = ReturnType<typeof createUsersStore>;
