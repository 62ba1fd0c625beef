// Query.rateLimit: what this operation was charged and what the key has left, as GitHub's API
// reports it in the answer itself (the RateLimit-* headers say the same). It costs nothing.
import { builder } from './builder.ts';
import type { Charge } from './context.ts';
import { points } from './cost.ts';

const RateLimitRef = builder.objectRef<Charge & { state: NonNullable<Charge['state']> }>('RateLimit').implement({
  description: "The key's rate limit, in points: a plain API call is 1, see docs/graphql.md for what fields cost.",
  fields: (t) => ({
    cost: t.int({ description: 'Points this operation was charged.', resolve: (c) => c.points }),
    limit: t.int({ description: 'Points a minute.', resolve: (c) => c.state.limit }),
    remaining: t.int({
      description: 'Points left in this minute, after this operation.',
      resolve: (c) => c.state.remaining,
    }),
    resetSeconds: t.int({
      description: 'Seconds until the minute ends and the whole limit is back.',
      resolve: (c) => c.state.resetSeconds,
    }),
  }),
});

builder.queryField('rateLimit', (t) =>
  t.field({
    type: RateLimitRef,
    nullable: true,
    description: 'What this operation cost and what the key has left; null when the rate limit is off.',
    extensions: points(0),
    resolve: (_root, _args, ctx) => {
      const charge = ctx.charge;
      return charge?.state ? { ...charge, state: charge.state } : null;
    },
  }),
);
