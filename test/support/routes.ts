// The REST routes as the router registers them, for tests that walk every route.
import { createApiRouter } from '../../src/api/rest-router.ts';
import { scopeOf } from '../../src/http/scopes.ts';
import type { ApiVersion } from '../../src/http/versions.ts';
import type { Services } from '../../src/services.ts';
import type { Scope } from '../../src/shared/principal.ts';

export interface RegisteredRoute {
  method: string;
  /** As registered, with the version prefix and Koa parameters: /v1/codes/:id. */
  path: string;
  /**
   * The scope its middleware requires; `session` for a signed-in person's route (no scope, a
   * session cookie), `public` for one that needs no credential.
   */
  scope: Scope | 'session' | 'public';
}

/** Every route of a version's router (HEAD, which mirrors GET, aside), in registration order. */
export function apiRoutes(version: ApiVersion, services: Services): RegisteredRoute[] {
  return createApiRouter(version, services)
    .stack.filter((layer) => typeof layer.path === 'string' && layer.methods.length > 0)
    .flatMap((layer) =>
      layer.methods
        .filter((m) => m !== 'HEAD')
        .map((method) => ({ method, path: layer.path as string, scope: accessOf(layer.stack) })),
    );
}

function accessOf(stack: readonly unknown[]): RegisteredRoute['scope'] {
  if (stack.some((fn) => (fn as { sessionOnly?: boolean }).sessionOnly)) return 'session';
  return scopeOf(stack) ?? 'public';
}
