import type { Services } from '../services.ts';
import type { Principal } from '../shared/principal.ts';

/** Declared once; every resolver gets the caller and the same services REST uses. */
export interface GraphQLContext {
  principal: Principal;
  services: Services;
}
