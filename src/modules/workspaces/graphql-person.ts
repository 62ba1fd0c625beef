// The signed-in person a GraphQL request of people acts as; keys and tokens get `refusal` (403).
import type { GraphQLContext } from '../../graphql/context.ts';
import { actorOfKey } from '../../shared/actor.ts';
import { DomainError } from '../../shared/errors.ts';
import { userIdOf } from '../../shared/principal.ts';
import type { Person } from './service.ts';

export function graphqlPersonOf(ctx: GraphQLContext, refusal: string): Person {
  const userId = userIdOf(ctx.principal);
  if (!userId) throw new DomainError('forbidden', refusal);
  return { userId, actor: ctx.principal.actor ?? actorOfKey(userId) };
}
