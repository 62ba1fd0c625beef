// The only SQL of webhooks, in two parts: endpoints (endpoint-store.ts) and the outbox
// (delivery-store.ts). Services and the worker see them as one store.
import type { Knex } from 'knex';
import { createDeliveryStore } from './delivery-store.ts';
import { createEndpointStore } from './endpoint-store.ts';

export type { EndpointChanges, Position } from './endpoint-store.ts';
export type { AttemptRecord, ClaimedDelivery, NewDelivery } from './delivery-store.ts';

export function createWebhooksStore(db: Knex) {
  const endpoints = createEndpointStore(db);
  const deliveries = createDeliveryStore(db);
  return {
    ...endpoints,
    ...deliveries,

    /** Disables an endpoint that kept failing and pauses its waiting deliveries, in one transaction. */
    async disableFailing(endpointId: string, reason: string, at: Date): Promise<void> {
      await db.transaction(async (trx) => {
        await endpoints.markDisabled(endpointId, reason, at, trx);
        await deliveries.pauseDeliveries(endpointId, trx);
      });
    },
  };
}

export type WebhooksStore = ReturnType<typeof createWebhooksStore>;
