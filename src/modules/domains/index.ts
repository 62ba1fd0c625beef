// The domains module's public face: what the rest of the service may use of it. Anything
// not exported here is the module's own (npm run lint:imports enforces it).
export { hostOf, normalizeHostname } from './hostname.ts';
export { createDomainsService } from './service.ts';
export { createDomainsStore } from './store.ts';
export { systemResolveTxt } from './verification.ts';
export type { ResolveTxt } from './verification.ts';
export { createVerifiedHosts } from './verified-hosts.ts';
export { wellKnownBody } from './verified-hosts.ts';
export type { VerifiedHosts } from './verified-hosts.ts';
