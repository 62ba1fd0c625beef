// The webhooks module's public face: what the rest of the service may use of it. Anything
// not exported here is the module's own (npm run lint:imports enforces it).
export { createWebhooks } from './module.ts';
export { createScanOutbox } from './outbox.ts';
export { createWebhooksStore } from './store.ts';
// The SSRF check of outbound requests to a user-given URL, and the request pinned to the checked
// address, also for single sign-on's issuer.
export { pinnedRequest } from './pinned-request.ts';
export { checkedAddress, TargetRefused, urlProblems } from './target.ts';
export type { TargetPolicy } from './target.ts';
