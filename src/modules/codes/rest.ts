// REST routes for codes. Handlers only translate HTTP to service calls and back.
import type { Router } from '@koa/router';
import { principalOf, type AppState } from '../../http/context.ts';
import { scope } from '../../http/scopes.ts';
import { idempotent, locatedAt, type IdempotencyRunner } from '../../http/idempotent.ts';
import type { RouteEdge } from '../../http/route-edge.ts';
import { parseInput } from '../../shared/validation.ts';
import { presentCode } from './presenter.ts';
import { listCodesSchema, parseCreateCode, updateCodeSchema } from './schemas.ts';
import type { CodesService } from './service.ts';

export function registerCodeRoutes(
  router: Router<AppState>,
  {
    auth,
    json,
    publicBaseUrl: base,
    codes,
    idempotency,
  }: RouteEdge & { codes: CodesService; idempotency: IdempotencyRunner },
): void {
  // POST /v1/codes: create a code (Idempotency-Key honoured)
  const created = locatedAt((code) => `${router.opts.prefix}/codes/${code.id}`);
  router.post('/codes', auth, scope('codes:write'), json, created, idempotent(idempotency), async (ctx) => {
    const code = await codes.create(principalOf(ctx), parseCreateCode(ctx.request.body));
    ctx.status = 201;
    ctx.body = presentCode(code, base);
  });

  // GET /v1/codes: one page of codes, filtered and sorted, with next_cursor
  router.get('/codes', auth, scope('codes:read'), async (ctx) => {
    const page = await codes.list(principalOf(ctx), parseInput(listCodesSchema, ctx.query));
    ctx.body = { object: 'list', data: page.data.map((code) => presentCode(code, base)), next_cursor: page.nextCursor };
  });

  // GET /v1/codes/:id: one code with all its metadata
  router.get('/codes/:id', auth, scope('codes:read'), async (ctx) => {
    ctx.body = presentCode(await codes.get(principalOf(ctx), ctx.params.id!), base);
  });

  // PATCH /v1/codes/:id: partial update of content (or destination), design and routing
  router.patch('/codes/:id', auth, scope('codes:write'), json, async (ctx) => {
    ctx.body = presentCode(
      await codes.update(principalOf(ctx), ctx.params.id!, parseInput(updateCodeSchema, ctx.request.body)),
      base,
    );
  });

  // DELETE /v1/codes/:id: delete for good; the scan URL answers 404 afterwards
  router.delete('/codes/:id', auth, scope('codes:write'), async (ctx) => {
    await codes.remove(principalOf(ctx), ctx.params.id!);
    ctx.status = 204;
  });
}
