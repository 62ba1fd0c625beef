// The batches module's public face: what the rest of the service may use of it. Anything
// not exported here is the module's own (npm run lint:imports enforces it).
export { createBatchesService } from './service.ts';
