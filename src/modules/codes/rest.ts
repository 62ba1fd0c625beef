// REST routes for codes. Handlers only translate HTTP to service calls and back.
import type { Router } from '@koa/router';
import type { Middleware } from 'koa';
import { principalOf, type AppState } from '../../http/context.ts';
import { scope } from '../../http/scopes.ts';
import { answerIdempotently } from '../../http/idempotent.ts';
import type { Services } from '../../services.ts';
import { presentCode } from './presenter.ts';

export interface RouteDeps {
  services: Services;
  auth: Middleware<AppState>;
  json: Middleware<AppState>;
  /** JSON body parser with the larger bulk limit. */
  bulkJson: Middleware<AppState>;
}

export function registerCodeRoutes(router: Router<AppState>, { services, auth, json }: RouteDeps): void {
  const base = services.config.publicBaseUrl;

  // POST /v1/codes: create a code (Idempotency-Key honoured)
  router.post('/codes', auth, scope('codes:write'), json, async (ctx) => {
    await answerIdempotently(ctx, services.idempotency, async () => {
      const code = await services.codes.create(principalOf(ctx), ctx.request.body);
      return { status: 201, body: presentCode(code, base) };
    });
    ctx.set('Location', `${router.opts.prefix}/codes/${(ctx.body as { id: string }).id}`);
  });

  // GET /v1/codes: one page of codes, filtered and sorted, with next_cursor
  router.get('/codes', auth, scope('codes:read'), async (ctx) => {
    const page = await services.codes.list(principalOf(ctx), ctx.query);
    ctx.body = { object: 'list', data: page.data.map((code) => presentCode(code, base)), next_cursor: page.nextCursor };
  });

  // GET /v1/codes/:id: one code with all its metadata
  router.get('/codes/:id', auth, scope('codes:read'), async (ctx) => {
    ctx.body = presentCode(await services.codes.get(principalOf(ctx), ctx.params.id!), base);
  });

  // PATCH /v1/codes/:id: partial update of content (or destination), design and routing
  router.patch('/codes/:id', auth, scope('codes:write'), json, async (ctx) => {
    ctx.body = presentCode(await services.codes.update(principalOf(ctx), ctx.params.id!, ctx.request.body), base);
  });

  // DELETE /v1/codes/:id: delete for good; the scan URL answers 404 afterwards
  router.delete('/codes/:id', auth, scope('codes:write'), async (ctx) => {
    await services.codes.remove(principalOf(ctx), ctx.params.id!);
    ctx.status = 204;
  });
}
