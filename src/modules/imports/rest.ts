// POST /v1/imports: links exported from Bitly, Shlink, YOURLS or Kutt made into codes here.
import type { Router } from '@koa/router';
import { principalOf, type AppState } from '../../http/context.ts';
import { idempotent, type IdempotencyRunner } from '../../http/idempotent.ts';
import type { RouteEdge } from '../../http/route-edge.ts';
import { scope } from '../../http/scopes.ts';
import { parseInput } from '../../shared/validation.ts';
import { presentImportReport } from './presenter.ts';
import { importBodySchema } from './schemas.ts';
import type { ImportsService } from './service.ts';

export interface ImportRouteDeps extends RouteEdge {
  imports: ImportsService;
  idempotency: IdempotencyRunner;
}

export function registerImportRoutes(
  router: Router<AppState>,
  { auth, bulkJson, imports, idempotency }: ImportRouteDeps,
): void {
  // POST /v1/imports: a dry run reports (200); a real run creates what it can (201 when it made any codes).
  // The body may be as large as a bulk call's (BULK_BODY_LIMIT); Idempotency-Key honoured.
  router.post('/imports', auth, scope('codes:write'), bulkJson, idempotent(idempotency), async (ctx) => {
    const report = await imports.run(principalOf(ctx), parseInput(importBodySchema, ctx.request.body));
    ctx.status = report.batchId ? 201 : 200;
    ctx.body = presentImportReport(report);
  });
}
