// REST routes for a code's routing rules.
import type { Router } from '@koa/router';
import { principalOf, type AppState } from '../../http/context.ts';
import { scope } from '../../http/scopes.ts';
import type { RouteDeps } from '../codes/rest.ts';
import { presentRouting, presentRule } from './presenter.ts';

export function registerRoutingRoutes(router: Router<AppState>, { services, auth, json }: RouteDeps): void {
  // GET /v1/codes/:id/routing: enabled flag and every rule, in evaluation order
  router.get('/codes/:id/routing', auth, scope('codes:read'), async (ctx) => {
    ctx.body = presentRouting(await services.routing.get(principalOf(ctx), ctx.params.id!));
  });

  // PUT /v1/codes/:id/routing: replace the whole rule set atomically
  router.put('/codes/:id/routing', auth, scope('codes:write'), json, async (ctx) => {
    ctx.body = presentRouting(await services.routing.replace(principalOf(ctx), ctx.params.id!, ctx.request.body));
  });

  // POST /v1/codes/:id/routing/rules: add one rule
  router.post('/codes/:id/routing/rules', auth, scope('codes:write'), json, async (ctx) => {
    const rule = await services.routing.addRule(principalOf(ctx), ctx.params.id!, ctx.request.body);
    ctx.status = 201;
    ctx.body = presentRule(rule);
  });

  // DELETE /v1/codes/:id/routing/rules/:ruleId: remove one rule
  router.delete('/codes/:id/routing/rules/:ruleId', auth, scope('codes:write'), async (ctx) => {
    await services.routing.removeRule(principalOf(ctx), ctx.params.id!, ctx.params.ruleId!);
    ctx.status = 204;
  });

  // POST /v1/codes/:id/routing/resolve: explain where a simulated scan would go; records nothing
  router.post('/codes/:id/routing/resolve', auth, scope('codes:read'), json, async (ctx) => {
    ctx.body = await services.routing.resolve(principalOf(ctx), ctx.params.id!, ctx.request.body);
  });
}
