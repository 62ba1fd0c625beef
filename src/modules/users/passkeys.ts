// Passkeys (WebAuthn, through @simplewebauthn/server): a signed-in person registers, names, lists
// and deletes theirs, and signs in with one, by email or without (discoverable credentials). A
// passkey proves possession of a device and, with user verification required, its PIN or
// biometric: it stands for both factors, so its sign-in starts a session with no TOTP step.
//
// Each ceremony's challenge is stored (its SHA-256, in passkey_challenges) with its purpose and,
// for a registration or a sign-in that named an email, its user; the response's clientDataJSON
// names the challenge, and taking that row (a DELETE) is what uses it, once, before the library
// checks the rest. The relying party is the service's public URL: its host is the RP ID, its
// origin the only origin accepted.
import {
  generateAuthenticationOptions,
  generateRegistrationOptions,
  verifyAuthenticationResponse,
  verifyRegistrationResponse,
  type AuthenticationResponseJSON,
  type PublicKeyCredentialCreationOptionsJSON,
  type PublicKeyCredentialRequestOptionsJSON,
  type RegistrationResponseJSON,
} from '@simplewebauthn/server';
import { COSEALG } from '@simplewebauthn/server/helpers';
import { DomainError, notFound } from '../../shared/errors.ts';
import { newId } from '../../shared/ids.ts';
import { hashToken } from '../../shared/token-hash.ts';
import type { ChallengePurpose, PasskeyRecord, PasskeyStore } from './passkey-store.ts';
import type { RegisterPasskeyInput } from './passkey-schemas.ts';
import type { NewSession, SignInContext, UsersService } from './service.ts';
import type { UsersStore } from './store.ts';

const CHALLENGE_TTL_MS = 5 * 60_000;
/** Enough for every device a person owns; a bound on what one account may store. */
const MAX_PASSKEYS_PER_USER = 25;
/**
 * EdDSA, ES256 and RS256: what passkeys use. Named rather than left to the library's default,
 * which probes Web Crypto for post-quantum algorithms and makes Node print an experimental-feature
 * warning into the log.
 */
const ALGORITHMS = [COSEALG.EdDSA, COSEALG.ES256, COSEALG.RS256];
const NOT_ACCEPTED = 'The passkey was not accepted; sign in again.';

export interface RelyingParty {
  /** The public host (PUBLIC_BASE_URL's), which passkeys are bound to. */
  id: string;
  name: string;
  /** PUBLIC_BASE_URL's origin: the only page allowed to use them. */
  origin: string;
}

/** The relying party of the service's public URL. */
export function relyingPartyOf(publicBaseUrl: string): RelyingParty {
  const url = new URL(publicBaseUrl);
  return { id: url.hostname, name: url.host, origin: url.origin };
}

export interface CeremonyOptions<T> {
  options: T;
  expiresAt: Date;
}

/** The WebAuthn user handle of a user: their id's bytes (no email in it: it is stored on the device). */
const userHandleOf = (userId: string) => new TextEncoder().encode(userId);
const base64urlOf = (bytes: Uint8Array) => Buffer.from(bytes).toString('base64url');

/** The challenge a response's clientDataJSON names, or a 422 when it names none. */
function challengeOf(clientDataJSON: string): string {
  try {
    const parsed = JSON.parse(Buffer.from(clientDataJSON, 'base64url').toString('utf8')) as { challenge?: unknown };
    if (typeof parsed.challenge === 'string' && parsed.challenge) return parsed.challenge;
  } catch {
    // Falls through to the 422 below.
  }
  const message = 'is not the client data of a WebAuthn ceremony';
  throw new DomainError('validation_failed', `response.response.clientDataJSON: ${message}`, [
    { path: 'response.response.clientDataJSON', message },
  ]);
}

