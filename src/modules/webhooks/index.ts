// The webhooks module's public face: what the rest of the service may use of it. Anything
// not exported here is the module's own (npm run lint:imports enforces it).
export { createWebhooks } from './module.ts';
export { createScanOutbox } from './outbox.ts';
export { createWebhooksStore } from './store.ts';
