// Mounts graphql-yoga at /graphql behind the same API-key auth as REST.
import { Readable } from 'node:stream';
import { Router } from '@koa/router';
import type { Middleware } from 'koa';
import type { Yoga } from '../graphql/yoga.ts';
import { createAnalyticsLoaders } from '../modules/analytics/loaders.ts';
import type { Services } from '../services.ts';
import { requireAuth } from './auth.ts';
import { principalOf, type AppState } from './context.ts';

export function createGraphQLRouter(yoga: Yoga, services: Services, graphiql: boolean): Router<AppState> {
  const router = new Router<AppState>();
  const auth = requireAuth((key) => services.accounts.authenticate(key));

  // A browser opening GraphiQL cannot send a key yet; it sets one in GraphiQL's headers tab.
  const authUnlessGraphiQL: Middleware<AppState> = (ctx, next) =>
    graphiql && ctx.method === 'GET' && ctx.accepts('text/html', 'application/json') === 'text/html' && !ctx.get('Authorization')
      ? next()
      : auth(ctx, next);

  // GET|POST /graphql: GraphQL over HTTP (and GraphiQL in development)
  router.all('/graphql', authUnlessGraphiQL, async (ctx) => {
    const principal = ctx.state.principal ? principalOf(ctx) : (undefined as never);
    const response = await yoga.handleNodeRequestAndResponse(ctx.req, ctx.res, {
      principal,
      services,
      loaders: { analytics: createAnalyticsLoaders(principal, services.analytics) },
    });
    ctx.status = response.status;
    response.headers.forEach((value, key) => ctx.append(key, value));
    // Yoga's body is a web stream (its own ponyfill); a Node stream lets Koa pipe it, SSE included.
    ctx.body = response.body ? Readable.from(response.body as unknown as AsyncIterable<Uint8Array>) : null;
  });

  return router;
}
