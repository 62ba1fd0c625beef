// REST routes for webhooks. Handlers only translate HTTP to service calls and back.
import type { Router } from '@koa/router';
import { principalOf, type AppState } from '../../http/context.ts';
import { scope } from '../../http/scopes.ts';
import type { RouteEdge } from '../../http/route-edge.ts';
import { parseInput } from '../../shared/validation.ts';
import { presentDelivery, presentDeliveryDetail, presentWebhook } from './presenter.ts';
import { createWebhookSchema, listDeliveriesSchema, listWebhooksSchema, updateWebhookSchema } from './schemas.ts';
import type { WebhooksService } from './service.ts';

export function registerWebhookRoutes(router: Router<AppState>, { webhooks, auth, json }: RouteEdge & { webhooks: WebhooksService }): void {
  const location = (id: string) => `${router.opts.prefix}/webhooks/${id}`;

  // POST /v1/webhooks: register an endpoint; the answer shows its signing secret, once
  router.post('/webhooks', auth, scope('webhooks:write'), json, async (ctx) => {
    const { webhook, secret } = await webhooks.create(principalOf(ctx), parseInput(createWebhookSchema, ctx.request.body));
    ctx.status = 201;
    ctx.set('Location', location(webhook.id));
    ctx.body = { ...presentWebhook(webhook), secret };
  });

  // GET /v1/webhooks: one page of endpoints, newest first, with next_cursor
  router.get('/webhooks', auth, scope('webhooks:read'), async (ctx) => {
    const page = await webhooks.list(principalOf(ctx), parseInput(listWebhooksSchema, ctx.query));
    ctx.body = { object: 'list', data: page.data.map(presentWebhook), next_cursor: page.nextCursor };
  });

  // GET /v1/webhooks/:id: one endpoint, with disabled_reason when it was disabled
  router.get('/webhooks/:id', auth, scope('webhooks:read'), async (ctx) => {
    ctx.body = presentWebhook(await webhooks.get(principalOf(ctx), ctx.params.id!));
  });

  // PATCH /v1/webhooks/:id: change url, events, code_ids, description; enable or disable
  router.patch('/webhooks/:id', auth, scope('webhooks:write'), json, async (ctx) => {
    ctx.body = presentWebhook(await webhooks.update(principalOf(ctx), ctx.params.id!, parseInput(updateWebhookSchema, ctx.request.body)));
  });

  // DELETE /v1/webhooks/:id: delete the endpoint and its delivery log
  router.delete('/webhooks/:id', auth, scope('webhooks:write'), async (ctx) => {
    await webhooks.remove(principalOf(ctx), ctx.params.id!);
    ctx.status = 204;
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
    const page = await webhooks.deliveries(principalOf(ctx), ctx.params.id!, parseInput(listDeliveriesSchema, ctx.query));
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
