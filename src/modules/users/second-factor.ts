// The TOTP second factor (RFC 6238 through `otpauth`: SHA-1, 6 digits, 30 s, as every
// authenticator app reads an otpauth:// URI) and its recovery codes. Enrolment: the user asks for
// a secret (shown once, with its URI and a QR code), then confirms it with a code; only then does
// sign-in ask for one. A password sign-in of such a user starts a challenge instead of a session,
// and the challenge with a current code (or an unused recovery code) completes it.
//
// Recovery codes are 80 random bits each (16 base32 letters), kept hashed as other tokens are
// (shared/token-hash.ts). A code's time step is recorded when used, so a code works once within its window.
import { Secret, TOTP } from 'otpauth';
import type { Knex } from 'knex';
import QRCode from 'qrcode';
import { inTransaction, type Queryable } from '../../db/transaction.ts';
import { DomainError } from '../../shared/errors.ts';
import { randomBase62 } from '../../shared/ids.ts';
import { hashToken } from '../../shared/token-hash.ts';
import type { SecondFactorStore } from './second-factor-store.ts';
import type { NewSession, SignInContext, UsersService } from './service.ts';
import type { UserRecord } from './store.ts';

const PERIOD_SECONDS = 30;
/** Codes of the step before and after are accepted too: a phone's clock may be a little off. */
const WINDOW = 1;
const RECOVERY_CODE_COUNT = 10;
const CHALLENGE_TTL_MS = 5 * 60_000;
/** Wrong codes a challenge takes before the password must be entered again. */
const CHALLENGE_MAX_FAILURES = 5;

/** Spaces, dashes and case do not matter in a recovery code. */
const normalizeRecoveryCode = (code: string) => code.toLowerCase().replace(/[^a-z2-7]/g, '');
const looksLikeTotpCode = (code: string) => /^\d{6}$/.test(code.replace(/\s/g, ''));
const newRecoveryCode = () => new Secret({ size: 10 }).base32.toLowerCase().match(/.{4}/g)!.join('-');

const WRONG_CODE = 'The code is wrong, or was used already.';
const CHALLENGE_GONE = 'This sign-in has expired or had too many wrong codes; sign in with your password again.';

/** A password sign-in's outcome: a session, or a challenge awaiting the second factor. */
export type SignInOutcome =
  { kind: 'signed_in'; started: NewSession } | { kind: 'second_factor_required'; challenge: string; expiresAt: Date };

export interface SecondFactorStatus {
  enabled: boolean;
  enabledAt: Date | null;
  recoveryCodesLeft: number;
}

export interface Enrolment {
  secret: string;
  uri: string;
  qrSvg: string;
}

