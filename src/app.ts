// buildApp(deps): the Koa application with every route. It never listens; main.ts does.
import Koa from 'koa';
import type { Logger } from 'pino';
import { createGraphQLServer } from './graphql/yoga.ts';
import type { AppState } from './http/context.ts';
import { errorHandler } from './http/error-handler.ts';
import { createGraphQLRouter } from './http/graphql-route.ts';
import { createOpsRouter } from './http/ops.ts';
import { requestLog } from './http/request-log.ts';
import { API_VERSIONS, createApiRouter } from './http/router.ts';
import type { Services } from './services.ts';
import { DomainError } from './shared/errors.ts';

export interface AppDeps {
  services: Services;
  logger: Logger;
}

export function buildApp({ services, logger }: AppDeps): Koa<AppState> {
  const app = new Koa<AppState>();
  const graphiql = services.config.nodeEnv !== 'production';

  app.use(requestLog(logger));
  app.use(errorHandler());
  // Routers leave a bare status when nothing answered (404) or the method is wrong (405, 501,
  // with an Allow header): those become problems too.
  app.use(async (ctx, next) => {
    await next();
    if (ctx.body != null) return;
    if (ctx.status === 404) throw new DomainError('not_found', `There is no route ${ctx.method} ${ctx.path}.`);
    if (ctx.status === 405 || ctx.status === 501) {
      throw new DomainError(
        ctx.status === 405 ? 'method_not_allowed' : 'not_implemented',
        `${ctx.path} does not answer ${ctx.method}. Allowed: ${ctx.response.get('Allow')}.`,
      );
    }
  });

  const routers = [
    createOpsRouter(services),
    createGraphQLRouter(createGraphQLServer({ graphiql, logger }), services, graphiql),
    ...API_VERSIONS.map((version) => createApiRouter(version, services)),
  ];
  for (const router of routers) {
    app.use(router.routes());
    app.use(router.allowedMethods());
  }
  return app;
}
