// Runs a POST handler under the Idempotency-Key header when the client sends one. The runner
// (modules/idempotency, handed in by the route) stores answers; this edge only says what makes
// two requests "the same": the method, the path and the parsed body.
import { createHash } from 'node:crypto';
import type { Principal } from '../shared/principal.ts';
import { principalOf, type AppContext } from './context.ts';

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

export async function answerIdempotently(
  ctx: AppContext,
  idempotency: IdempotencyRunner,
  work: () => Promise<Answer>,
): Promise<void> {
  const key = ctx.get('Idempotency-Key');
  const answer = key
    ? await idempotency.run(principalOf(ctx), key, requestHash(`${ctx.method} ${ctx.path}`, ctx.request.body), work)
    : { ...(await work()), replayed: false };
  if (answer.replayed) ctx.set('Idempotent-Replayed', 'true');
  ctx.status = answer.status;
  ctx.body = answer.body;
}
