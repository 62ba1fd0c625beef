// The second factor's tables: a user's TOTP secret, their recovery codes (SHA-256 only) and the
// challenges of sign-ins waiting for a code. Each write that decides something (a code used, a
// challenge taken) is one UPDATE or DELETE whose row count says who won, so two requests racing
// with one code cannot both succeed.
import type { Queryable } from '../../db/transaction.ts';
import { fromMillis, fromMillisOrNull, toMillis } from '../../db/rows.ts';

export interface TotpRecord {
  userId: string;
  /** Base32, as authenticator apps take it; kept readable (checking a code needs it, as signing a
   * webhook needs its secret) and never answered again after the enrolment. */
  secret: string;
  createdAt: Date;
  /** Null while the enrolment awaits its first code: until then sign-in does not ask for one. */
  confirmedAt: Date | null;
}

export function createSecondFactorStore(db: Queryable) {
  return {
    async findTotp(userId: string): Promise<TotpRecord | null> {
      const row = await db('user_totp').where({ user_id: userId }).first();
      if (!row) return null;
      return {
        userId: row.user_id,
        secret: row.secret,
        createdAt: fromMillis(row.created_at),
        confirmedAt: fromMillisOrNull(row.confirmed_at),
      };
    },

    /** A new, unconfirmed secret in place of an unconfirmed one; false when a confirmed one is there. */
    async putPendingTotp(userId: string, secret: string, at: Date, q: Queryable = db): Promise<boolean> {
      await q('user_totp').where({ user_id: userId }).whereNull('confirmed_at').delete();
      const taken = await q('user_totp').where({ user_id: userId }).first('user_id');
      if (taken) return false;
      await q('user_totp').insert({ user_id: userId, secret, created_at: toMillis(at) });
      return true;
    },

    /**
     * Records that the code of time step `step` was used (and, on enrolment, confirms the secret);
     * false when a code of this step or a later one was used already: a code works once.
     */
    async claimStep(userId: string, step: number, confirmAt: Date | null, q: Queryable = db): Promise<boolean> {
      const update: Record<string, number> = { last_used_step: step };
      if (confirmAt) update.confirmed_at = toMillis(confirmAt);
      const claimed = await q('user_totp')
        .where({ user_id: userId })
        .where((w) => (confirmAt ? w.whereNull('confirmed_at') : w.whereNotNull('confirmed_at')))
        .where((w) => w.whereNull('last_used_step').orWhere('last_used_step', '<', step))
        .update(update);
      return claimed === 1;
    },

    /** Removes the secret and the recovery codes: the second factor is off. */
    async deleteSecondFactor(userId: string, q: Queryable = db): Promise<void> {
      await q('recovery_codes').where({ user_id: userId }).delete();
      await q('user_totp').where({ user_id: userId }).delete();
    },

    /** The user's recovery codes become these (the old ones stop working). */
    async replaceRecoveryCodes(userId: string, codeHashes: string[], at: Date, q: Queryable = db): Promise<void> {
      await q('recovery_codes').where({ user_id: userId }).delete();
      await q('recovery_codes').insert(
        codeHashes.map((codeHash) => ({ code_hash: codeHash, user_id: userId, created_at: toMillis(at) })),
      );
    },

    async countUnusedRecoveryCodes(userId: string): Promise<number> {
      const row = await db('recovery_codes').where({ user_id: userId }).whereNull('used_at').count({ n: '*' }).first();
      return Number(row?.n ?? 0);
    },

    /** Uses up an unused recovery code of the user; false when there is none with this hash. */
    async takeRecoveryCode(userId: string, codeHash: string, at: Date): Promise<boolean> {
      const taken = await db('recovery_codes')
        .where({ user_id: userId, code_hash: codeHash })
        .whereNull('used_at')
        .update({ used_at: toMillis(at) });
      return taken === 1;
    },

    async insertChallenge(tokenHash: string, userId: string, at: Date, expiresAt: Date): Promise<void> {
      await db('sign_in_challenges').insert({
        token_hash: tokenHash,
        user_id: userId,
        created_at: toMillis(at),
        expires_at: toMillis(expiresAt),
      });
    },

    /** The user of an unexpired challenge, or null. */
    async challengeUser(tokenHash: string, at: Date): Promise<string | null> {
      const row = await db('sign_in_challenges')
        .where({ token_hash: tokenHash })
        .where('expires_at', '>', toMillis(at))
        .first('user_id');
      return row ? String(row.user_id) : null;
    },

    /** Counts a wrong code against the challenge; it is dropped at `maxFailures`. */
    async failChallenge(tokenHash: string, maxFailures: number): Promise<void> {
      await db('sign_in_challenges').where({ token_hash: tokenHash }).increment('failures', 1);
      await db('sign_in_challenges').where({ token_hash: tokenHash }).where('failures', '>=', maxFailures).delete();
    },

    /** Takes the challenge (once); false when it is gone or expired. Expired ones of anyone go too. */
    async takeChallenge(tokenHash: string, at: Date): Promise<boolean> {
      await db('sign_in_challenges').where('expires_at', '<=', toMillis(at)).delete();
      return (await db('sign_in_challenges').where({ token_hash: tokenHash }).delete()) === 1;
    },
  };
}

export type SecondFactorStore = ReturnType<typeof createSecondFactorStore>;
