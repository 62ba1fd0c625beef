// Runs a POST handler under the Idempotency-Key header when the client sends one.
import type { Services } from '../services.ts';
import { requestHash } from '../modules/idempotency/service.ts';
import { principalOf, type AppContext } from './context.ts';

export async function answerIdempotently(ctx: AppContext, services: Services, work: () => Promise<{ status: number; body: unknown }>): Promise<void> {
  const key = ctx.get('Idempotency-Key');
  const answer = key
    ? await services.idempotency.run(principalOf(ctx), key, requestHash(`${ctx.method} ${ctx.path}`, ctx.request.body), work)
    : { ...(await work()), replayed: false };
  if (answer.replayed) ctx.set('Idempotent-Replayed', 'true');
  ctx.status = answer.status;
  ctx.body = answer.body;
}
