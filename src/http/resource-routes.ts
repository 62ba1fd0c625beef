// The usual REST routes of a resource, for modules whose resource answers the usual way:
// POST /things (201 with Location), GET /things (a page), GET, PATCH and DELETE /things/:id.
// The module hands in one call per route (parse the input, call its service) and its presenter;
// this file does what is the same everywhere: auth, scope, body parsing, status, list shape.
import type { Router } from '@koa/router';
import type { Scope } from '../shared/principal.ts';
import type { AppContext, AppState } from './context.ts';
import type { RouteEdge } from './route-edge.ts';
import { scope } from './scopes.ts';

export interface ResourceRoutes<T> {
  /** `/things`, relative to the version's prefix. */
  path: string;
  read: Scope;
  write: Scope;
  /** The resource's JSON. */
  present: (item: T) => unknown;
  /** POST: the new item's id (for Location) and the answer (the presented item, or more: a secret shown once). */
  create: (ctx: AppContext) => Promise<{ id: string; body: unknown }>;
  /** GET /things: one page (nextCursor null on the last one). */
  list: (ctx: AppContext) => Promise<{ data: T[]; nextCursor: string | null }>;
  get: (ctx: AppContext, id: string) => Promise<T>;
  update: (ctx: AppContext, id: string) => Promise<T>;
  remove: (ctx: AppContext, id: string) => Promise<void>;
}

export function registerResourceRoutes<T>(
  router: Router<AppState>,
  { auth, json }: Pick<RouteEdge, 'auth' | 'json'>,
  routes: ResourceRoutes<T>,
): void {
  const { path, present } = routes;
  const read = scope(routes.read);
  const write = scope(routes.write);

  router.post(path, auth, write, json, async (ctx) => {
    const { id, body } = await routes.create(ctx);
    ctx.status = 201;
    ctx.set('Location', `${router.opts.prefix}${path}/${id}`);
    ctx.body = body;
  });

  router.get(path, auth, read, async (ctx) => {
    const page = await routes.list(ctx);
    ctx.body = { object: 'list', data: page.data.map(present), next_cursor: page.nextCursor };
  });

  router.get(`${path}/:id`, auth, read, async (ctx) => {
    ctx.body = present(await routes.get(ctx, ctx.params.id!));
  });

  router.patch(`${path}/:id`, auth, write, json, async (ctx) => {
    ctx.body = present(await routes.update(ctx, ctx.params.id!));
  });

  router.delete(`${path}/:id`, auth, write, async (ctx) => {
    await routes.remove(ctx, ctx.params.id!);
    ctx.status = 204;
  });
}