export function createPasskeys(options: {
  store: PasskeyStore;
  users: Pick<UsersService, 'me' | 'startSession' | 'countAttempt' | 'confirmPassword'>;
  findUserByEmail: UsersStore['findUserByEmail'];
  relyingParty: RelyingParty;
  now?: () => number;
}) {
  const { store, users, relyingParty: rp } = options;
  const now = () => new Date((options.now ?? Date.now)());

  /** What every answer must show: this challenge, the service's origin and host, a verified user. */
  const expectations = (challenge: string) => ({
    expectedChallenge: challenge,
    expectedOrigin: rp.origin,
    expectedRPID: rp.id,
    requireUserVerification: true,
  });

  async function issueChallenge(challenge: string, purpose: ChallengePurpose, userId: string | null): Promise<Date> {
    const at = now();
    const expiresAt = new Date(at.getTime() + CHALLENGE_TTL_MS);
    await store.insertChallenge({ hash: hashToken(challenge), purpose, userId, createdAt: at, expiresAt });
    return expiresAt;
  }

  /** Takes the response's challenge (once): its user; `gone` when it is unknown, used or expired. */
  async function takeChallenge(
    clientDataJSON: string,
    purpose: ChallengePurpose,
    gone: () => DomainError,
  ): Promise<{ challenge: string; userId: string | null }> {
    const challenge = challengeOf(clientDataJSON);
    const userId = await store.takeChallenge(hashToken(challenge), purpose, now());
    if (userId === undefined) throw gone();
    return { challenge, userId };
  }

  return {
    /** The user's passkeys, oldest first. */
    list: (userId: string): Promise<PasskeyRecord[]> => store.listByUser(userId),

    /** Options for `navigator.credentials.create()`: a resident key with user verification. */
    async registrationOptions(userId: string): Promise<CeremonyOptions<PublicKeyCredentialCreationOptionsJSON>> {
      const user = await users.me(userId);
      const existing = await store.listByUser(userId);
      const creation = await generateRegistrationOptions({
        rpName: rp.name,
        rpID: rp.id,
        userName: user.email,
        userID: userHandleOf(user.id),
        userDisplayName: user.displayName,
        timeout: CHALLENGE_TTL_MS,
        attestationType: 'none',
        // The device must not make a second passkey for the same person here.
        excludeCredentials: existing.map((p) => ({ id: p.credentialId, transports: p.transports })),
        authenticatorSelection: { residentKey: 'required', userVerification: 'required' },
        supportedAlgorithmIDs: ALGORITHMS,
      });
      return { options: creation, expiresAt: await issueChallenge(creation.challenge, 'registration', userId) };
    },

    /** Verifies a new passkey's attestation against the user's own challenge and keeps it. */
    async register(userId: string, input: RegisterPasskeyInput): Promise<PasskeyRecord> {
      const response = input.response as unknown as RegistrationResponseJSON;
      const gone = () =>
        new DomainError('conflict', 'This registration has expired or was used; ask for new options and try again.');
      const taken = await takeChallenge(response.response.clientDataJSON, 'registration', gone);
      if (taken.userId !== userId) throw gone();
      if ((await store.listByUser(userId)).length >= MAX_PASSKEYS_PER_USER)
        throw new DomainError('conflict', `A user may have ${MAX_PASSKEYS_PER_USER} passkeys; delete one first.`);
      let verified;
      try {
        verified = await verifyRegistrationResponse({
          response,
          ...expectations(taken.challenge),
          supportedAlgorithmIDs: ALGORITHMS,
        });
      } catch (err) {
        const message = (err as Error).message;
        throw new DomainError('validation_failed', `response: ${message}`, [{ path: 'response', message }]);
      }
      if (!verified.verified) throw new DomainError('validation_failed', 'response: was not verified');
      const { credential } = verified.registrationInfo;
      if (await store.findByCredentialId(credential.id))
        throw new DomainError('conflict', 'This passkey is registered already.');
      const passkey: PasskeyRecord = {
        id: newId('pk'),
        userId,
        credentialId: credential.id,
        publicKey: base64urlOf(credential.publicKey),
        counter: credential.counter,
        transports: credential.transports ?? [],
        name: input.name,
        createdAt: now(),
        lastUsedAt: null,
      };
      await store.insert(passkey);
      return passkey;
    },

    /** Renames one of the user's passkeys; a 404 when it is not theirs. */
    async rename(userId: string, id: string, name: string): Promise<PasskeyRecord> {
      if (!(await store.rename(userId, id, name))) throw notFound('passkey', id);
      return (await store.findOfUser(userId, id))!;
    },

    /** Deletes one of the user's passkeys, the password first (as turning the second factor off). */
    async delete(userId: string, id: string, password: string): Promise<void> {
      if (!(await store.findOfUser(userId, id))) throw notFound('passkey', id);
      await users.confirmPassword(userId, password, 'password');
      if (!(await store.delete(userId, id))) throw notFound('passkey', id);
    },

    /**
     * Options for `navigator.credentials.get()`. With an email, only that person's passkeys are
     * offered (an unknown email gets the same answer as one without passkeys: none listed, so the
     * browser offers what it has); without, the browser offers every passkey of this site.
     */
    async signInOptions(email: string | undefined): Promise<CeremonyOptions<PublicKeyCredentialRequestOptionsJSON>> {
      const user = email ? await options.findUserByEmail(email) : null;
      const passkeys = user ? await store.listByUser(user.id) : [];
      const request = await generateAuthenticationOptions({
        rpID: rp.id,
        timeout: CHALLENGE_TTL_MS,
        userVerification: 'required',
        allowCredentials: passkeys.map((p) => ({ id: p.credentialId, transports: p.transports })),
      });
      const boundTo = passkeys.length > 0 ? user!.id : null;
      return { options: request, expiresAt: await issueChallenge(request.challenge, 'authentication', boundTo) };
    },

    /**
     * Signs in with a passkey's assertion: a session, as a password sign-in with its second factor
     * gives. Counts against the sign-in limits of the passkey's user and of the address. A counter
     * that did not move forward (a cloned authenticator, says the spec) is refused.
     */
    async signIn(input: { response: unknown }, context: SignInContext): Promise<NewSession> {
      const response = input.response as AuthenticationResponseJSON;
      const passkey = await store.findByCredentialId(response.id);
      const user = passkey ? await users.me(passkey.userId) : null;
      await users.countAttempt(user?.email ?? null, context.addressHash);
      const refused = () => new DomainError('unauthorized', NOT_ACCEPTED);
      const taken = await takeChallenge(response.response.clientDataJSON, 'authentication', refused);
      if (!passkey || !user || (taken.userId !== null && taken.userId !== user.id)) throw refused();
      const handle = response.response.userHandle;
      if (handle !== undefined && handle !== base64urlOf(userHandleOf(user.id))) throw refused();
      let verified;
      try {
        verified = await verifyAuthenticationResponse({
          response,
          ...expectations(taken.challenge),
          credential: {
            id: passkey.credentialId,
            publicKey: new Uint8Array(Buffer.from(passkey.publicKey, 'base64url')),
            counter: passkey.counter,
            transports: passkey.transports,
          },
        });
      } catch (err) {
        throw new DomainError('unauthorized', `${NOT_ACCEPTED} (${(err as Error).message})`);
      }
      if (!verified.verified) throw refused();
      if (!(await store.recordUse(passkey.id, verified.authenticationInfo.newCounter, now()))) throw refused();
      return users.startSession(user, context);
    },
  };
}

export type Passkeys = ReturnType<typeof createPasskeys>;
