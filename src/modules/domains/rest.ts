// REST routes for domains. Handlers only translate HTTP to service calls and back.
import type { Router } from '@koa/router';
import { principalOf, type AppState } from '../../http/context.ts';
import { scope } from '../../http/scopes.ts';
import type { RouteEdge } from '../../http/route-edge.ts';
import { parseInput } from '../../shared/validation.ts';
import { presentDomain } from './presenter.ts';
import { createDomainSchema, updateDomainSchema } from './schemas.ts';
import type { DomainsService } from './service.ts';

export function registerDomainRoutes(router: Router<AppState>, { domains, auth, json }: RouteEdge & { domains: DomainsService }): void {

  // POST /v1/domains: register a hostname; pending until its TXT record is verified
  router.post('/domains', auth, scope('codes:write'), json, async (ctx) => {
    const domain = await domains.add(principalOf(ctx), parseInput(createDomainSchema, ctx.request.body));
    ctx.status = 201;
    ctx.set('Location', `${router.opts.prefix}/domains/${domain.id}`);
    ctx.body = presentDomain(domain);
  });

  // GET /v1/domains: the account's domains, oldest first
  router.get('/domains', auth, scope('codes:read'), async (ctx) => {
    ctx.body = { object: 'list', data: (await domains.list(principalOf(ctx))).map(presentDomain), next_cursor: null };
  });

  // GET /v1/domains/:id: one domain, with the TXT record that verifies it
  router.get('/domains/:id', auth, scope('codes:read'), async (ctx) => {
    ctx.body = presentDomain(await domains.get(principalOf(ctx), ctx.params.id!));
  });

  // PATCH /v1/domains/:id: change the fallback URL
  router.patch('/domains/:id', auth, scope('codes:write'), json, async (ctx) => {
    ctx.body = presentDomain(await domains.update(principalOf(ctx), ctx.params.id!, parseInput(updateDomainSchema, ctx.request.body)));
  });

  // POST /v1/domains/:id/verify: look the TXT record up now; 422 saying what is missing
  router.post('/domains/:id/verify', auth, scope('codes:write'), async (ctx) => {
    ctx.body = presentDomain(await domains.verify(principalOf(ctx), ctx.params.id!));
  });

  // DELETE /v1/domains/:id: remove a domain no code uses (409 while codes use it)
  router.delete('/domains/:id', auth, scope('codes:write'), async (ctx) => {
    await domains.remove(principalOf(ctx), ctx.params.id!);
    ctx.status = 204;
  });
}
