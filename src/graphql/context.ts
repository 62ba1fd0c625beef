import type { AnalyticsLoaders } from '../modules/analytics/loaders.ts';
import type { Services } from '../services.ts';
import type { Principal } from '../shared/principal.ts';

/** Declared once; every resolver gets the caller and the same services REST uses. */
export interface GraphQLContext {
  principal: Principal;
  services: Services;
  /** Per-request DataLoaders, so lists of codes batch their per-code queries. */
  loaders: { analytics: AnalyticsLoaders };
  /** The request's credential checked again (null once revoked or expired): long-lived streams re-check with it. */
  reauthenticate: () => Promise<Principal | null>;
}
