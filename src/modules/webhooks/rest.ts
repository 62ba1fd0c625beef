// REST routes for webhooks. Handlers only translate HTTP to service calls and back.
import type { Router } from '@koa/router';
import { principalOf, type AppState } from '../../http/context.ts';
import { registerResourceRoutes } from '../../http/resource-routes.ts';
import { scope } from '../../http/scopes.ts';
import type { RouteEdge } from '../../http/route-edge.ts';
import { parseInput } from '../../shared/validation.ts';
import { presentDelivery, presentDeliveryDetail, presentWebhook } from './presenter.ts';
import { createWebhookSchema, listDeliveriesSchema, listWebhooksSchema, updateWebhookSchema } from './schemas.ts';
import type { WebhooksService } from './service.ts';

export function registerWebhookRoutes(
  router: Router<AppState>,
  { webhooks, ...edge }: RouteEdge & { webhooks: WebhooksService },
): void {
  const { auth } = edge;
  registerResourceRoutes(router, edge, {
    path: '/webhooks',
    read: 'webhooks:read',
    write: 'webhooks:write',
    present: presentWebhook,
    // POST /v1/webhooks: register an endpoint; the answer shows its signing secret, once
    create: async (ctx) => {
      const { webhook, secret } = await webhooks.create(
        principalOf(ctx),
        parseInput(createWebhookSchema, ctx.request.body),
      );
      return { id: webhook.id, body: { ...presentWebhook(webhook), secret } };
    },
    // GET /v1/webhooks: one page of endpoints, newest first, with next_cursor
    list: (ctx) => webhooks.list(principalOf(ctx), parseInput(listWebhooksSchema, ctx.query)),
    // GET /v1/webhooks/:id: one endpoint, with disabled_reason when it was disabled
    get: (ctx, id) => webhooks.get(principalOf(ctx), id),
    // PATCH /v1/webhooks/:id: change url, events, code_ids, description; enable or disable
    update: (ctx, id) => webhooks.update(principalOf(ctx), id, parseInput(updateWebhookSchema, ctx.request.body)),
    // DELETE /v1/webhooks/:id: delete the endpoint and its delivery log
    remove: (ctx, id) => webhooks.remove(principalOf(ctx), id),
  });

  // POST /v1/webhooks/:id/rotate-secret: new secret; the old one co-signs for 24 hours
  router.post('/webhooks/:id/rotate-secret', auth, scope('webhooks:write'), async (ctx) => {
    const { webhook, secret } = await webhooks.rotateSecret(principalOf(ctx), ctx.params.id!);
    ctx.body = { ...presentWebhook(webhook), secret };
  });

  // POST /v1/webhooks/:id/test: send a webhook.test event now; answers the delivery after the attempt
  router.post('/webhooks/:id/test', auth, scope('webhooks:write'), async (ctx) => {
    ctx.body = presentDeliveryDetail(await webhooks.test(principalOf(ctx), ctx.params.id!));
  });

  // GET /v1/webhooks/:id/deliveries: one page of deliveries, newest first (?status=failed …)
  router.get('/webhooks/:id/deliveries', auth, scope('webhooks:read'), async (ctx) => {
    const page = await webhooks.deliveries(
      principalOf(ctx),
      ctx.params.id!,
      parseInput(listDeliveriesSchema, ctx.query),
    );
    ctx.body = { object: 'list', data: page.data.map(presentDelivery), next_cursor: page.nextCursor };
  });

  // GET /v1/webhooks/:id/deliveries/:deliveryId: one delivery, its event's data and every attempt
  router.get('/webhooks/:id/deliveries/:deliveryId', auth, scope('webhooks:read'), async (ctx) => {
    ctx.body = presentDeliveryDetail(await webhooks.delivery(principalOf(ctx), ctx.params.id!, ctx.params.deliveryId!));
  });

  // POST /v1/webhooks/:id/deliveries/:deliveryId/retry: send it again now, same webhook-id
  router.post('/webhooks/:id/deliveries/:deliveryId/retry', auth, scope('webhooks:write'), async (ctx) => {
    ctx.body = presentDeliveryDetail(await webhooks.retry(principalOf(ctx), ctx.params.id!, ctx.params.deliveryId!));
  });
}
