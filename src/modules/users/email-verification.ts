// Email verification: a signed-in user asks for a link, mailed to their address (single use, 24
// hours; a new request replaces the one before), and opening it marks the address verified. Other
// proofs of the mailbox count too and call the store's markEmailVerified themselves: a password
// reset completed from its mailed link, an invitation accepted from its mail, a single sign-on
// whose identity provider vouched for the email. Requests count against the sign-in limits of
// the email and the address, as password reset requests do.
import type { Knex } from 'knex';
import { toMillis } from '../../db/rows.ts';
import type { Queryable } from '../../db/transaction.ts';
import { inTransaction } from '../../db/transaction.ts';
import { DomainError } from '../../shared/errors.ts';
import { randomBase62 } from '../../shared/ids.ts';
import type { SendMail } from '../../shared/mailer.ts';
import { hashToken } from '../../shared/token-hash.ts';
import type { SignInContext, UsersService } from './service.ts';
import type { UsersStore } from './store.ts';

const VERIFICATION_TTL_MS = 24 * 3_600_000;
const GONE = 'This verification link is unknown, used or expired; ask for a new one on your profile.';

const usable = (q: Queryable, tokenHash: string, at: Date) =>
  q('email_verifications').where({ token_hash: tokenHash }).whereNull('used_at').where('expires_at', '>', toMillis(at));

/** SQL on `email_verifications` only. */
function verificationsStore(db: Queryable) {
  return {
    /** The user's new link, in place of any open one (only the newest mailed link works). */
    async replace(tokenHash: string, userId: string, email: string, at: Date, q: Queryable): Promise<void> {
      await q('email_verifications')
        .where({ user_id: userId })
        .whereNull('used_at')
        .update({ used_at: toMillis(at) });
      await q('email_verifications').insert({
        token_hash: tokenHash,
        user_id: userId,
        email: email.toLowerCase(),
        created_at: toMillis(at),
        expires_at: toMillis(at) + VERIFICATION_TTL_MS,
      });
    },
    /**
     * Marks an unused, unexpired link used and returns whom and which address it was for; null when
     * none. One conditional UPDATE decides, so two requests racing with one link cannot both win
     * (and it writes first: see db/knex.ts on SQLite's transactions).
     */
    async take(tokenHash: string, at: Date, q: Queryable = db): Promise<{ userId: string; email: string } | null> {
      if ((await usable(q, tokenHash, at).update({ used_at: toMillis(at) })) !== 1) return null;
      const row = await q('email_verifications').where({ token_hash: tokenHash }).first();
      return { userId: String(row.user_id), email: String(row.email) };
    },
  };
}

export function createEmailVerification(options: {
  db: Knex;
  users: UsersStore;
  sessions: Pick<UsersService, 'countAttempt' | 'userChanged'>;
  /** Null without SMTP_URL: then no link can reach anyone, and requests are refused (501). */
  sendMail: SendMail | null;
  /** The dashboard page a verification link opens, given its token. */
  linkOf: (token: string) => string;
  now?: () => number;
}) {
  const { db, users, sessions } = options;
  const store = verificationsStore(db);
  const now = () => new Date((options.now ?? Date.now)());

  return {
    /** Mails a new link to the signed-in user's address; 409 when it is verified already. */
    async request(userId: string, context: SignInContext): Promise<{ email: string; expiresAt: Date }> {
      if (!options.sendMail)
        throw new DomainError(
          'not_implemented',
          'This service sends no mail (SMTP_URL is not set): ask the operator, or sign in with single sign-on.',
        );
      const user = await users.findUser(userId);
      if (!user) throw new DomainError('unauthorized', 'Sign in again.');
      if (user.emailVerifiedAt) throw new DomainError('conflict', `${user.email} is verified already.`);
      await sessions.countAttempt(user.email, context.addressHash);
      const token = `qrverify_${randomBase62(40)}`;
      const at = now();
      await inTransaction(db, (trx) => store.replace(hashToken(token), user.id, user.email, at, trx));
      try {
        await options.sendMail({
          to: user.email,
          subject: 'Verify your email address',
          text:
            'Someone (we hope you) asked to verify this address for a QR codes account.\n\n' +
            `Open this link to confirm it is yours (it works once, for 24 hours):\n${options.linkOf(token)}\n\n` +
            'If it was not you, ignore this message.\n',
        });
      } catch {
        throw new DomainError('unavailable', 'The mail server did not take the message; try again in a while.');
      }
      return { email: user.email, expiresAt: new Date(at.getTime() + VERIFICATION_TTL_MS) };
    },

    /**
     * Marks the address of a link's token verified (public: the link is the proof); 401 for an
     * unknown, used or expired link. A link mailed to an address the user no longer has is used up
     * and verifies nothing.
     */
    async confirm(token: string): Promise<{ email: string; verifiedAt: Date }> {
      const at = now();
      const verified = await inTransaction(db, async (trx) => {
        const taken = await store.take(hashToken(token), at, trx);
        if (!taken) return null;
        const user = await users.findUser(taken.userId, trx);
        if (!user || user.email.toLowerCase() !== taken.email) return null;
        await users.markEmailVerified(user.id, at, trx);
        return { userId: user.id, email: user.email };
      });
      if (!verified) throw new DomainError('unauthorized', GONE);
      sessions.userChanged(verified.userId);
      const user = await users.findUser(verified.userId);
      return { email: verified.email, verifiedAt: user?.emailVerifiedAt ?? at };
    },
  };
}

export type EmailVerification = ReturnType<typeof createEmailVerification>;
