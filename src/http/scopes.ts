// Route-level scope checks. Each route names the one scope it needs right after `auth`; the
// scope rides on the middleware so a test can read every route's scope off the router.
import type { Middleware } from 'koa';
import { requireScope, type Scope } from '../shared/principal.ts';
import { principalOf, type AppState } from './context.ts';

export type ScopeMiddleware = Middleware<AppState> & { readonly requiredScope: Scope };

/** 403 problem naming the scope (and RFC 6750's insufficient_scope challenge) when it is missing. */
export function scope(required: Scope): ScopeMiddleware {
  const middleware: Middleware<AppState> = async (ctx, next) => {
    const principal = principalOf(ctx);
    if (!principal.scopes.has(required)) {
      ctx.set('WWW-Authenticate', `Bearer realm="qr-service", error="insufficient_scope", scope="${required}"`);
      requireScope(principal, required);
    }
    await next();
  };
  return Object.assign(middleware, { requiredScope: required });
}

/** The scope a route's middleware requires, if one of them is a scope check. */
export function scopeOf(stack: readonly unknown[]): Scope | undefined {
  for (const fn of stack) {
    const required = (fn as Partial<ScopeMiddleware>).requiredScope;
    if (required) return required;
  }
  return undefined;
}
