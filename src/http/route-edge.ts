// What every module's REST routes get from the assembly (api/rest-router.ts): the edge
// middleware and the public base URL. A module's register function takes this plus the
// services it needs by name, e.g. `registerTagRoutes(router, { ...edge, tags: services.tags })`,
// so no module sees the composition root's whole Services type.
import type { Middleware } from 'koa';
import type { CallerAddressHash } from './auth.ts';
import type { AppState } from './context.ts';
import type { SessionCookie } from './session-cookie.ts';

export interface RouteEdge {
  /** Bearer authentication, then the key's rate limit charged one point. */
  auth: Middleware<AppState>;
  /** `auth` for a route that charges `points` (its work in plain calls, as its GraphQL field does). */
  pricedAuth: (points: number) => Middleware<AppState>;
  /** JSON body parser with the normal limit. */
  json: Middleware<AppState>;
  /** JSON body parser with the larger bulk limit. */
  bulkJson: Middleware<AppState>;
  /** The service's public base URL, for links in answers. */
  publicBaseUrl: string;
  /** A route for a signed-in person only: the session cookie (with CSRF on writes), never a key. */
  signedIn: Middleware<AppState>;
  /** Sets and clears the session cookie. */
  sessionCookie: SessionCookie;
  /** The caller's address hashed (sign-in limits and sessions record it). */
  callerAddressHash: CallerAddressHash;
}
