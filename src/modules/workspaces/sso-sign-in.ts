// Signing in through a workspace's identity provider (this service the relying party, with
// openid-client): start sends the browser to the provider's authorization endpoint with PKCE,
// state and nonce; finish takes the provider's answer, checks the ID token, that the email is
// verified and of a covered domain, makes the user and membership on a first sign-in (with the
// default role), and starts the same session as a password sign-in. No local second factor:
// the provider is the factor. Every refusal is an SsoRefusal whose reason the dashboard explains.
import type { Knex } from 'knex';
import * as oidc from 'openid-client';
import { isUniqueViolation } from '../../db/dialect.ts';
import { inTransaction } from '../../db/transaction.ts';
import { newId } from '../../shared/ids.ts';
import { hashToken } from '../../shared/token-hash.ts';
import type { RecordAudit } from '../audit/index.ts';
import type { NewSession, SignInContext, UserRecord, UsersService, UsersStore } from '../users/index.ts';
import type { SsoSettings, SsoStore } from './sso-store.ts';
import type { MembershipsStore } from './store.ts';

/** How long a sign-in may stay at the provider. */
export const SSO_ATTEMPT_TTL_MS = 10 * 60_000;

export const SSO_REFUSALS = [
  'not_configured',
  'provider_error',
  'bad_state',
  'email_unverified',
  'domain_not_covered',
  'account_exists',
] as const;
export type SsoRefusalReason = (typeof SSO_REFUSALS)[number];

/** A sign-in that cannot go on; `reason` is what the dashboard's sign-in page explains. */
export class SsoRefusal extends Error {
  override name = 'SsoRefusal';
  constructor(
    readonly reason: SsoRefusalReason,
    detail: string,
  ) {
    super(detail);
  }
}

const domainOf = (email: string) => email.slice(email.lastIndexOf('@') + 1).toLowerCase();

