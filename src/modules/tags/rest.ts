// REST routes for tags. Handlers only translate HTTP to service calls and back.
import type { Router } from '@koa/router';
import { principalOf, type AppState } from '../../http/context.ts';
import { scope } from '../../http/scopes.ts';
import type { RouteEdge } from '../../http/route-edge.ts';
import { parseInput } from '../../shared/validation.ts';
import { presentTag } from './presenter.ts';
import { createTagSchema, listTagsSchema, updateTagSchema } from './schemas.ts';
import type { TagsService } from './service.ts';

export function registerTagRoutes(router: Router<AppState>, { tags, auth, json }: RouteEdge & { tags: TagsService }): void {

  // POST /v1/tags: create a tag (name unique in the account ignoring case; colour optional)
  router.post('/tags', auth, scope('codes:write'), json, async (ctx) => {
    const tag = await tags.create(principalOf(ctx), parseInput(createTagSchema, ctx.request.body));
    ctx.status = 201;
    ctx.set('Location', `${router.opts.prefix}/tags/${tag.id}`);
    ctx.body = presentTag(tag);
  });

  // GET /v1/tags: one page of tags in name order, each with its code count, with next_cursor
  router.get('/tags', auth, scope('codes:read'), async (ctx) => {
    const page = await tags.list(principalOf(ctx), parseInput(listTagsSchema, ctx.query));
    ctx.body = { object: 'list', data: page.data.map(presentTag), next_cursor: page.nextCursor };
  });

  // GET /v1/tags/:id: one tag with its code count
  router.get('/tags/:id', auth, scope('codes:read'), async (ctx) => {
    ctx.body = presentTag(await tags.get(principalOf(ctx), ctx.params.id!));
  });

  // PATCH /v1/tags/:id: rename or recolour (a name another tag has is a 409)
  router.patch('/tags/:id', auth, scope('codes:write'), json, async (ctx) => {
    ctx.body = presentTag(await tags.update(principalOf(ctx), ctx.params.id!, parseInput(updateTagSchema, ctx.request.body)));
  });

  // DELETE /v1/tags/:id: delete the tag and take it off its codes
  router.delete('/tags/:id', auth, scope('codes:write'), async (ctx) => {
    await tags.remove(principalOf(ctx), ctx.params.id!);
    ctx.status = 204;
  });
}
