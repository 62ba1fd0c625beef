// Bearer API-key authentication, shared by REST and GraphQL.
import type { Middleware } from 'koa';
import { DomainError } from '../shared/errors.ts';
import type { Principal } from '../shared/principal.ts';
import type { AppState } from './context.ts';

const BEARER = /^Bearer\s+(\S+)\s*$/i;

export type Authenticate = (presentedKey: string) => Promise<Principal | null>;

export function requireAuth(authenticate: Authenticate): Middleware<AppState> {
  return async (ctx, next) => {
    const header = ctx.get('Authorization');
    if (!header) throw new DomainError('unauthorized', 'Send an API key in the header Authorization: Bearer <key>.');
    const match = BEARER.exec(header);
    if (!match) throw new DomainError('unauthorized', 'The Authorization header must have the form: Bearer <key>.');
    const principal = await authenticate(match[1]!);
    if (!principal) throw new DomainError('unauthorized', 'The API key is invalid, revoked or expired.');
    ctx.state.principal = principal;
    await next();
  };
}
