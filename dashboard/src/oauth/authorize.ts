// Starting an OAuth sign-in (authorization code with PKCE S256): a fresh state and code
// verifier, kept in this tab's sessionStorage until the server sends the browser back to
// /dashboard/oauth/callback (./callback.ts), then the browser goes to the authorization endpoint.
import { currentMessages } from '../i18n/index.ts';
import { href } from '../router.ts';
import { randomToken, s256Challenge } from './pkce.ts';
import { OAUTH_PATH } from './token-endpoint.ts';

/** The dashboard path the server redirects back to; the client must list its full URL. */
export const CALLBACK_PATH = '/oauth/callback';
/** What the dashboard's pages use; the consent page lets the owner approve fewer. */
export const DASHBOARD_SCOPES = ['codes:read', 'codes:write', 'analytics:read'];

const PENDING_KEY = 'qr-dashboard.oauth-pending';
const CLIENT_ID_KEY = 'qr-dashboard.oauth-client-id';

/** An authorization request this tab started and has not finished. */
export interface PendingRequest {
  state: string;
  verifier: string;
  clientId: string;
  redirectUri: string;
  /** The issuer the answer's `iss` must name (RFC 9207). */
  issuer: string;
}

/** The redirect URI to register for the dashboard's client, e.g. https://qr.example.com/dashboard/oauth/callback. */
export const callbackUri = (): string => location.origin + href(CALLBACK_PATH);

/** The client id last used in this browser: not a secret, so it is remembered in localStorage. */
export const rememberedClientId = (): string => localStorage.getItem(CLIENT_ID_KEY) ?? '';

/** Takes the pending request out of storage: a callback can use it once. */
export function takePendingRequest(): PendingRequest | null {
  const stored = sessionStorage.getItem(PENDING_KEY);
  sessionStorage.removeItem(PENDING_KEY);
  try {
    return stored ? (JSON.parse(stored) as PendingRequest) : null;
  } catch {
    return null;
  }
}

async function discoverIssuer(): Promise<string> {
  const res = await fetch(`${OAUTH_PATH}/.well-known/openid-configuration`, {
    headers: { Accept: 'application/json' },
  }).catch(() => null);
  const metadata = res?.ok ? ((await res.json().catch(() => null)) as { issuer?: string } | null) : null;
  if (typeof metadata?.issuer !== 'string') throw new Error(currentMessages().oauth.noServer);
  return metadata.issuer;
}

/** Sends the browser to the consent page of `clientId`; rejects (and stays) if it cannot. */
export async function startOAuthSignIn(clientId: string): Promise<void> {
  const verifier = randomToken();
  const challenge = await s256Challenge(verifier);
  const pending: PendingRequest = {
    state: randomToken(),
    verifier,
    clientId,
    redirectUri: callbackUri(),
    issuer: await discoverIssuer(),
  };
  localStorage.setItem(CLIENT_ID_KEY, clientId);
  sessionStorage.setItem(PENDING_KEY, JSON.stringify(pending));
  const query = new URLSearchParams({
    response_type: 'code',
    client_id: clientId,
    redirect_uri: pending.redirectUri,
    scope: DASHBOARD_SCOPES.join(' '),
    state: pending.state,
    code_challenge: challenge,
    code_challenge_method: 'S256',
    // The consent page every time, with a key of the account: the OAuth server's own session
    // in this browser (an hour) must not sign a tab in again after someone signed out.
    prompt: 'login',
  });
  location.assign(`${OAUTH_PATH}/auth?${query}`);
}
