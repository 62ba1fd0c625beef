// REST routes for UTM templates. Handlers only translate HTTP to service calls and back.
import type { Router } from '@koa/router';
import { principalOf, type AppState } from '../../http/context.ts';
import { registerResourceRoutes } from '../../http/resource-routes.ts';
import type { RouteEdge } from '../../http/route-edge.ts';
import { parseInput } from '../../shared/validation.ts';
import { presentUtmTemplate } from './presenter.ts';
import { createUtmTemplateSchema, updateUtmTemplateSchema } from './schemas.ts';
import type { UtmTemplatesService } from './service.ts';

export function registerUtmTemplateRoutes(
  router: Router<AppState>,
  { utmTemplates, ...edge }: RouteEdge & { utmTemplates: UtmTemplatesService },
): void {
  registerResourceRoutes(router, edge, {
    path: '/utm-templates',
    read: 'codes:read',
    write: 'codes:write',
    present: presentUtmTemplate,
    // POST /v1/utm-templates: save a name and UTM fields a new code can start from
    create: async (ctx) => {
      const template = await utmTemplates.create(
        principalOf(ctx),
        parseInput(createUtmTemplateSchema, ctx.request.body),
      );
      return { id: template.id, body: presentUtmTemplate(template) };
    },
    // GET /v1/utm-templates: the account's templates, oldest first (one page: at most MAX_UTM_TEMPLATES)
    list: async (ctx) => ({ data: await utmTemplates.list(principalOf(ctx)), nextCursor: null }),
    // GET /v1/utm-templates/:id: one template
    get: (ctx, id) => utmTemplates.get(principalOf(ctx), id),
    // PATCH /v1/utm-templates/:id: rename, change fields (null removes one); codes made from it keep theirs
    update: (ctx, id) =>
      utmTemplates.update(principalOf(ctx), id, parseInput(updateUtmTemplateSchema, ctx.request.body)),
    // DELETE /v1/utm-templates/:id: delete it; codes made from it keep their fields
    remove: (ctx, id) => utmTemplates.remove(principalOf(ctx), id),
  });
}
