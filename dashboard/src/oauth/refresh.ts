// When /graphql refuses the tab's OAuth access token (401: it lasts 10 minutes), a new one from
// the refresh token, if the client has that grant. One refresh at a time: the server rotates a
// public client's refresh token and treats a spent one presented again as theft (it revokes
// the sign-in), so requests refused together share the one refresh.
import { currentMessages } from '../i18n/index.ts';
import { currentCredential, replaceOAuthTokens } from '../session.ts';
import { refreshTokens } from './token-endpoint.ts';

export type Renewal = { ok: true; token: string } | { ok: false; reason: string };

let inFlight: Promise<Renewal> | null = null;

async function refresh(clientId: string, refreshToken: string): Promise<Renewal> {
  try {
    const answer = await refreshTokens(clientId, refreshToken);
    replaceOAuthTokens(answer.access_token, answer.refresh_token ?? refreshToken);
    return { ok: true, token: answer.access_token };
  } catch (err) {
    return { ok: false, reason: currentMessages().oauth.notRenewed((err as Error).message) };
  }
}

/** After `refused` got a 401: the token to retry with, or why the session is over. */
export async function renewAccessToken(refused: string): Promise<Renewal> {
  const credential = currentCredential();
  if (credential?.kind !== 'oauth') return { ok: false, reason: currentMessages().oauth.signedOut };
  // Another request already renewed it: retry with the new one.
  if (credential.token !== refused) return { ok: true, token: credential.token };
  if (!credential.refreshToken) return { ok: false, reason: currentMessages().oauth.noRefreshToken };
  inFlight ??= refresh(credential.clientId, credential.refreshToken).finally(() => (inFlight = null));
  return inFlight;
}