export function createSecondFactor(options: {
  db: Knex;
  store: SecondFactorStore;
  users: Pick<UsersService, 'me' | 'startSession' | 'countAttempt' | 'confirmPassword'>;
  /** Names the service in authenticator apps (the public host). */
  issuer: string;
  now?: () => number;
}) {
  const { db, store, users } = options;
  const now = () => new Date((options.now ?? Date.now)());
  const totpOf = (secret: string, label = 'account') =>
    new TOTP({ issuer: options.issuer, label, secret: Secret.fromBase32(secret), period: PERIOD_SECONDS });

  /** The time step of `code` if it is current for `secret`, else null. */
  function stepOf(secret: string, code: string): number | null {
    const timestamp = now().getTime();
    const delta = totpOf(secret).validate({ token: code.replace(/\s/g, ''), timestamp, window: WINDOW });
    return delta === null ? null : Math.floor(timestamp / 1000 / PERIOD_SECONDS) + delta;
  }

  /** New recovery codes for the user, in place of any before; the codes are answered this once. */
  async function issueRecoveryCodes(userId: string, q: Queryable = db): Promise<string[]> {
    const codes = Array.from({ length: RECOVERY_CODE_COUNT }, newRecoveryCode);
    await store.replaceRecoveryCodes(
      userId,
      codes.map((c) => hashToken(normalizeRecoveryCode(c))),
      now(),
      q,
    );
    return codes;
  }

  /** Whether `code` is a current TOTP code or an unused recovery code of the user; uses it up if so. */
  async function useCode(userId: string, code: string): Promise<boolean> {
    if (looksLikeTotpCode(code)) {
      const totp = await store.findTotp(userId);
      const step = totp?.confirmedAt ? stepOf(totp.secret, code) : null;
      return step !== null && (await store.claimStep(userId, step, null));
    }
    const normalized = normalizeRecoveryCode(code);
    return normalized.length > 0 && store.takeRecoveryCode(userId, hashToken(normalized), now());
  }

  async function enabled(userId: string): Promise<boolean> {
    return (await store.findTotp(userId))?.confirmedAt != null;
  }

  return {
    async status(userId: string): Promise<SecondFactorStatus> {
      const totp = await store.findTotp(userId);
      const on = totp?.confirmedAt ?? null;
      return {
        enabled: on !== null,
        enabledAt: on,
        recoveryCodesLeft: on ? await store.countUnusedRecoveryCodes(userId) : 0,
      };
    },

    /** A new secret awaiting confirmation (any unconfirmed one before is replaced); 409 when on already. */
    async begin(userId: string): Promise<Enrolment> {
      const user = await users.me(userId);
      const secret = new Secret({ size: 20 }).base32;
      if (!(await inTransaction(db, (trx) => store.putPendingTotp(userId, secret, now(), trx))))
        throw new DomainError(
          'conflict',
          'Two-factor authentication is on already; turn it off first to set it up anew.',
        );
      const uri = totpOf(secret, user.email).toString();
      const qrSvg = await QRCode.toString(uri, { type: 'svg', margin: 2, errorCorrectionLevel: 'M' });
      return { secret, uri, qrSvg };
    },

    /** Turns the second factor on with a current code of the new secret; answers the recovery codes. */
    async confirm(userId: string, code: string): Promise<string[]> {
      const totp = await store.findTotp(userId);
      if (!totp || totp.confirmedAt)
        throw new DomainError(
          'conflict',
          totp
            ? 'Two-factor authentication is on already.'
            : 'Ask for a secret first (POST /v1/users/me/second-factor).',
        );
      await users.countAttempt((await users.me(userId)).email, null);
      const step = stepOf(totp.secret, code);
      return inTransaction(db, async (trx) => {
        if (step === null || !(await store.claimStep(userId, step, now(), trx)))
          throw new DomainError('validation_failed', `code: ${WRONG_CODE}`, [{ path: 'code', message: WRONG_CODE }]);
        return issueRecoveryCodes(userId, trx);
      });
    },

    /** Turns the second factor off; the password proves it is the user. */
    async disable(userId: string, password: string): Promise<void> {
      await users.confirmPassword(userId, password, 'password');
      await inTransaction(db, (trx) => store.deleteSecondFactor(userId, trx));
    },

    /** New recovery codes (the old ones stop working); the password proves it is the user. */
    async regenerateRecoveryCodes(userId: string, password: string): Promise<string[]> {
      await users.confirmPassword(userId, password, 'password');
      if (!(await enabled(userId)))
        throw new DomainError('conflict', 'Two-factor authentication is off: there are no recovery codes to renew.');
      return inTransaction(db, (trx) => issueRecoveryCodes(userId, trx));
    },

    /** After the password was right: a session, or, with the second factor on, a challenge for the code. */
    async signIn(user: UserRecord, context: SignInContext): Promise<SignInOutcome> {
      if (!(await enabled(user.id))) return { kind: 'signed_in', started: await users.startSession(user, context) };
      const challenge = `qrmfa_${randomBase62(40)}`;
      const expiresAt = new Date(now().getTime() + CHALLENGE_TTL_MS);
      await store.insertChallenge(hashToken(challenge), user.id, now(), expiresAt);
      return { kind: 'second_factor_required', challenge, expiresAt };
    },

    /**
     * Completes a challenged sign-in with a current TOTP code or an unused recovery code. Tries
     * count against the sign-in limits like passwords; a challenge takes a few wrong codes only.
     */
    async completeSignIn(challenge: string, code: string, context: SignInContext): Promise<NewSession> {
      const challengeHash = hashToken(challenge);
      const userId = await store.challengeUser(challengeHash, now());
      if (!userId) throw new DomainError('unauthorized', CHALLENGE_GONE);
      const user = await users.me(userId);
      await users.countAttempt(user.email, context.addressHash);
      if (!(await useCode(userId, code))) {
        await store.failChallenge(challengeHash, CHALLENGE_MAX_FAILURES);
        throw new DomainError('unauthorized', WRONG_CODE);
      }
      if (!(await store.takeChallenge(challengeHash, now()))) throw new DomainError('unauthorized', CHALLENGE_GONE);
      return users.startSession(user, context);
    },
  };
}

export type SecondFactor = ReturnType<typeof createSecondFactor>;
