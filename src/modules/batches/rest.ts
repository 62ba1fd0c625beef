// GET /v1/batches/:batch_id/images.zip: every image of a bulk call, as one streamed ZIP.
import type { Router } from '@koa/router';
import { principalOf, type AppState } from '../../http/context.ts';
import { scope } from '../../http/scopes.ts';
import type { RouteEdge } from '../../http/route-edge.ts';
import { parseInput } from '../../shared/validation.ts';
import { imageQuerySchema } from '../images/index.ts';
import type { BatchesService } from './service.ts';

export function registerBatchRoutes(
  router: Router<AppState>,
  { auth, batches }: RouteEdge & { batches: BatchesService },
): void {
  // GET /v1/batches/:batch_id/images.zip?format=svg|png|pdf&size=512&margin=4: a print run's images + manifest.csv
  router.get('/batches/:batch_id/images.zip', auth, scope('codes:read'), async (ctx) => {
    const batchId = ctx.params.batch_id!;
    const log = ctx.state.log;
    const archive = await batches.archive(principalOf(ctx), batchId, parseInput(imageQuerySchema, ctx.query), (err) =>
      log.error({ err, batch_id: batchId }, 'batch ZIP failed after streaming began; connection aborted'),
    );
    // attachment() quotes the name (and adds filename* should it ever need more than ASCII).
    ctx.attachment(archive.filename);
    ctx.type = 'application/zip';
    ctx.set('Cache-Control', 'private, no-store');
    ctx.body = archive.stream;
  });
}
