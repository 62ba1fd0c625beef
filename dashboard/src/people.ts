// A person's session over REST (POST /v1/sessions, POST /v1/setup, GET and DELETE /v1/session):
// the server sets and clears the HttpOnly cookie; what the tab keeps is the credential built
// from the answer (session.ts). GraphQL carries everything else.
import { ApiError, type FieldProblem } from './graphql.ts';
import { currentMessages } from './i18n/index.ts';
import {
  authHeaders,
  currentCredential,
  sessionCredentialOf,
  signIn,
  signOut,
  type SignedInAnswer,
} from './session.ts';

/**
 * The password was right and the person has a second factor: the sign-in goes on with a code and
 * this challenge (POST /v1/sessions/second-factor).
 */
export class SecondFactorRequired extends Error {
  constructor(readonly challenge: string) {
    super(currentMessages().secondFactor.codeNeeded);
  }
}

async function rest<T>(method: string, path: string, body?: unknown, headers: Record<string, string> = {}): Promise<T> {
  const res = await fetch(path, {
    method,
    headers: { Accept: 'application/json', ...(body ? { 'Content-Type': 'application/json' } : {}), ...headers },
    body: body ? JSON.stringify(body) : undefined,
  });
  if (res.status === 204) return undefined as T;
  const answer = (await res.json().catch(() => null)) as
    (T & { detail?: string; errors?: FieldProblem[]; type?: string; challenge?: string }) | null;
  if (answer?.type === '/problems/second-factor-required' && answer.challenge)
    throw new SecondFactorRequired(answer.challenge);
  if (!res.ok) {
    const detail = answer?.detail ?? currentMessages().common.serverAnswered(res.status);
    throw new ApiError(detail, res.status === 401 ? 'UNAUTHORIZED' : `HTTP_${res.status}`, answer?.errors ?? []);
  }
  return answer as T;
}

/** Keeps the answer of a sign-in or setup as the tab's credential. */
function keep(answer: SignedInAnswer): void {
  const credential = sessionCredentialOf(answer);
  if (!credential) throw new ApiError(currentMessages().account.noWorkspace, 'FORBIDDEN');
  signIn(credential);
}

export async function signInWithPassword(email: string, password: string): Promise<void> {
  keep(await rest<SignedInAnswer>('POST', '/v1/sessions', { email, password }));
}

/** The second step of a sign-in: the challenge with a TOTP code or a recovery code. */
export async function completeSecondFactor(challenge: string, code: string): Promise<void> {
  keep(await rest<SignedInAnswer>('POST', '/v1/sessions/second-factor', { challenge, code }));
}

/** The options of a passkey sign-in (only `email`'s passkeys when given). */
export async function startPasskeySignIn<T>(email: string): Promise<T> {
  const body = email ? { email } : {};
  return (await rest<{ options: T }>('POST', '/v1/sessions/passkey/options', body)).options;
}

/** Completes a passkey sign-in with the device's answer: both factors at once, no code asked. */
export async function signInWithPasskeyAnswer(response: unknown): Promise<void> {
  keep(await rest<SignedInAnswer>('POST', '/v1/sessions/passkey', { response }));
}

export interface SetupForm {
  token: string;
  email: string;
  display_name: string;
  password: string;
  workspace_name?: string;
}

/** The first owner, with the setup link's token: creates the user (and workspace) and signs in. */
export async function completeSetup(form: SetupForm): Promise<void> {
  keep(await rest<SignedInAnswer>('POST', '/v1/setup', form));
}

/**
 * A tab opened without a credential asks whether the browser still holds a session cookie (a
 * new tab, a restarted browser); resolves true when it did and the tab is signed in again.
 */
export async function restoreCookieSession(): Promise<boolean> {
  // The server sets this script-readable companion of its HttpOnly cookie (http/session-cookie.ts).
  if (!document.cookie.split('; ').includes('qr_signed_in=1')) return false;
  try {
    const answer = await rest<SignedInAnswer>('GET', '/v1/session');
    const credential = sessionCredentialOf(answer);
    if (!credential) return false;
    signIn(credential);
    return true;
  } catch {
    return false;
  }
}

/** Ends the person's session on the server (every instance), then forgets it in the tab. */
export async function signOutPerson(): Promise<void> {
  const credential = currentCredential();
  try {
    if (credential?.kind === 'session') await rest('DELETE', '/v1/session', undefined, authHeaders(credential));
  } finally {
    signOut();
  }
}

/** What an invitation's link offers (POST /v1/invitations/preview). */
export interface InvitationOffer {
  workspace_name: string;
  role: string;
  email: string | null;
  expires_at: string;
}

export const previewInvitation = (token: string) => rest<InvitationOffer>('POST', '/v1/invitations/preview', { token });

/** A new person accepts: their user is made, they join and are signed in. */
export async function registerWithInvitation(form: {
  token: string;
  email?: string;
  display_name: string;
  password: string;
}): Promise<void> {
  keep(await rest<SignedInAnswer>('POST', '/v1/invitations/register', form));
}

/** The signed-in person joins; the tab then works in the workspace joined. */
export async function acceptInvitation(token: string): Promise<void> {
  const credential = currentCredential();
  if (credential?.kind !== 'session') throw new ApiError(currentMessages().account.withEmailFirst, 'UNAUTHORIZED');
  const joined = await rest<{ id: string }>('POST', '/v1/invitations/accept', { token }, authHeaders(credential));
  const answer = await rest<SignedInAnswer>('GET', '/v1/session');
  const next = sessionCredentialOf(answer, joined.id);
  if (next) signIn(next);
}

/** Asks for a reset link; the server answers alike whether the email has an account. */
export async function requestPasswordReset(email: string): Promise<void> {
  await rest('POST', '/v1/password-resets', { email });
}

/** Sets the new password with the mailed link's token and signs in. */
export async function resetPassword(token: string, password: string): Promise<void> {
  keep(await rest<SignedInAnswer>('POST', '/v1/password-resets/complete', { token, password }));
}

/** Verifies the address a mailed link was sent to (public: the link is the proof); answers the address. */
export async function confirmEmailVerification(token: string): Promise<string> {
  return (await rest<{ email: string }>('POST', '/v1/email-verification/confirm', { token })).email;
}

/** A REST call as the signed-in person (cookie, CSRF token, workspace): the members and profile pages'. */
export function asPerson<T>(method: string, path: string, body?: unknown): Promise<T> {
  const credential = currentCredential();
  if (credential?.kind !== 'session')
    return Promise.reject(new ApiError(currentMessages().account.withEmailFirst, 'UNAUTHORIZED'));
  return rest<T>(method, path, body, authHeaders(credential));
}
