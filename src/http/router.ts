// One router per API version. Today /v1 and /v2 share every route; a later difference is
// made here, in one place.
import { Router } from '@koa/router';
import { registerAnalyticsRoutes } from '../modules/analytics/rest.ts';
import { registerBatchRoutes } from '../modules/batches/rest.ts';
import { registerBulkRoutes } from '../modules/bulk/rest.ts';
import { registerCodeRoutes } from '../modules/codes/rest.ts';
import { registerImageRoutes } from '../modules/images/rest.ts';
import { registerRoutingRoutes } from '../modules/routing/rest.ts';
import { registerWebhookRoutes } from '../modules/webhooks/rest.ts';
import type { Services } from '../services.ts';
import { requireAuth } from './auth.ts';
import { jsonBody } from './body.ts';
import type { AppState } from './context.ts';

export const API_VERSIONS = ['v1'] as const;

export function createApiRouter(version: (typeof API_VERSIONS)[number], services: Services): Router<AppState> {
  const router = new Router<AppState>({ prefix: `/${version}` });
  const deps = {
    services,
    auth: requireAuth((key) => services.accounts.authenticate(key)),
    json: jsonBody(services.config.jsonBodyLimit),
    bulkJson: jsonBody(services.config.bulkBodyLimit),
  };
  // Before the codes routes, so /codes/bulk is never read as /codes/:id.
  registerBulkRoutes(router, deps);
  registerCodeRoutes(router, deps);
  registerRoutingRoutes(router, deps);
  registerImageRoutes(router, deps);
  registerBatchRoutes(router, deps);
  registerAnalyticsRoutes(router, deps);
  registerWebhookRoutes(router, deps);
  return router;
}
