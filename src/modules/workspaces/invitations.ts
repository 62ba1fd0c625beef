// Invitations to a workspace: an owner or admin invites someone with a role, by email (the link
// is mailed when the service has SMTP) and always with a link to copy, shown once. The link's
// token is single-use and expires (INVITATION_DAYS); owners and admins list and revoke pending
// ones. Whoever accepts joins: a signed-in person at once, anyone else as a new user (with the
// invitation's email, if it names one) who is then signed in. Accepting an invitation that was
// mailed to its email verifies that email (the link came to that mailbox); a copied link does not.
import { hashToken } from '../../shared/token-hash.ts';
import type { Knex } from 'knex';
import { isUniqueViolation } from '../../db/dialect.ts';
import type { Queryable } from '../../db/transaction.ts';
import { inTransaction } from '../../db/transaction.ts';
import { DomainError, notFound, validationFailed } from '../../shared/errors.ts';
import { newId, randomBase62 } from '../../shared/ids.ts';
import type { Logger } from 'pino';
import type { SendMail } from '../../shared/mailer.ts';
import { hashPassword } from '../../shared/password-hash.ts';
import { ROLE_RULES, type Role } from '../../shared/roles.ts';
import type { AccountsStore } from '../accounts/index.ts';
import type { RecordAudit } from '../audit/index.ts';
import {
  assertStrongPassword,
  type NewSession,
  type SignInContext,
  type UserRecord,
  type UsersService,
  type UsersStore,
} from '../users/index.ts';
import type { AcceptInvitationInput, InviteInput } from './schemas.ts';
import type { Invitation, InvitationsStore } from './invitation-store.ts';
import type { Person } from './service.ts';
import type { MembershipsStore } from './store.ts';

const DAY_MS = 86_400_000;
const GONE = 'This invitation is unknown, accepted, revoked or expired; ask for a new one.';
const MEMBER_ALREADY = 'You are a member of this workspace already.';
const EMAIL_TAKEN = 'A user with this email exists already; sign in, then accept.';

/** What the invited see before accepting: the workspace, the role, whom it is for. */
export interface InvitationPreview {
  invitation: Invitation;
  workspaceName: string;
}

