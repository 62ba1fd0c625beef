// The analytics module's public face: what the rest of the service may use of it. Anything
// not exported here is the module's own (npm run lint:imports enforces it).
export { createAnalyticsLoaders } from './loaders.ts';
export { createRawScansService } from './raw-scans.ts';
export { createAnalyticsService } from './service.ts';
