// Scope checks for GraphQL fields: `resolve: scoped('codes:read', (parent, args, ctx) => …)`
// (and `subscribe: scoped(…)` for a subscription). The check runs before the resolver, so a
// field the credential may not see yields a FORBIDDEN error naming the scope, and no data.
import type { GraphQLResolveInfo } from 'graphql';
import { requireScope, type Scope } from '../shared/principal.ts';
import type { GraphQLContext } from './context.ts';

type Resolver<P, A, R> = (parent: P, args: A, ctx: GraphQLContext, info: GraphQLResolveInfo) => R;

// Separate type parameters (not one for the whole function) let TypeScript type the wrapped
// resolver's parameters from the field, as if it were written inline.
// The returned resolver carries `requiredScope` (left out of its type, which must stay the plain
// resolver's for that inference), so a test can read every field's scope off the schema.
export function scoped<P, A, R>(required: Scope, resolve: Resolver<P, A, R>): Resolver<P, A, R> {
  const checked: Resolver<P, A, R> = (parent, args, ctx, info) => {
    requireScope(ctx.principal, required);
    return resolve(parent, args, ctx, info);
  };
  return Object.assign(checked, { requiredScope: required });
}
