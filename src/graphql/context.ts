// The GraphQL context, declared once. It names no module and not the composition root: the
// builder (layer 3) sits below every module, so it cannot know their services' types. Instead
// `GraphQLServices` and `GraphQLLoaders` start (nearly) empty and each module's graphql.ts adds
// what its resolvers use, by TypeScript declaration merging:
//
//   declare module '../../graphql/context.ts' {
//     interface GraphQLServices { tags: TagsService }
//   }
//
// So a resolver sees exactly what some module declared, each module names only its own service
// (imports stay one way), and api/graphql-route.ts hands in the composition root's services,
// which the compiler checks against the merged interface. Declaring the context in api/ and
// making the builder generic over it was the other way; it would have moved the builder (which
// every module imports) above the modules.
import type { Config } from '../config.ts';
import type { Principal } from '../shared/principal.ts';
import type { RateLimitState } from '../shared/rate-limiter.ts';

/** The services resolvers call; modules add theirs (see above). `config` is layer 1, so it is here. */
export interface GraphQLServices {
  config: Config;
}

/** Per-request DataLoaders, so lists batch their per-item queries; modules add theirs. */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type -- filled by declaration merging
export interface GraphQLLoaders {}

/** What the operation was charged (cost-limit.ts), for `rateLimit` and the RateLimit-* headers. */
export interface Charge {
  /** Its points; 1 until priced (a request that never reaches execution costs one call). */
  points: number;
  /** Where the key stands after it; null when only the HTTP edge counted it. */
  state: RateLimitState | null;
}

/** Every resolver gets the caller and the same services REST uses. */
export interface GraphQLContext {
  principal: Principal;
  services: GraphQLServices;
  loaders: GraphQLLoaders;
  /** The request's credential checked again (null once revoked or expired): long-lived streams re-check with it. */
  reauthenticate: () => Promise<Principal | null>;
  /** Filled in as execution starts; a holder, as yoga copies the context it is given. */
  charge?: Charge;
}
