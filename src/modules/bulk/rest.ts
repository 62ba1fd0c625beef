// POST /v1/codes/bulk: create up to 10,000 codes atomically.
import type { Router } from '@koa/router';
import { principalOf, type AppState } from '../../http/context.ts';
import { answerIdempotently } from '../../http/idempotent.ts';
import type { RouteDeps } from '../codes/rest.ts';
import { presentCode } from '../codes/presenter.ts';

export function registerBulkRoutes(router: Router<AppState>, { services, auth, bulkJson }: RouteDeps): void {
  // POST /v1/codes/bulk: create up to 10,000 codes atomically (Idempotency-Key honoured)
  router.post('/codes/bulk', auth, bulkJson, async (ctx) => {
    await answerIdempotently(ctx, services, async () => {
      const result = await services.bulk.create(principalOf(ctx), ctx.request.body);
      return {
        status: 201,
        body: {
          object: 'bulk_result',
          batch_id: result.batchId,
          created: result.codes.length,
          data: result.codes.map((code) => presentCode(code, services.config.publicBaseUrl)),
        },
      };
    });
  });
}
