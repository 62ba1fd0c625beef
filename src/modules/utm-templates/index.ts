// The UTM templates module's public face: what the rest of the service may use of it. Anything
// not exported here is the module's own (npm run lint:imports enforces it).
export { createUtmTemplatesService, MAX_UTM_TEMPLATES } from './service.ts';
export type { UtmTemplatesService } from './service.ts';
export { createUtmTemplatesStore } from './store.ts';
