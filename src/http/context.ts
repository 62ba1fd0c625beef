import type { ParameterizedContext } from 'koa';
import type { Logger } from 'pino';
import type { Actor } from '../shared/actor.ts';
import type { Principal } from '../shared/principal.ts';
import type { RateLimitState } from '../shared/rate-limiter.ts';

export interface AppState {
  requestId: string;
  log: Logger;
  /** Set by the auth middleware on every authenticated route. */
  principal?: Principal;
  /** Set when a session cookie authenticated the request (not a key or token). */
  session?: SessionCaller;
  /** Where the key stands once the rate limit charged this call (GraphQL charges the rest of its points later). */
  rateLimit?: RateLimitState;
}

/** A signed-in person behind a session cookie. */
export interface SessionCaller {
  userId: string;
  sessionId: string;
  /** Who acts, for the audit log: the user, with the caller's hashed address. */
  actor: Actor;
}

export type AppContext = ParameterizedContext<AppState>;

/** The principal of an authenticated route; auth guarantees it is there. */
export function principalOf(ctx: AppContext): Principal {
  const principal = ctx.state.principal;
  if (!principal) throw new Error('principalOf() on a route without the auth middleware');
  return principal;
}

/** The signed-in person of a session route; requireSession guarantees it is there. */
export function sessionOf(ctx: AppContext): SessionCaller {
  const session = ctx.state.session;
  if (!session) throw new Error('sessionOf() on a route without the session middleware');
  return session;
}
