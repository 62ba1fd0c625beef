// Finishing an OAuth sign-in on /dashboard/oauth/callback: the answer must carry the state this
// tab sent (and the issuer it expects), then the code is exchanged, with the PKCE verifier, for
// tokens that the tab keeps in sessionStorage (../session.ts).
import { currentMessages } from '../i18n/index.ts';
import { signIn } from '../session.ts';
import { takePendingRequest } from './authorize.ts';
import { exchangeCode } from './token-endpoint.ts';

/** Why the sign-in cannot finish, and that it starts again from the sign-in page. */
const failure = (why: string) => new Error(`${why} ${currentMessages().oauth.callback.startAgain}`);

/** Signs the tab in from the callback's query string, or throws an Error that says why not. */
export async function completeOAuthSignIn(query: URLSearchParams): Promise<void> {
  const t = currentMessages().oauth.callback;
  const pending = takePendingRequest();
  if (!pending) throw failure(t.nothingPending);
  // Before anything else in the answer, even an error: it must answer our request (CSRF).
  if (query.get('state') !== pending.state) throw failure(t.wrongState);
  const issuer = query.get('iss');
  if (issuer !== null && issuer !== pending.issuer) throw failure(t.otherIssuer(issuer));
  const error = query.get('error');
  if (error === 'access_denied') throw failure(t.denied);
  if (error) throw failure(t.refused(query.get('error_description') ?? error, pending.redirectUri));
  const code = query.get('code');
  if (!code) throw failure(t.noCode);
  const tokens = await exchangeCode({
    code,
    redirectUri: pending.redirectUri,
    clientId: pending.clientId,
    verifier: pending.verifier,
  }).catch((err: Error) => {
    throw failure(t.notExchanged(err.message));
  });
  signIn({
    kind: 'oauth',
    token: tokens.access_token,
    refreshToken: tokens.refresh_token ?? null,
    clientId: pending.clientId,
  });
}
