// Bearer authentication, shared by REST and GraphQL: an API key (`qrk_…`) or an OAuth access
// token. Both become the same Principal (account, key or client, scopes), so one scope check
// serves both.
import type { Middleware } from 'koa';
import { looksLikeApiKey } from '../shared/api-key.ts';
import { DomainError } from '../shared/errors.ts';
import type { Principal } from '../shared/principal.ts';
import type { AppState } from './context.ts';

const BEARER = /^Bearer\s+(\S+)\s*$/i;

export type Authenticate = (presentedKey: string) => Promise<Principal | null>;

/** Keys by their prefix go the key path; anything else is verified as an OAuth access token. */
export function bearerAuthenticator(services: {
  accounts: { authenticate: Authenticate };
  oauth: { authenticate: Authenticate };
}): Authenticate {
  return (token) =>
    looksLikeApiKey(token) ? services.accounts.authenticate(token) : services.oauth.authenticate(token);
}

/** The token of an `Authorization: Bearer <token>` header, or null. */
export const bearerToken = (header: string): string | null => BEARER.exec(header)?.[1] ?? null;

export function requireAuth(authenticate: Authenticate): Middleware<AppState> {
  return async (ctx, next) => {
    const header = ctx.get('Authorization');
    if (!header)
      throw new DomainError(
        'unauthorized',
        'Send an API key or access token in the header Authorization: Bearer <token>.',
      );
    const token = bearerToken(header);
    if (!token) throw new DomainError('unauthorized', 'The Authorization header must have the form: Bearer <token>.');
    const principal = await authenticate(token);
    if (!principal)
      throw new DomainError('unauthorized', 'The API key or access token is invalid, revoked or expired.');
    ctx.state.principal = principal;
    await next();
  };
}
