// Finishing an OAuth sign-in on /dashboard/oauth/callback: the answer must carry the state this
// tab sent (and the issuer it expects), then the code is exchanged, with the PKCE verifier, for
// tokens that the tab keeps in sessionStorage (../session.ts).
import { signIn } from '../session.ts';
import { takePendingRequest } from './authorize.ts';
import { exchangeCode } from './token-endpoint.ts';

const START_AGAIN = 'Start again from the sign-in page.';

/** Signs the tab in from the callback's query string, or throws an Error that says why not. */
export async function completeOAuthSignIn(query: URLSearchParams): Promise<void> {
  const pending = takePendingRequest();
  if (!pending)
    throw new Error(
      `This tab has no OAuth sign-in waiting to finish (it was started elsewhere, or already finished). ${START_AGAIN}`,
    );
  // Before anything else in the answer, even an error: it must answer our request (CSRF).
  if (query.get('state') !== pending.state)
    throw new Error(`The answer does not belong to the sign-in this tab started (its state differs). ${START_AGAIN}`);
  const issuer = query.get('iss');
  if (issuer !== null && issuer !== pending.issuer)
    throw new Error(`The answer comes from another OAuth server (${issuer}). ${START_AGAIN}`);
  const error = query.get('error');
  if (error === 'access_denied') throw new Error(`The sign-in was denied on the consent page. ${START_AGAIN}`);
  if (error)
    throw new Error(
      `The OAuth server refused the sign-in: ${query.get('error_description') ?? error}. ` +
        `Check the client id (a public client whose redirect URI is ${pending.redirectUri}). ${START_AGAIN}`,
    );
  const code = query.get('code');
  if (!code) throw new Error(`The answer carries no authorization code. ${START_AGAIN}`);
  const tokens = await exchangeCode({
    code,
    redirectUri: pending.redirectUri,
    clientId: pending.clientId,
    verifier: pending.verifier,
  }).catch((err: Error) => {
    throw new Error(`The code could not be exchanged for a token: ${err.message} ${START_AGAIN}`);
  });
  signIn({
    kind: 'oauth',
    token: tokens.access_token,
    refreshToken: tokens.refresh_token ?? null,
    clientId: pending.clientId,
  });
}
