// People and their sessions: password sign-in and sign-out, resolving a session cookie, the
// user's own sessions, profile and password. Workspaces (memberships, roles) are another module's;
// this one knows only who someone is.
import { LRUCache } from 'lru-cache';
import { DomainError, notFound } from '../../shared/errors.ts';
import { newId } from '../../shared/ids.ts';
import { hashPassword, passwordMatches } from '../../shared/password-hash.ts';
import type { RateLimit } from '../../shared/rate-limiter.ts';
import { generateSessionToken, looksLikeSessionToken } from '../../shared/session-token.ts';
import { hashToken } from '../../shared/token-hash.ts';
import { assertStrongPassword } from './password-policy.ts';
import type { ChangePasswordInput, SignInInput, UpdateMeInput } from './schemas.ts';
import type { SessionRecord, UserRecord, UsersStore } from './store.ts';

/**
 * An unknown email is verified against this hash, so that it costs the same argon2id work as a
 * wrong password and the two cannot be told apart by time (its password is nobody's).
 */
const DUMMY_HASH = '$argon2id$v=19$m=19456,t=2,p=1$ZA19RAFiRqdrHy+vBEC7EQ$TmUqw/v43G1wGQqTvJ9ZNA4c+uP/bn0nVR3hGeF1+8I';
/** "Last seen" is written at most this often per session and process. */
const TOUCH_INTERVAL_MS = 60_000;
const DAY_MS = 86_400_000;

export interface SignInContext {
  userAgent: string | null;
  /** The caller's address hashed as scans hash visitors; also what the per-address limit counts. */
  addressHash: string | null;
}

export interface NewSession {
  user: UserRecord;
  session: SessionRecord;
  /** The cookie's value, given out this once. */
  token: string;
}

export interface SignedIn {
  user: UserRecord;
  session: SessionRecord;
}

const WRONG = 'The email or password is wrong.';

