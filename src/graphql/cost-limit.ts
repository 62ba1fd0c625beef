// The cost limits of an operation and its charge to the key's rate limit, counted with the
// variables, so they run as execution starts rather than in validation (whose result yoga
// caches per document, whatever the variables). The HTTP edge has already charged the request
// its first point (it was read, parsed and validated); the rest of its points are charged
// here, before any resolver runs, so a refused operation did no work.
import { GraphQLError } from 'graphql';
import type { Plugin } from 'graphql-yoga';
import { rateLimitSubject } from '../shared/principal.ts';
import type { RateLimitState } from '../shared/rate-limiter.ts';
import type { GraphQLContext } from './context.ts';
import { costLimitError, operationCost } from './cost.ts';

/** The rate limit's refusal as a GraphQL error: yoga answers it with 429 and Retry-After. */
export function rateLimitedError(message: string, state: RateLimitState): GraphQLError {
  const retryAfter = Math.max(1, state.resetSeconds);
  return new GraphQLError(`${message} Retry in ${retryAfter} s.`, {
    extensions: {
      code: 'RATE_LIMITED',
      status: 429,
      retryAfter,
      // yoga answers with this status and header, and leaves `http` out of the body. RateLimit-*
      // are the route's (the edge set them; a charge here updates them).
      http: { status: 429, headers: { 'Retry-After': String(retryAfter) } },
    },
  });
}

function pointsLimitError(points: number, maxPoints: number, budget: boolean): GraphQLError {
  const why = budget ? "the key's whole budget for a minute" : 'the most one operation may cost (GRAPHQL_MAX_POINTS)';
  return new GraphQLError(
    `This operation costs ${points} points, more than ${maxPoints}, ${why}. Ask for fewer analytics, images ` +
      `or items per list; docs/graphql.md lists what each field costs.`,
    { extensions: { code: 'GRAPHQL_VALIDATION_FAILED', http: { status: 400 } } },
  );
}

type Args = Parameters<typeof operationCost>[0] & { contextValue: unknown };
type Stop = (result: { errors: GraphQLError[] }) => void;

export function costLimit(maxCost: number, maxPoints: number): Plugin<GraphQLContext> {
  const priceAndCharge = async (args: Args, stop: Stop) => {
    const { cost, points } = operationCost(args);
    if (cost > maxCost) return stop({ errors: [costLimitError(cost, maxCost)] });
    const context = args.contextValue as GraphQLContext;
    const limit = context.services?.rateLimits.api;
    // An operation over the whole minute's budget could never run: waiting would not help.
    const cap = limit ? Math.min(maxPoints, limit.limit) : maxPoints;
    if (points > cap) return stop({ errors: [pointsLimitError(points, cap, cap < maxPoints)] });
    const charge = context.charge;
    if (!charge) return;
    charge.points = points;
    if (!limit || !context.principal || points <= 1) return;
    const state = await limit.take(rateLimitSubject(context.principal), points - 1);
    if (!state) return;
    charge.state = state;
    if (state.allowed) return;
    stop({
      errors: [
        rateLimitedError(`This operation costs ${points} points and the key had ${state.remaining + 1} left.`, state),
      ],
    });
  };
  return {
    onExecute: ({ args, setResultAndStopExecution }) => priceAndCharge(args, setResultAndStopExecution),
    onSubscribe: ({ args, setResultAndStopExecution }) => priceAndCharge(args, setResultAndStopExecution),
  };
}
