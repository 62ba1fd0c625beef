// The routing module's public face: what the rest of the service may use of it. Anything
// not exported here is the module's own (npm run lint:imports enforces it).
export { inlineRuleResourceSchema, presentInlineRule } from './presenter.ts';
export { compileRouting, decide } from './resolver.ts';
export type { CompiledRouting } from './resolver.ts';
export type { Routing } from './rule.ts';
export { routingInputSchema } from './schemas.ts';
export type { RoutingInput } from './schemas.ts';
export { createRoutingService } from './service.ts';
export type { SimulatedVisitorOf } from './service.ts';
export { createRoutingStore } from './store.ts';
export type { RoutingStore } from './store.ts';
