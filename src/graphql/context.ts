import type { AnalyticsLoaders } from '../modules/analytics/loaders.ts';
import type { Services } from '../services.ts';
import type { Principal } from '../shared/principal.ts';

/** Declared once; every resolver gets the caller and the same services REST uses. */
export interface GraphQLContext {
  principal: Principal;
  services: Services;
  /** Per-request DataLoaders, so lists of codes batch their per-code queries. */
  loaders: { analytics: AnalyticsLoaders };
}
