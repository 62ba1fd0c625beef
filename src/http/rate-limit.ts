// Per-key rate limits of the API. Wraps the auth middleware, so the key is known when the call
// is charged: every authenticated answer carries RateLimit-Limit, -Remaining and -Reset (in
// points: a plain call is 1, an analytics read its price), and a call past the limit is a 429
// with Retry-After that charges nothing. A bulk call counts once against the key's limit and
// once against the (lower) bulk limit; the headers show whichever runs out first.
import type { Middleware } from 'koa';
import { DomainError } from '../shared/errors.ts';
import { rateLimitSubject } from '../shared/principal.ts';
import type { RateLimits, RateLimitState } from '../shared/rate-limiter.ts';
import { principalOf, type AppContext, type AppState } from './context.ts';

export function setRateLimitHeaders(set: (name: string, value: string) => void, state: RateLimitState): void {
  set('RateLimit-Limit', String(state.limit));
  set('RateLimit-Remaining', String(state.remaining));
  set('RateLimit-Reset', String(state.resetSeconds));
}

function refuse(ctx: AppContext, state: RateLimitState, what: string): never {
  const retryAfter = Math.max(1, state.resetSeconds);
  setRateLimitHeaders((name, value) => ctx.set(name, value), state);
  ctx.set('Retry-After', String(retryAfter));
  throw new DomainError('rate_limited', `${what} Retry in ${retryAfter} s.`);
}

/** `auth`, then the key charged `points` (a route's price; 1 for a plain call). */
export function withRateLimit(
  auth: Middleware<AppState>,
  limits: Pick<RateLimits, 'api' | 'bulk'>,
  isBulk: (ctx: AppContext) => boolean = () => false,
  points = 1,
): Middleware<AppState> {
  const { api, bulk } = limits;
  if (!api && !bulk) return auth;
  return (ctx, next) =>
    auth(ctx, async () => {
      const keyId = rateLimitSubject(principalOf(ctx));
      let shown: RateLimitState | null = null;
      if (api) {
        shown = await api.take(keyId, points);
        if (shown && !shown.allowed)
          refuse(
            ctx,
            shown,
            points === 1
              ? `This API key made more than ${shown.limit} calls in a minute.`
              : `This call costs ${points} points and the key has ${shown.remaining} of its ${shown.limit} left.`,
          );
      }
      if (bulk && isBulk(ctx)) {
        const state = await bulk.take(keyId);
        if (state && !state.allowed)
          refuse(ctx, state, `This API key made more than ${state.limit} bulk calls in a minute.`);
        if (state && (!shown || state.remaining < shown.remaining)) shown = state;
      }
      if (shown) {
        setRateLimitHeaders((name, value) => ctx.set(name, value), shown);
        ctx.state.rateLimit = shown;
      }
      await next();
    });
}
