// REST routes for a code's routing rules.
import type { Router } from '@koa/router';
import { principalOf, type AppState } from '../../http/context.ts';
import { scope } from '../../http/scopes.ts';
import type { RouteEdge } from '../../http/route-edge.ts';
import { parseInput } from '../../shared/validation.ts';
import { presentRouting, presentRule } from './presenter.ts';
import { replaceRoutingSchema, resolveRequestSchema, ruleSchema } from './schemas.ts';
import type { RoutingService } from './service.ts';

export function registerRoutingRoutes(
  router: Router<AppState>,
  { auth, json, routing }: RouteEdge & { routing: RoutingService },
): void {
  // GET /v1/codes/:id/routing: enabled flag and every rule, in evaluation order
  router.get('/codes/:id/routing', auth, scope('codes:read'), async (ctx) => {
    ctx.body = presentRouting(await routing.get(principalOf(ctx), ctx.params.id!));
  });

  // PUT /v1/codes/:id/routing: replace the whole rule set atomically
  router.put('/codes/:id/routing', auth, scope('codes:write'), json, async (ctx) => {
    ctx.body = presentRouting(
      await routing.replace(principalOf(ctx), ctx.params.id!, parseInput(replaceRoutingSchema, ctx.request.body)),
    );
  });

  // POST /v1/codes/:id/routing/rules: add one rule
  router.post('/codes/:id/routing/rules', auth, scope('codes:write'), json, async (ctx) => {
    const rule = await routing.addRule(principalOf(ctx), ctx.params.id!, parseInput(ruleSchema, ctx.request.body));
    ctx.status = 201;
    ctx.body = presentRule(rule);
  });

  // DELETE /v1/codes/:id/routing/rules/:ruleId: remove one rule
  router.delete('/codes/:id/routing/rules/:ruleId', auth, scope('codes:write'), async (ctx) => {
    await routing.removeRule(principalOf(ctx), ctx.params.id!, ctx.params.ruleId!);
    ctx.status = 204;
  });

  // POST /v1/codes/:id/routing/resolve: explain where a simulated scan would go; records nothing
  router.post('/codes/:id/routing/resolve', auth, scope('codes:read'), json, async (ctx) => {
    ctx.body = await routing.resolve(
      principalOf(ctx),
      ctx.params.id!,
      parseInput(resolveRequestSchema, ctx.request.body),
    );
  });
}
