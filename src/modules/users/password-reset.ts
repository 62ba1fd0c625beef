// "Forgot your password": a request mails a single-use link (an hour) to the address of the user
// with that email, and answers the same, at once, whether there is one or not (the lookup and the
// mail happen after the answer, so neither its content nor its timing tells who has an account).
// Completing it sets the new password, verifies the email (the link came to it), ends every session
// of the user and signs them in (or, with the second factor on, asks for its code as a password
// sign-in would: a mailbox alone is not enough).
// Requests count against the sign-in limits of the email and the address.
import { hashToken } from '../../shared/token-hash.ts';
import type { Knex } from 'knex';
import type { Logger } from 'pino';
import type { Queryable } from '../../db/transaction.ts';
import { inTransaction } from '../../db/transaction.ts';
import { toMillis } from '../../db/rows.ts';
import { DomainError } from '../../shared/errors.ts';
import { randomBase62 } from '../../shared/ids.ts';
import type { SendMail } from '../../shared/mailer.ts';
import { hashPassword } from '../../shared/password-hash.ts';
import { assertStrongPassword } from './password-policy.ts';
import type { SecondFactor, SignInOutcome } from './second-factor.ts';
import type { SignInContext, UsersService } from './service.ts';
import type { UsersStore } from './store.ts';

const RESET_TTL_MS = 3_600_000;
const GONE = 'This reset link is unknown, used or expired; ask for a new one.';

const usable = (q: Queryable, tokenHash: string, at: Date) =>
  q('password_resets').where({ token_hash: tokenHash }).whereNull('used_at').where('expires_at', '>', toMillis(at));

/** SQL on `password_resets` only. */
function resetsStore(db: Queryable) {
  return {
    async insert(tokenHash: string, userId: string, at: Date): Promise<void> {
      await db('password_resets').insert({
        token_hash: tokenHash,
        user_id: userId,
        created_at: toMillis(at),
        expires_at: toMillis(at) + RESET_TTL_MS,
      });
    },
    /** The user of an unused, unexpired reset, or null. */
    async userOf(tokenHash: string, at: Date): Promise<string | null> {
      const row = await usable(db, tokenHash, at).first();
      return row ? String(row.user_id) : null;
    },
    /** Marks the reset used, if it still is usable (a write first: see db/knex.ts on SQLite's transactions). */
    async take(tokenHash: string, at: Date, q: Queryable): Promise<boolean> {
      return (await usable(q, tokenHash, at).update({ used_at: toMillis(at) })) === 1;
    },
  };
}

export function createPasswordResets(options: {
  db: Knex;
  users: UsersStore;
  sessions: Pick<UsersService, 'countAttempt' | 'endAllSessions'>;
  secondFactor: Pick<SecondFactor, 'signIn'>;
  /** Null without SMTP_URL: then no link can reach anyone, and requests are refused (501). */
  sendMail: SendMail | null;
  /** The dashboard page a reset link opens, given its token. */
  linkOf: (token: string) => string;
  logger: Logger;
  now?: () => number;
}) {
  const { db, users, sessions } = options;
  const store = resetsStore(db);
  const now = () => new Date((options.now ?? Date.now)());

  /** Looks the user up and mails the link; runs after the answer, its failures only logged. */
  async function mailLink(email: string): Promise<void> {
    const user = await users.findUserByEmail(email);
    if (!user) return;
    const token = `qrreset_${randomBase62(40)}`;
    await store.insert(hashToken(token), user.id, now());
    await options.sendMail!({
      to: user.email,
      subject: 'Reset your password',
      text:
        'Someone (we hope you) asked to reset the password of your QR codes account.\n\n' +
        `Open this link to choose a new one (it works once, for an hour):\n${options.linkOf(token)}\n\n` +
        'If it was not you, ignore this message: your password stays as it is.\n',
    });
  }

  return {
    /** Counts the attempt, then answers; the link is mailed (if the user exists) after the answer. */
    async request(email: string, context: SignInContext): Promise<void> {
      if (!options.sendMail)
        throw new DomainError(
          'not_implemented',
          'This service sends no mail (SMTP_URL is not set): ask an owner of your workspace, or the operator.',
        );
      await sessions.countAttempt(email, context.addressHash);
      setImmediate(() => {
        mailLink(email).catch((err: unknown) => options.logger.warn({ err }, 'password reset: the link was not sent'));
      });
    },

    /** Sets the new password with a reset link's token, ends every session and signs the user in. */
    async complete(token: string, password: string, context: SignInContext): Promise<SignInOutcome> {
      const tokenHash = hashToken(token);
      const userId = await store.userOf(tokenHash, now());
      const user = userId ? await users.findUser(userId) : null;
      if (!user) throw new DomainError('unauthorized', GONE);
      // Before the link is taken: a weak password leaves it usable.
      assertStrongPassword(password, [user.email, user.displayName]);
      const passwordHash = await hashPassword(password);
      await inTransaction(db, async (trx) => {
        if (!(await store.take(tokenHash, now(), trx))) throw new DomainError('unauthorized', GONE);
        await users.updateUser(user.id, { passwordHash, updatedAt: now() }, trx);
        // The link came by mail to the user's address: that proves the address is theirs.
        await users.markEmailVerified(user.id, now(), trx);
        // Another link mailed before this one must not take the account back.
        await users.expirePasswordResets(user.id, now(), trx);
      });
      await sessions.endAllSessions(user.id);
      // Read again: the answer shows the email verified.
      return options.secondFactor.signIn((await users.findUser(user.id)) ?? user, context);
    },
  };
}

export type PasswordResets = ReturnType<typeof createPasswordResets>;
