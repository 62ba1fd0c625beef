// First run: a one-time setup token (logged by `npm start` while no user exists, printed by
// `cli users create-owner`) lets whoever holds it create an owner and sign in. The same token,
// made for an existing account and a role, adds a person to it (until invitations come). The
// token is single-use, expires after an hour, and only its SHA-256 is stored.
import { hashToken } from '../../shared/token-hash.ts';
import type { Knex } from 'knex';
import { isUniqueViolation } from '../../db/dialect.ts';
import { inTransaction } from '../../db/transaction.ts';
import { DomainError, validationFailed } from '../../shared/errors.ts';
import { newId, randomBase62 } from '../../shared/ids.ts';
import { hashPassword } from '../../shared/password-hash.ts';
import type { AccountsStore } from '../accounts/index.ts';
import type { RecordAudit } from '../audit/index.ts';
import {
  assertStrongPassword,
  type NewSession,
  type SetupInput,
  type SignInContext,
  type UserRecord,
  type UsersService,
  type UsersStore,
} from '../users/index.ts';
import { isRole, type Role } from '../../shared/roles.ts';
import type { MembershipsStore } from './store.ts';

export const SETUP_TOKEN_TTL_MS = 3_600_000;
const SPENT = 'The setup token is unknown, used or expired; make a new one.';
const EMAIL_TAKEN = 'A user with this email exists already; sign in instead.';

export function createSetup(options: {
  db: Knex;
  users: UsersStore;
  sessions: Pick<UsersService, 'startSession'>;
  accounts: AccountsStore;
  memberships: MembershipsStore;
  audit: RecordAudit;
  now?: () => number;
}) {
  const { db, users, accounts, memberships, audit } = options;
  const now = () => new Date((options.now ?? Date.now)());

  return {
    /** Whether no user exists yet (then `npm start` logs a setup link). */
    needed: async (): Promise<boolean> => !(await users.anyUser()),

    /**
     * A new setup token, valid for an hour; with an email, only that address may use it, and with
     * an account, the user joins that account (as owner unless `role` says otherwise) rather than
     * owning a new workspace.
     */
    async issueToken(
      restrict: { email?: string; accountId?: string; role?: Role } = {},
    ): Promise<{ token: string; expiresAt: Date }> {
      const token = `qrsetup_${randomBase62(40)}`;
      const createdAt = now();
      const expiresAt = new Date(createdAt.getTime() + SETUP_TOKEN_TTL_MS);
      await users.insertSetupToken({
        tokenHash: hashToken(token),
        email: restrict.email?.toLowerCase() ?? null,
        accountId: restrict.accountId ?? null,
        role: restrict.accountId ? (restrict.role ?? 'owner') : 'owner',
        createdAt,
        expiresAt,
        usedAt: null,
      });
      return { token, expiresAt };
    },

    /** Uses a setup token: creates the owner (and their workspace) and signs them in. */
    async complete(input: SetupInput, context: SignInContext): Promise<NewSession> {
      // A made-up token costs no strength check and no argon2 (an open route: no free CPU to take).
      if (!(await users.setupTokenUsable(hashToken(input.token), now()))) throw new DomainError('unauthorized', SPENT);
      // Checked before the token is claimed, so that a weak password does not use it up.
      assertStrongPassword(input.password, [input.email, input.display_name]);
      const passwordHash = await hashPassword(input.password);
      const user = await inTransaction(db, async (trx) => {
        const at = now();
        const token = await users.claimSetupToken(hashToken(input.token), at, trx);
        if (!token) throw new DomainError('unauthorized', SPENT);
        if (token.email && token.email !== input.email.toLowerCase())
          throw validationFailed([{ path: 'email', message: 'is not the address this setup token was made for' }]);
        if (await users.findUserByEmail(input.email, trx)) throw new DomainError('conflict', EMAIL_TAKEN);
        const created: UserRecord = {
          id: newId('user'),
          email: input.email,
          displayName: input.display_name,
          passwordHash,
          // A setup link is handed out by the operator, not mailed: it proves no mailbox.
          emailVerifiedAt: null,
          createdAt: at,
          updatedAt: at,
        };
        // The same email set up at the same moment meets the other's row: the same 409.
        await users.insertUser(created, trx).catch((err: unknown) => {
          throw isUniqueViolation(err) ? new DomainError('conflict', EMAIL_TAKEN) : err;
        });
        let accountId = token.accountId;
        if (!accountId) {
          accountId = newId('acct');
          await accounts.insertAccount(
            { id: accountId, name: input.workspace_name ?? input.display_name, createdAt: at },
            trx,
          );
        }
        const role = isRole(token.role) ? token.role : 'viewer';
        await memberships.insert({ userId: created.id, accountId, role, createdAt: at, lastUsedAt: at }, trx);
        const by = { accountId, actor: { kind: 'user' as const, id: created.id, addressHash: context.addressHash } };
        const summary = { user_id: created.id, role, via: 'setup' };
        await audit(by, { action: 'member.added', objectType: 'member', objectId: created.id, summary }, trx);
        return created;
      });
      return options.sessions.startSession(user, context);
    },
  };
}

export type Setup = ReturnType<typeof createSetup>;
