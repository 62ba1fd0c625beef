// buildApp(deps): the Koa application with every route; buildRequestListener(deps) puts the
// lean scan route in front of it. Neither listens; main.ts does.
import type { IncomingMessage, ServerResponse } from 'node:http';
import Koa from 'koa';
import type { Logger } from 'pino';
import type { Config } from './config.ts';
import type { GraphQLLimits } from './graphql/limits.ts';
import { createGraphQLServer } from './api/graphql-server.ts';
import type { AppState } from './http/context.ts';
import { compression } from './http/compression.ts';
import { corsFor } from './http/cors.ts';
import { createDashboardRouter } from './http/dashboard.ts';
import { errorHandler } from './http/error-handler.ts';
import { createGraphQLRouter } from './api/graphql-route.ts';
import { countRequests, createMetricsRouter } from './http/metrics.ts';
import { createOpenApiRouter } from './api/openapi-routes.ts';
import { createOpsRouter } from './http/ops.ts';
import { requestLog } from './http/request-log.ts';
import { createApiRouter } from './api/rest-router.ts';
import { API_VERSIONS, apiVersioning } from './http/versions.ts';
import type { Services } from './services.ts';
import { createConsentRouter, oauthServer } from './modules/oauth/index.ts';
import { createScanRoute, SCAN_ROUTE } from './modules/scans/index.ts';
import { DomainError } from './shared/errors.ts';

const graphqlLimits = (config: Config): GraphQLLimits => ({
  maxDepth: config.graphqlMaxDepth,
  maxCost: config.graphqlMaxCost,
  maxPoints: config.graphqlMaxPoints,
  introspection: config.graphqlIntrospection,
});

export interface AppDeps {
  services: Services;
  logger: Logger;
}

export function buildApp({ services, logger }: AppDeps): Koa<AppState> {
  const app = new Koa<AppState>();
  const graphiql = services.config.nodeEnv !== 'production';
  // Errors Koa sees after the answer started (a client leaving a streamed download) go to our
  // log instead of Koa's default stderr printer; a client going away is not our error.
  app.on('error', (err: NodeJS.ErrnoException) => {
    const clientLeft = err.code === 'EPIPE' || err.code === 'ECONNRESET' || err.code === 'ERR_STREAM_PREMATURE_CLOSE';
    logger[clientLeft ? 'debug' : 'error']({ err }, 'error after the response started');
  });

  // Outermost: it sees the final status of every answer, problems included.
  app.use(countRequests(services.metrics));
  app.use(requestLog(logger));
  // Outside the error handler (and the unknown-version answer), so that problems reach allowed
  // browser origins too.
  const cors = corsFor(services.config.corsOrigins);
  if (cors) app.use(cors);
  app.use(apiVersioning());
  // Outside the error handler, so that large problems are compressed too.
  app.use(compression());
  // A client may send the rest of a refused body before it reads the answer: twice the largest
  // body limit, or 5 s, is read and dropped so that the problem reaches it.
  app.use(
    errorHandler({
      maxBytes: 2 * Math.max(services.config.jsonBodyLimit, services.config.bulkBodyLimit),
      maxMs: 5_000,
    }),
  );
  // The OAuth server answers /oauth/* itself (OAuth's own error format), before the problem mapping below.
  app.use(oauthServer(services.oauthServer.provider));
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
    // Only with METRICS_TOKEN: without it, /metrics is on METRICS_PORT or nowhere (404 here).
    ...(services.config.metricsToken ? [createMetricsRouter(services.metrics, services.config.metricsToken)] : []),
    createOpenApiRouter(),
    createConsentRouter({ provider: services.oauthServer.provider, consent: services.oauthConsent }),
    createDashboardRouter(),
    createGraphQLRouter(
      createGraphQLServer({ graphiql, logger, limits: graphqlLimits(services.config) }),
      services,
      graphiql,
    ),
    ...API_VERSIONS.map((version) => createApiRouter(version, services)),
  ];
  for (const router of routers) {
    app.use(router.routes());
    app.use(router.allowedMethods());
  }
  return app;
}

/** The server's request handler: scans are answered before Koa's middleware stack is entered. */
export function buildRequestListener(deps: AppDeps): (req: IncomingMessage, res: ServerResponse) => void {
  const { services, logger } = deps;
  const handleScan = createScanRoute({
    cache: services.scans.targets,
    clientInfo: services.scans.clientInfo,
    recorder: services.scans.recorder,
    redirectStatus: services.config.scanRedirectStatus,
    limit: services.rateLimits.scan,
    logger,
    observe: services.metrics.routeObserver(SCAN_ROUTE),
    limits: services.scans.limits,
    hosts: services.verifiedHosts,
    rootRedirect: services.config.rootRedirectUrl,
    unlockLimit: services.rateLimits.unlock,
    unlockRememberSeconds: services.config.unlockRememberSeconds,
    secureCookies: services.config.publicBaseUrl.startsWith('https:'),
    publicBaseUrl: services.config.publicBaseUrl,
    photos: services.uploads.photo,
  });
  const koa = buildApp(deps).callback();
  return (req, res) => {
    if (!handleScan(req, res)) void koa(req, res);
  };
}
