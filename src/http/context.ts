import type { ParameterizedContext } from 'koa';
import type { Logger } from 'pino';
import type { Principal } from '../shared/principal.ts';
import type { RateLimitState } from '../shared/rate-limiter.ts';

export interface AppState {
  requestId: string;
  log: Logger;
  /** Set by the auth middleware on every authenticated route. */
  principal?: Principal;
  /** Where the key stands once the rate limit charged this call (GraphQL charges the rest of its points later). */
  rateLimit?: RateLimitState;
}

export type AppContext = ParameterizedContext<AppState>;

/** The principal of an authenticated route; auth guarantees it is there. */
export function principalOf(ctx: AppContext): Principal {
  const principal = ctx.state.principal;
  if (!principal) throw new Error('principalOf() on a route without the auth middleware');
  return principal;
}
