// The OAuth server's token and revocation endpoints, on this origin (/oauth). The dashboard is
// a public client: it names its client_id and proves the code with the PKCE verifier; it has no
// secret to send. Answers are OAuth's JSON ({access_token, …} or {error, error_description}).
import { currentMessages } from '../i18n/index.ts';

export const OAUTH_PATH = '/oauth';

export interface TokenAnswer {
  access_token: string;
  token_type: string;
  expires_in?: number;
  refresh_token?: string;
  scope?: string;
}

/** The token endpoint refused (its `error` as `code`), or could not be reached (`network`). */
export class OAuthError extends Error {
  constructor(
    message: string,
    readonly code: string,
  ) {
    super(message);
  }
}

function postForm(path: string, fields: Record<string, string>): Promise<Response> {
  return fetch(OAUTH_PATH + path, {
    method: 'POST',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded', Accept: 'application/json' },
    body: new URLSearchParams(fields),
    // The provider's cookies belong to the consent page; tokens are asked for without them.
    credentials: 'omit',
    cache: 'no-store',
  });
}

async function requestTokens(fields: Record<string, string>): Promise<TokenAnswer> {
  let res: Response;
  try {
    res = await postForm('/token', fields);
  } catch {
    throw new OAuthError(currentMessages().api.unreachable, 'network');
  }
  const body = (await res.json().catch(() => null)) as
    (Partial<TokenAnswer> & { error?: string; error_description?: string }) | null;
  if (!res.ok || typeof body?.access_token !== 'string') {
    throw new OAuthError(
      body?.error_description ?? currentMessages().oauth.tokenEndpointAnswered(res.status),
      body?.error ?? `http_${res.status}`,
    );
  }
  return body as TokenAnswer;
}

/** The authorization code, redeemed with the verifier of the challenge sent with it. */
export function exchangeCode(params: {
  code: string;
  redirectUri: string;
  clientId: string;
  verifier: string;
}): Promise<TokenAnswer> {
  return requestTokens({
    grant_type: 'authorization_code',
    code: params.code,
    redirect_uri: params.redirectUri,
    client_id: params.clientId,
    code_verifier: params.verifier,
  });
}

/** A new access token; the server also rotates the refresh token of a public client. */
export function refreshTokens(clientId: string, refreshToken: string): Promise<TokenAnswer> {
  return requestTokens({ grant_type: 'refresh_token', refresh_token: refreshToken, client_id: clientId });
}

/** Revokes a refresh token (RFC 7009) when signing out; best effort, never throws. */
export async function revokeRefreshToken(clientId: string, refreshToken: string): Promise<void> {
  await postForm('/token/revocation', {
    token: refreshToken,
    token_type_hint: 'refresh_token',
    client_id: clientId,
  }).catch(() => undefined);
}
