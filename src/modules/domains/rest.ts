// REST routes for domains. Handlers only translate HTTP to service calls and back.
import type { Router } from '@koa/router';
import { principalOf, type AppState } from '../../http/context.ts';
import { registerResourceRoutes } from '../../http/resource-routes.ts';
import type { RouteEdge } from '../../http/route-edge.ts';
import { scope } from '../../http/scopes.ts';
import { parseInput } from '../../shared/validation.ts';
import { presentDomain } from './presenter.ts';
import { createDomainSchema, updateDomainSchema } from './schemas.ts';
import type { DomainsService } from './service.ts';

export function registerDomainRoutes(
  router: Router<AppState>,
  { domains, ...edge }: RouteEdge & { domains: DomainsService },
): void {
  registerResourceRoutes(router, edge, {
    path: '/domains',
    read: 'codes:read',
    write: 'codes:write',
    present: presentDomain,
    // POST /v1/domains: register a hostname; pending until its TXT record is verified
    create: async (ctx) => {
      const domain = await domains.add(principalOf(ctx), parseInput(createDomainSchema, ctx.request.body));
      return { id: domain.id, body: presentDomain(domain) };
    },
    // GET /v1/domains: the account's domains, oldest first (one page: there are at most DOMAINS_PER_ACCOUNT)
    list: async (ctx) => ({ data: await domains.list(principalOf(ctx)), nextCursor: null }),
    // GET /v1/domains/:id: one domain, with the TXT record that verifies it
    get: (ctx, id) => domains.get(principalOf(ctx), id),
    // PATCH /v1/domains/:id: change the fallback URL
    update: (ctx, id) => domains.update(principalOf(ctx), id, parseInput(updateDomainSchema, ctx.request.body)),
    // DELETE /v1/domains/:id: remove a domain no code uses (409 while codes use it)
    remove: (ctx, id) => domains.remove(principalOf(ctx), id),
  });

  // POST /v1/domains/:id/verify: look the TXT record up now; 422 saying what is missing
  router.post('/domains/:id/verify', edge.auth, scope('codes:write'), async (ctx) => {
    ctx.body = presentDomain(await domains.verify(principalOf(ctx), ctx.params.id!));
  });
}