export function createInvitations(options: {
  db: Knex;
  invitations: InvitationsStore;
  memberships: MembershipsStore;
  accounts: AccountsStore;
  users: UsersStore;
  sessions: Pick<UsersService, 'startSession' | 'countAttempt' | 'userChanged'>;
  audit: RecordAudit;
  /** Null without SMTP_URL: invitations are links only. */
  sendMail: SendMail | null;
  /** The dashboard page an invitation's link opens, given its token. */
  linkOf: (token: string) => string;
  validDays: number;
  logger: Logger;
  onMembershipChanged?: (userId: string) => void;
  now?: () => number;
}) {
  const { db, invitations, memberships, accounts, users, audit } = options;
  const now = () => new Date((options.now ?? Date.now)());

  /**
   * The roles the caller may invite (and revoke invitations of): owners any, admins below owner;
   * 403 for editors and viewers, 404 for a non-member (never tell the workspace exists).
   */
  async function invitableRoles(person: Person, accountId: string): Promise<readonly Role[]> {
    const caller = await memberships.find(person.userId, accountId);
    if (!caller) throw notFound('workspace', accountId);
    const manages = ROLE_RULES[caller.role].manages;
    if (manages.length === 0)
      throw new DomainError('forbidden', `A ${caller.role} cannot invite people; owners and admins can.`);
    return manages;
  }

  const OWNERS_ONLY = 'Only an owner can invite an owner, or revoke an owner’s invitation.';

  async function mail(to: string, workspaceName: string, role: Role, link: string): Promise<boolean> {
    if (!options.sendMail) return false;
    try {
      await options.sendMail({
        to,
        subject: `You are invited to ${workspaceName}`,
        text:
          `You are invited to join the workspace "${workspaceName}" as ${role}.\n\n` +
          `Open this link to accept (it works once, for ${options.validDays} days):\n${link}\n`,
      });
      return true;
    } catch (err) {
      // The invitation stands: its link is in the answer to copy.
      options.logger.warn({ err, to }, 'invitation: the mail could not be sent');
      return false;
    }
  }

  /**
   * An invitation stands only while its inviter may still grant its role: removing or demoting
   * them ends the invitations they made (checked when used, so nothing has to find them first).
   */
  async function inviterStillMay(invitation: Invitation, q?: Queryable): Promise<boolean> {
    const inviter = await memberships.find(invitation.invitedBy, invitation.accountId, q);
    return inviter !== null && ROLE_RULES[inviter.role].manages.includes(invitation.role);
  }

  /** Joins `user` to the invitation's workspace in `trx`, taking the invitation; 409 for a member already. */
  async function join(invitation: Invitation, user: UserRecord, context: SignInContext, trx: Knex.Transaction) {
    const at = now();
    if (invitation.email && invitation.email !== user.email.toLowerCase())
      throw new DomainError('forbidden', `This invitation is for ${invitation.email}; sign in as that person.`);
    if (await memberships.find(user.id, invitation.accountId, trx)) throw new DomainError('conflict', MEMBER_ALREADY);
    if (!(await inviterStillMay(invitation, trx)) || !(await invitations.take(invitation.id, user.id, at, trx)))
      throw new DomainError('unauthorized', GONE);
    await memberships
      .insert(
        { userId: user.id, accountId: invitation.accountId, role: invitation.role, createdAt: at, lastUsedAt: at },
        trx,
      )
      // Two accepts of one person at once (a double click) on MySQL: the second meets the first's row.
      .catch((err: unknown) => {
        throw isUniqueViolation(err) ? new DomainError('conflict', MEMBER_ALREADY) : err;
      });
    // The link came by mail to this address (join refused any other): the mailbox is the user's.
    if (invitation.mailedAt && invitation.email) await users.markEmailVerified(user.id, at, trx);
    const summary = { user_id: user.id, role: invitation.role, via: 'invitation', invitation_id: invitation.id };
    await audit(
      { accountId: invitation.accountId, actor: { kind: 'user', id: user.id, addressHash: context.addressHash } },
      { action: 'member.added', objectType: 'member', objectId: user.id, summary },
      trx,
    );
  }

  async function pendingOf(token: string): Promise<Invitation> {
    const invitation = await invitations.pendingByToken(hashToken(token), now());
    if (!invitation || !(await inviterStillMay(invitation))) throw new DomainError('unauthorized', GONE);
    return invitation;
  }

  return {
    /** A new invitation; its link is returned this once (and mailed when it names an email and SMTP is set). */
    async invite(
      person: Person,
      accountId: string,
      input: InviteInput,
    ): Promise<{ invitation: Invitation; link: string; emailSent: boolean }> {
      if (!(await invitableRoles(person, accountId)).includes(input.role))
        throw new DomainError('forbidden', OWNERS_ONLY);
      const account = await accounts.findAccount(accountId);
      if (!account) throw notFound('workspace', accountId);
      const email = input.email?.toLowerCase() ?? null;
      if (email) {
        const existing = await users.findUserByEmail(email);
        if (existing && (await memberships.find(existing.id, accountId)))
          throw new DomainError('conflict', `${email} is a member of this workspace already.`);
      }
      const token = `qrinv_${randomBase62(40)}`;
      const createdAt = now();
      const invitation: Invitation = {
        id: newId('inv'),
        accountId,
        email,
        role: input.role,
        invitedBy: person.userId,
        createdAt,
        expiresAt: new Date(createdAt.getTime() + options.validDays * DAY_MS),
        acceptedAt: null,
        acceptedBy: null,
        revokedAt: null,
        mailedAt: null,
      };
      await inTransaction(db, async (trx) => {
        await invitations.insert(invitation, hashToken(token), trx);
        const summary = { email, role: input.role };
        await audit(
          { accountId, actor: person.actor },
          { action: 'invitation.created', objectType: 'invitation', objectId: invitation.id, summary },
          trx,
        );
      });
      const link = options.linkOf(token);
      const emailSent = email ? await mail(email, account.name, input.role, link) : false;
      if (emailSent) {
        invitation.mailedAt = now();
        await invitations.markMailed(invitation.id, invitation.mailedAt);
      }
      return { invitation, link, emailSent };
    },

    /** The workspace's pending invitations, for its owners and admins. */
    async pending(person: Person, accountId: string): Promise<Invitation[]> {
      await invitableRoles(person, accountId);
      return invitations.pending(accountId, now());
    },

    /** Revokes a pending invitation: its link stops working at once. */
    async revoke(person: Person, accountId: string, id: string): Promise<void> {
      const roles = await invitableRoles(person, accountId);
      await inTransaction(db, async (trx) => {
        const revoked = await invitations.revoke(accountId, id, now(), trx);
        if (!revoked) throw notFound('invitation', id);
        // Thrown inside the transaction: the revocation rolls back.
        if (!roles.includes(revoked.role)) throw new DomainError('forbidden', OWNERS_ONLY);
        const summary = { email: revoked.email, role: revoked.role };
        await audit(
          { accountId, actor: person.actor },
          { action: 'invitation.revoked', objectType: 'invitation', objectId: id, summary },
          trx,
        );
      });
    },

    /** What a pending invitation's link offers, shown before accepting; 401 when it is gone. */
    async preview(token: string): Promise<InvitationPreview> {
      const invitation = await pendingOf(token);
      const account = await accounts.findAccount(invitation.accountId);
      if (!account) throw new DomainError('unauthorized', GONE);
      return { invitation, workspaceName: account.name };
    },

    /** A signed-in person accepts: they join with the invitation's role. */
    async acceptAs(userId: string, token: string, context: SignInContext): Promise<Invitation> {
      const invitation = await pendingOf(token);
      const user = await users.findUser(userId);
      if (!user) throw new DomainError('unauthorized', 'Sign in again.');
      await inTransaction(db, (trx) => join(invitation, user, context, trx));
      options.onMembershipChanged?.(user.id);
      // Their sessions' cached record may now be behind (the email verified).
      options.sessions.userChanged(user.id);
      return invitation;
    },

    /** Someone without an account accepts: a new user joins and is signed in. */
    async acceptAsNewUser(input: AcceptInvitationInput, context: SignInContext): Promise<NewSession> {
      const invitation = await pendingOf(input.token);
      const email = input.email ?? invitation.email;
      // Whether an email has a user shows here (409): counted as sign-in attempts, so it cannot be swept.
      if (email) await options.sessions.countAttempt(email, context.addressHash);
      const missing = [
        ...(email ? [] : [{ path: 'email', message: 'is needed: this invitation names no email' }]),
        ...(input.display_name ? [] : [{ path: 'display_name', message: 'is needed to make your user' }]),
        ...(input.password ? [] : [{ path: 'password', message: 'is needed to make your user' }]),
      ];
      if (missing.length > 0) throw validationFailed(missing);
      assertStrongPassword(input.password!, [email!, input.display_name!]);
      const passwordHash = await hashPassword(input.password!);
      const user = await inTransaction(db, async (trx) => {
        if (await users.findUserByEmail(email!, trx)) throw new DomainError('conflict', EMAIL_TAKEN);
        const at = now();
        const created: UserRecord = {
          id: newId('user'),
          email: email!,
          displayName: input.display_name!,
          passwordHash,
          emailVerifiedAt: null,
          createdAt: at,
          updatedAt: at,
        };
        // The same email registered at the same moment meets the other's row: the same 409.
        await users.insertUser(created, trx).catch((err: unknown) => {
          throw isUniqueViolation(err) ? new DomainError('conflict', EMAIL_TAKEN) : err;
        });
        await join(invitation, created, context, trx);
        return created;
      });
      // Read again: joining may have verified the email.
      return options.sessions.startSession((await users.findUser(user.id)) ?? user, context);
    },
  };
}

export type Invitations = ReturnType<typeof createInvitations>;
