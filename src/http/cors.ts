// CORS for the API and /graphql, closed by default: only origins listed in CORS_ORIGINS get the
// headers a browser needs to read our answers. No cookies are involved (keys travel in the
// Authorization header), so credentials are never allowed. The scan route is answered before
// Koa and never carries CORS headers.
import cors from '@koa/cors';
import type { Middleware } from 'koa';
import type { AppState } from './context.ts';

/** Answer headers a browser client may read: rate limits, where a created thing is, caching. */
const EXPOSED_HEADERS = [
  'RateLimit-Limit',
  'RateLimit-Remaining',
  'RateLimit-Reset',
  'Retry-After',
  'Location',
  'ETag',
  'X-Request-Id',
  'Idempotent-Replayed',
  'WWW-Authenticate',
];
const ALLOWED_HEADERS = ['Authorization', 'Content-Type', 'Idempotency-Key', 'If-None-Match', 'X-Request-Id'];

/** Null when no origin is allowed: then no CORS header is ever sent. */
export function corsFor(origins: readonly string[]): Middleware<AppState> | null {
  if (origins.length === 0) return null;
  const anyOrigin = origins.includes('*');
  const allowed = new Set(origins);
  return cors({
    // An empty answer makes @koa/cors add nothing, so other origins see a plain same-origin API.
    origin: (ctx) => {
      if (anyOrigin) return '*';
      const origin = ctx.get('Origin');
      return allowed.has(origin.toLowerCase()) ? origin : '';
    },
    allowHeaders: ALLOWED_HEADERS,
    exposeHeaders: EXPOSED_HEADERS,
    maxAge: 600,
    credentials: false,
  });
}
