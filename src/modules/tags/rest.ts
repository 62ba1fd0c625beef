// REST routes for tags. Handlers only translate HTTP to service calls and back.
import type { Router } from '@koa/router';
import { principalOf, type AppState } from '../../http/context.ts';
import { registerResourceRoutes } from '../../http/resource-routes.ts';
import type { RouteEdge } from '../../http/route-edge.ts';
import { parseInput } from '../../shared/validation.ts';
import { presentTag } from './presenter.ts';
import { createTagSchema, listTagsSchema, updateTagSchema } from './schemas.ts';
import type { TagsService } from './service.ts';

export function registerTagRoutes(
  router: Router<AppState>,
  { tags, ...edge }: RouteEdge & { tags: TagsService },
): void {
  registerResourceRoutes(router, edge, {
    path: '/tags',
    read: 'codes:read',
    write: 'codes:write',
    present: presentTag,
    // POST /v1/tags: create a tag (name unique in the account ignoring case; colour optional)
    create: async (ctx) => {
      const tag = await tags.create(principalOf(ctx), parseInput(createTagSchema, ctx.request.body));
      return { id: tag.id, body: presentTag(tag) };
    },
    // GET /v1/tags: one page of tags in name order, each with its code count, with next_cursor
    list: (ctx) => tags.list(principalOf(ctx), parseInput(listTagsSchema, ctx.query)),
    // GET /v1/tags/:id: one tag with its code count
    get: (ctx, id) => tags.get(principalOf(ctx), id),
    // PATCH /v1/tags/:id: rename or recolour (a name another tag has is a 409)
    update: (ctx, id) => tags.update(principalOf(ctx), id, parseInput(updateTagSchema, ctx.request.body)),
    // DELETE /v1/tags/:id: delete the tag and take it off its codes
    remove: (ctx, id) => tags.remove(principalOf(ctx), id),
  });
}