export function createSsoSignIn(options: {
  db: Knex;
  store: SsoStore;
  memberships: MembershipsStore;
  users: UsersStore;
  sessions: Pick<UsersService, 'startSession' | 'countAttempt'>;
  audit: RecordAudit;
  /** The callback's public URL, as the provider's client registration lists it. */
  redirectUri: string;
  /** openid-client's fetch: the SSRF-checked one (sso-issuer-fetch.ts). */
  fetch: oidc.CustomFetch;
  /** Whether an http:// issuer is allowed (ALLOW_PRIVATE_NETWORK_TARGETS, or development). */
  allowHttp: boolean;
  now?: () => number;
}) {
  const { db, store, memberships, users, audit } = options;
  const now = () => new Date((options.now ?? Date.now)());

  /** The provider's configuration, discovered from its issuer; a refusal when it cannot be read. */
  async function providerOf(settings: SsoSettings): Promise<oidc.Configuration> {
    try {
      // HTTP Basic: the spec's default method, which every provider accepts.
      const auth = oidc.ClientSecretBasic(settings.clientSecret);
      return await oidc.discovery(new URL(settings.issuer), settings.clientId, settings.clientSecret, auth, {
        [oidc.customFetch]: options.fetch,
        execute: options.allowHttp ? [oidc.allowInsecureRequests] : [],
      });
    } catch (err) {
      throw new SsoRefusal('provider_error', `The identity provider could not be reached: ${(err as Error).message}`);
    }
  }

  /** The user of the email: made on a first sign-in; an existing one only when a member already. */
  async function userFor(email: string, name: string, settings: SsoSettings, context: SignInContext) {
    return inTransaction(db, async (trx) => {
      const at = now();
      let user: UserRecord | null = await users.findUserByEmail(email, trx);
      if (user) {
        // The provider vouches for people of its workspace only: someone with a user already must
        // be a member of this workspace (joined by invitation, or an earlier SSO sign-in).
        if (await memberships.find(user.id, settings.accountId, trx)) {
          // The provider vouched for the email (email_verified): it is verified here too.
          await users.markEmailVerified(user.id, at, trx);
          return { ...user, emailVerifiedAt: user.emailVerifiedAt ?? at };
        }
        throw new SsoRefusal(
          'account_exists',
          'A user with this email exists but is not a member of the workspace; sign in with the password.',
        );
      }
      user = {
        id: newId('user'),
        email,
        displayName: name,
        passwordHash: null,
        emailVerifiedAt: at,
        createdAt: at,
        updatedAt: at,
      };
      await users.insertUser(user, trx);
      const membership = { userId: user.id, accountId: settings.accountId, role: settings.defaultRole };
      await memberships.insert({ ...membership, createdAt: at, lastUsedAt: at }, trx);
      const summary = { user_id: user.id, role: settings.defaultRole, via: 'sso' };
      await audit(
        { accountId: settings.accountId, actor: { kind: 'user', id: user.id, addressHash: context.addressHash } },
        { action: 'member.added', objectType: 'member', objectId: user.id, summary },
        trx,
      );
      return user;
    });
  }

  return {
    /** Where to send the browser for this email, and the state to keep in its cookie. */
    async start(email: string, context: SignInContext): Promise<{ url: URL; state: string }> {
      await options.sessions.countAttempt(email, context.addressHash);
      const settings = await store.findByDomain(domainOf(email));
      if (!settings?.enabled)
        throw new SsoRefusal('not_configured', `No workspace signs in ${domainOf(email)} with single sign-on.`);
      const provider = await providerOf(settings);
      const codeVerifier = oidc.randomPKCECodeVerifier();
      const state = oidc.randomState();
      const nonce = oidc.randomNonce();
      await store.purgeAttempts(now());
      await store.insertAttempt({
        stateHash: hashToken(state),
        accountId: settings.accountId,
        codeVerifier,
        nonce,
        expiresAt: new Date(now().getTime() + SSO_ATTEMPT_TTL_MS),
      });
      const url = oidc.buildAuthorizationUrl(provider, {
        redirect_uri: options.redirectUri,
        scope: 'openid email profile',
        code_challenge: await oidc.calculatePKCECodeChallenge(codeVerifier),
        code_challenge_method: 'S256',
        state,
        nonce,
        login_hint: email,
      });
      return { url, state };
    },

    /**
     * Completes the sign-in from the provider's redirect (`callbackUrl`, its query as received),
     * with the state the browser's cookie kept: a new session of the user.
     */
    async finish(callbackUrl: URL, cookieState: string | undefined, context: SignInContext): Promise<NewSession> {
      const error = callbackUrl.searchParams.get('error');
      if (error) {
        const description = callbackUrl.searchParams.get('error_description');
        throw new SsoRefusal(
          'provider_error',
          `The identity provider refused: ${error}${description ? ` (${description})` : ''}.`,
        );
      }
      const state = callbackUrl.searchParams.get('state');
      // The state must be the one this browser started with (its cookie), and taken once.
      if (!state || state !== cookieState) throw new SsoRefusal('bad_state', 'The sign-in’s state does not match.');
      const attempt = await inTransaction(db, (trx) => store.takeAttempt(hashToken(state), trx));
      if (!attempt || attempt.expiresAt <= now())
        throw new SsoRefusal('bad_state', 'The sign-in is unknown, used or too old; start again.');
      const settings = await store.find(attempt.accountId);
      if (!settings?.enabled) throw new SsoRefusal('not_configured', 'The workspace no longer signs in with SSO.');
      const provider = await providerOf(settings);
      let claims: Record<string, unknown> | undefined;
      try {
        const tokens = await oidc.authorizationCodeGrant(provider, callbackUrl, {
          pkceCodeVerifier: attempt.codeVerifier,
          expectedState: state,
          expectedNonce: attempt.nonce,
          idTokenExpected: true,
        });
        const idToken = tokens.claims()!;
        // Providers may keep the email out of the ID token and answer it at the userinfo endpoint
        // (oidc-provider does, when it issues an access token); openid-client checks its subject.
        claims =
          typeof idToken.email === 'string'
            ? { ...idToken }
            : { ...(await oidc.fetchUserInfo(provider, tokens.access_token, idToken.sub)) };
      } catch (err) {
        throw new SsoRefusal('provider_error', `The identity provider’s answer was refused: ${(err as Error).message}`);
      }
      const email = typeof claims?.email === 'string' ? claims.email.trim() : '';
      if (!email || claims?.email_verified !== true)
        throw new SsoRefusal(
          'email_unverified',
          'The identity provider does not vouch for the email (email_verified).',
        );
      if (!settings.domains.includes(domainOf(email)))
        throw new SsoRefusal('domain_not_covered', `${domainOf(email)} is not a domain of this single sign-on.`);
      const name = typeof claims?.name === 'string' && claims.name.trim() ? claims.name.trim() : email.split('@')[0]!;
      const user = await userFor(email, name.slice(0, 191), settings, context).catch((err: unknown) => {
        // The same person's first sign-in twice at once: the second meets the first's rows.
        if (isUniqueViolation(err))
          throw new SsoRefusal('bad_state', 'Another sign-in of this person just ran; try again.');
        throw err;
      });
      return options.sessions.startSession(user, context);
    },
  };
}

export type SsoSignIn = ReturnType<typeof createSsoSignIn>;