export function createUsersService(options: {
  store: UsersStore;
  signInLimit: RateLimit | null;
  idleDays: number;
  absoluteDays: number;
  /** How long this process keeps a resolved session (0: read it on every request). */
  cacheTtlMs: number;
  /** After a user's sessions ended (sign-out, revocation, password change): tell the other processes. */
  onSessionsEnded?: (userId: string) => void;
  now?: () => number;
}) {
  const { store } = options;
  const now = () => new Date((options.now ?? Date.now)());
  const touched = new LRUCache<string, true>({ max: 10_000, ttl: TOUCH_INTERVAL_MS });
  const idleMs = options.idleDays * DAY_MS;
  // Resolved sessions by token hash: a request costs no database read while cached. An ended
  // session is dropped here at once and elsewhere through the invalidation bus (onSessionsEnded);
  // without Redis, other processes may honour it until the entry ages out (cacheTtlMs).
  const cache = new LRUCache<string, SignedIn>({ max: 10_000, ttl: Math.max(options.cacheTtlMs, 1) });
  // Bumped by every drop: a lookup that read the database before a drop must not cache what it read.
  let generation = 0;

  /** Drops the user's cached sessions in this process. */
  function forgetUser(userId: string): void {
    generation++;
    for (const [hash, signedIn] of cache.entries()) if (signedIn.user.id === userId) cache.delete(hash);
  }

  /** Drops them here, then tells the other processes. */
  function ended(userId: string): void {
    forgetUser(userId);
    options.onSessionsEnded?.(userId);
  }

  const live = ({ session }: SignedIn, at: Date) =>
    session.expiresAt > at && session.lastSeenAt.getTime() + idleMs > at.getTime();

  /**
   * Counts an attempt against the email and the address; a 429 with Retry-After past either limit.
   * No email: a passkey nobody has, counted against the address alone.
   */
  async function countAttempt(email: string | null, addressHash: string | null): Promise<void> {
    if (!options.signInLimit) return;
    const counted: [string, string][] = email ? [[`email:${email.toLowerCase()}`, 'for this email']] : [];
    if (addressHash) counted.push([`address:${addressHash}`, 'from this address']);
    for (const [key, which] of counted) {
      const state = await options.signInLimit.take(key);
      if (state && !state.allowed)
        throw new DomainError(
          'rate_limited',
          `Too many sign-in attempts ${which}; try again in ${state.resetSeconds} s.`,
          undefined,
          state.resetSeconds,
        );
    }
  }

  async function startSession(user: UserRecord, context: SignInContext): Promise<NewSession> {
    const at = now();
    const { token, hash } = generateSessionToken();
    const session: SessionRecord = {
      id: newId('sess'),
      userId: user.id,
      createdAt: at,
      lastSeenAt: at,
      expiresAt: new Date(at.getTime() + options.absoluteDays * DAY_MS),
      userAgent: context.userAgent?.slice(0, 255) ?? null,
      addressHash: context.addressHash,
    };
    await store.insertSession({ ...session, tokenHash: hash });
    return { user, session, token };
  }

  async function userOf(userId: string): Promise<UserRecord> {
    const user = await store.findUser(userId);
    if (!user) throw notFound('user', userId);
    return user;
  }

  /**
   * The user, once `password` proved to be theirs (a 422 on `field` when not), before a change
   * that a stolen session alone must not make. Tries count as sign-ins, so that such a session
   * does not become a way to guess the password.
   */
  async function confirmPassword(userId: string, password: string, field: string): Promise<UserRecord> {
    const user = await userOf(userId);
    await countAttempt(user.email, null);
    if (!user.passwordHash || !(await passwordMatches(user.passwordHash, password)))
      throw new DomainError('validation_failed', `${field}: is wrong`, [{ path: field, message: 'is wrong' }]);
    return user;
  }

  return {
    /**
     * The user of an email and password, the first step of signing in (the second factor's module
     * then starts a session, or a challenge). Unknown email and wrong password are the same 401
     * after the same work.
     */
    async checkPassword(input: SignInInput, context: SignInContext): Promise<UserRecord> {
      await countAttempt(input.email, context.addressHash);
      const user = await store.findUserByEmail(input.email);
      const matches = await passwordMatches(user?.passwordHash ?? DUMMY_HASH, input.password);
      if (!user?.passwordHash || !matches) throw new DomainError('unauthorized', WRONG);
      return user;
    },

    /**
     * A new session for the user: a new one every time (a cookie sent along is never reused, so
     * nobody can plant a session id beforehand).
     */
    startSession,

    confirmPassword,

    /**
     * The live session of a cookie's token and its user, or null when unknown, idle past
     * SESSION_IDLE_DAYS or past SESSION_ABSOLUTE_DAYS. Read from the database on every request, so
     * a sign-out or revocation applies on the next request on every instance.
     */
    async resolve(token: string): Promise<SignedIn | null> {
      if (!looksLikeSessionToken(token)) return null;
      const hash = hashToken(token);
      const at = now();
      let signedIn = cache.get(hash) ?? null;
      if (!signedIn) {
        const readAt = generation;
        const session = await store.findSessionByHash(hash);
        const user = session ? await store.findUser(session.userId) : null;
        if (!session || !user) return null;
        signedIn = { user, session };
        if (readAt === generation && options.cacheTtlMs > 0) cache.set(hash, signedIn);
      }
      if (!live(signedIn, at)) return null;
      if (!touched.has(signedIn.session.id)) {
        touched.set(signedIn.session.id, true);
        signedIn.session.lastSeenAt = at;
        await store.touchSession(signedIn.session.id, at);
      }
      return signedIn;
    },

    /** Ends one of the user's sessions (sign-out, or revoking another device's); a 404 if not theirs. */
    async endSession(userId: string, sessionId: string): Promise<void> {
      if (!(await store.deleteSession(userId, sessionId))) throw notFound('session', sessionId);
      touched.delete(sessionId);
      ended(userId);
    },

    /** The user's live sessions, newest first. */
    async listSessions(userId: string): Promise<SessionRecord[]> {
      const at = now().getTime();
      return (await store.listSessions(userId)).filter(
        (s) => s.expiresAt.getTime() > at && s.lastSeenAt.getTime() + idleMs > at,
      );
    },

    me: userOf,

    async updateMe(userId: string, input: UpdateMeInput): Promise<UserRecord> {
      await userOf(userId);
      await store.updateUser(userId, { displayName: input.display_name, updatedAt: now() });
      forgetUser(userId);
      return userOf(userId);
    },

    /** Changes the password (the current one proves it is the user) and ends every other session. */
    async changePassword(userId: string, currentSessionId: string, input: ChangePasswordInput): Promise<void> {
      const user = await confirmPassword(userId, input.current_password, 'current_password');
      assertStrongPassword(input.new_password, [user.email, user.displayName], 'new_password');
      await store.updateUser(userId, { passwordHash: await hashPassword(input.new_password), updatedAt: now() });
      // A reset link mailed before must not take the account back.
      await store.expirePasswordResets(userId, now());
      await store.deleteOtherSessions(userId, currentSessionId);
      ended(userId);
    },

    /** Counts a sign-in-like attempt (a password reset's request) against the email's and address's limits. */
    countAttempt,

    /** Ends every session of the user, here and in the other processes (a password reset). */
    async endAllSessions(userId: string): Promise<void> {
      await store.deleteOtherSessions(userId, null);
      ended(userId);
    },

    /**
     * The user's record changed where sessions cannot see it (their email verified): drops the
     * sessions' cached copy here and in the other processes, so the next answer shows it.
     */
    userChanged: ended,

    /** Another process ended sessions of this user: drop them here. */
    forgetUser,

    /** Invalidations may have been missed (Redis was away): drop every cached session. */
    forgetAll(): void {
      generation++;
      cache.clear();
    },
  };
}

export type UsersService = ReturnType<typeof createUsersService>;
