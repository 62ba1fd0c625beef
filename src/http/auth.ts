// Authentication, shared by REST and GraphQL: an API key (`qrk_…`) or an OAuth access token as a
// bearer, or a session cookie. All become the same Principal (account, key, client or user,
// scopes), so one scope check serves every credential. A cookie is honoured only without an
// Authorization header, and its unsafe requests must carry the session's CSRF token.
import type { IncomingHttpHeaders } from 'node:http';
import type { Middleware } from 'koa';
import { actorOfKey } from '../shared/actor.ts';
import { looksLikeApiKey } from '../shared/api-key.ts';
import { DomainError } from '../shared/errors.ts';
import type { Principal } from '../shared/principal.ts';
import { csrfTokenMatches } from '../shared/session-token.ts';
import type { AppContext, AppState, SessionCaller } from './context.ts';
import type { SessionCookie } from './session-cookie.ts';

const BEARER = /^Bearer\s+(\S+)\s*$/i;

export type Authenticate = (presentedKey: string) => Promise<Principal | null>;

/** The caller's address (behind our proxies) hashed for the audit log, or null when unknown. */
export type CallerAddressHash = (
  headers: IncomingHttpHeaders,
  socketAddress: string | undefined,
) => Promise<string | null>;

/**
 * How a session cookie becomes a caller, handed in from services.ts: the edge never learns where
 * sessions and memberships are kept, and services never learn which credential it was.
 */
export interface SessionResolver {
  /** The signed-in user and session of a cookie's token; null when unknown, ended or expired. */
  session(token: string): Promise<{ userId: string; sessionId: string } | null>;
  /** The user's principal in the named workspace (or the latest used); null when no member of it. */
  principal(userId: string, workspaceId: string | null): Promise<Principal | null>;
}

export interface SessionEdge {
  resolver: SessionResolver;
  cookie: SessionCookie;
}

/** The header a cookie request names its workspace in (the dashboard sends it). */
export const WORKSPACE_HEADER = 'Qr-Workspace';
const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

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

/** The signed-in caller of a cookie; a 401 when it is unknown, a 403 when an unsafe request lacks its CSRF token. */
async function sessionCaller(
  ctx: AppContext,
  token: string,
  sessions: SessionEdge,
  addressHashOf: CallerAddressHash | undefined,
): Promise<SessionCaller> {
  const signedIn = await sessions.resolver.session(token);
  if (!signedIn) {
    sessions.cookie.clear(ctx);
    throw new DomainError('unauthorized', 'The session has ended or expired; sign in again.');
  }
  if (!SAFE_METHODS.has(ctx.method) && !csrfTokenMatches(token, ctx.get('X-CSRF-Token') || undefined))
    throw new DomainError(
      'csrf',
      'A request signed in by cookie that changes something must send the session’s CSRF token in the ' +
        'header X-CSRF-Token (given by sign-in and GET /v1/session).',
    );
  const addressHash = addressHashOf ? await addressHashOf(ctx.req.headers, ctx.req.socket.remoteAddress) : null;
  return { ...signedIn, actor: { kind: 'user', id: signedIn.userId, addressHash } };
}

/**
 * A route for a signed-in person only (their sessions, profile, workspaces, members): a session
 * cookie is required, and a key or token is refused, since it acts for a workspace, not a person.
 */
export function requireSession(
  sessions: SessionEdge,
  addressHashOf?: CallerAddressHash,
): Middleware<AppState> & { readonly sessionOnly: true } {
  const middleware: Middleware<AppState> = async (ctx, next) => {
    const token = sessions.cookie.read(ctx);
    if (ctx.get('Authorization') || !token)
      throw new DomainError(
        ctx.get('Authorization') ? 'forbidden' : 'unauthorized',
        'This route is for a signed-in person: sign in (POST /v1/sessions) and send the session cookie; API keys ' +
          'and access tokens act for a workspace and cannot use it.',
      );
    ctx.state.session = await sessionCaller(ctx, token, sessions, addressHashOf);
    await next();
  };
  // Marks the route as a person's, so a test can read every route's credential off the router.
  return Object.assign(middleware, { sessionOnly: true as const });
}

/**
 * Puts the principal in `ctx.state`, with its actor for the audit log: services record who acted
 * and from which (hashed) address without learning about HTTP.
 */
export function requireAuth(
  authenticate: Authenticate,
  addressHashOf?: CallerAddressHash,
  sessions?: SessionEdge,
): Middleware<AppState> {
  return async (ctx, next) => {
    const header = ctx.get('Authorization');
    const cookie = sessions && !header ? sessions.cookie.read(ctx) : undefined;
    if (cookie) {
      const caller = await sessionCaller(ctx, cookie, sessions!, addressHashOf);
      const named = ctx.get(WORKSPACE_HEADER) || null;
      const principal = await sessions!.resolver.principal(caller.userId, named);
      if (!principal)
        throw named
          ? new DomainError('not_found', `No workspace with id '${named}'.`)
          : new DomainError('forbidden', 'You are a member of no workspace; create one (POST /v1/workspaces).');
      ctx.state.session = caller;
      ctx.state.principal = { ...principal, actor: caller.actor };
      return next();
    }
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
    const addressHash = addressHashOf ? await addressHashOf(ctx.req.headers, ctx.req.socket.remoteAddress) : null;
    ctx.state.principal = { ...principal, actor: actorOfKey(principal.keyId, addressHash) };
    await next();
  };
}
