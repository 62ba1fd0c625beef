// The Idempotency-Key header as middleware of a POST route. The runner (modules/idempotency,
// handed in by the route's registration) stores answers; this edge only says what makes two
// requests "the same": the method, the path and the parsed body.
import { createHash } from 'node:crypto';
import type { Principal } from '../shared/principal.ts';
import type { Middleware } from 'koa';
import { principalOf, type AppState } from './context.ts';

type Answer = { status: number; body: unknown };

/** What the edge needs of the idempotency service. */
export interface IdempotencyRunner {
  run(
    principal: Principal,
    key: string,
    requestHash: string,
    work: () => Promise<Answer>,
  ): Promise<Answer & { replayed: boolean }>;
}

/** Hash of what identifies "the same request": the route and the parsed body. */
export function requestHash(route: string, body: unknown): string {
  return createHash('sha256')
    .update(route)
    .update('\n')
    .update(JSON.stringify(body ?? null))
    .digest('hex');
}

/**
 * Middleware for a POST route that honours the Idempotency-Key header: with a key, the rest of
 * the chain runs at most once per key (the runner stores its answer), and a retry with the same
 * route and body gets the stored status and body, marked `Idempotent-Replayed: true`. Without a
 * key the chain just runs. It sits after the body parser, since the parsed body is part of what
 * makes two requests the same.
 */
export function idempotent(runner: IdempotencyRunner): Middleware<AppState> {
  return async (ctx, next) => {
    const key = ctx.get('Idempotency-Key');
    if (!key) return next();
    const work = async (): Promise<Answer> => {
      await next();
      return { status: ctx.status, body: ctx.body };
    };
    const answer = await runner.run(
      principalOf(ctx),
      key,
      requestHash(`${ctx.method} ${ctx.path}`, ctx.request.body),
      work,
    );
    if (!answer.replayed) return;
    ctx.set('Idempotent-Replayed', 'true');
    ctx.status = answer.status;
    // A route that made its JSON text itself (bulk: shared/turns.ts) stored that text.
    if (typeof answer.body === 'string') ctx.type = 'application/json';
    ctx.body = answer.body;
  };
}

/**
 * Middleware that sets `Location` from the answer's body once the rest of the chain has
 * answered (a created resource's URL): placed before `idempotent`, a replayed answer gets it too.
 */
export function locatedAt(path: (body: { id: string }) => string): Middleware<AppState> {
  return async (ctx, next) => {
    await next();
    if (ctx.status === 201) ctx.set('Location', path(ctx.body as { id: string }));
  };
}
