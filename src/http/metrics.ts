// Prometheus metrics over HTTP: counting what Koa answers, GET /metrics on the main port behind
// METRICS_TOKEN, and the token-free listener of METRICS_PORT for an internal network.
import { createHash, timingSafeEqual } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import { Router } from '@koa/router';
import type { Middleware } from 'koa';
import type { Logger } from 'pino';
import { DomainError } from '../shared/errors.ts';
import type { Metrics } from '../shared/metrics.ts';
import { OAUTH_METADATA_PATH, OAUTH_PATH } from '../shared/paths.ts';
import type { AppContext, AppState } from './context.ts';

/** What @koa/router leaves on the context: the template that matched, and the layers whose path did. */
interface Routed {
  _matchedRoute?: string | RegExp;
  matched?: { path: string | RegExp; methods: string[] }[];
}

/**
 * The route label: the template that matched (`/v1/codes/:id`), never the raw path, whose values
 * are unbounded (every id would be its own time series).
 */
function routeOf(ctx: AppContext, arrivedPath: string): string {
  const routed = ctx as AppContext & Routed;
  if (routed._matchedRoute) return String(routed._matchedRoute);
  // The path is a route's but the method is not (405): that route (the first registered, as
  // routes are registered most specific first).
  const pathOnly = routed.matched?.find((layer) => layer.methods.length > 0);
  if (pathOnly) return String(pathOnly.path);
  // oidc-provider answers these itself, outside our routers (and rewrites the URL it is given).
  if (arrivedPath === OAUTH_PATH || arrivedPath.startsWith(`${OAUTH_PATH}/`)) return `${OAUTH_PATH}/*`;
  if (arrivedPath === OAUTH_METADATA_PATH) return OAUTH_METADATA_PATH;
  return 'unmatched';
}

/** Outermost middleware: counts and times every request Koa answers, with its final status. */
export function countRequests(metrics: Metrics): Middleware<AppState> {
  return async (ctx, next) => {
    const startedAt = performance.now();
    const arrivedPath = ctx.path;
    try {
      await next();
    } finally {
      metrics.request(ctx.method, routeOf(ctx, arrivedPath), ctx.status, startedAt);
    }
  };
}

const BEARER = /^Bearer\s+(\S+)\s*$/i;
const digest = (value: string) => createHash('sha256').update(value).digest();

/** GET /metrics on the main port, for the bearer of METRICS_TOKEN. */
export function createMetricsRouter(metrics: Metrics, token: string): Router<AppState> {
  const expected = digest(token);
  const router = new Router<AppState>();

  // GET /metrics: the Prometheus exposition, for the bearer of METRICS_TOKEN
  router.get('/metrics', async (ctx) => {
    const presented = BEARER.exec(ctx.get('Authorization'))?.[1];
    // Digests have one length, so the comparison takes the same time whatever was sent.
    if (!presented || !timingSafeEqual(digest(presented), expected)) {
      throw new DomainError(
        'unauthorized',
        'GET /metrics needs the metrics token: Authorization: Bearer <METRICS_TOKEN>.',
      );
    }
    ctx.type = metrics.contentType;
    ctx.body = await metrics.render();
  });

  return router;
}

/**
 * The listener of METRICS_PORT: GET /metrics without a token (reaching the port is the
 * permission, so bind it to loopback or a private interface), 404 for anything else.
 */
export async function startMetricsServer({
  metrics,
  logger,
  port,
  host,
}: {
  metrics: Metrics;
  logger: Logger;
  port: number;
  host: string;
}): Promise<Server> {
  const server = createServer((req, res) => {
    const path = (req.url ?? '').split('?')[0];
    if (path !== '/metrics' || (req.method !== 'GET' && req.method !== 'HEAD')) {
      res
        .writeHead(404, { 'Content-Type': 'text/plain; charset=utf-8' })
        .end('Not found: this port serves GET /metrics only.\n');
      return;
    }
    metrics.render().then(
      (body) => {
        res.writeHead(200, {
          'Content-Type': metrics.contentType,
          'Content-Length': Buffer.byteLength(body),
          'Cache-Control': 'no-store',
        });
        res.end(req.method === 'HEAD' ? undefined : body);
      },
      (err: unknown) => {
        logger.error({ err }, 'rendering metrics failed');
        res
          .writeHead(500, { 'Content-Type': 'text/plain; charset=utf-8' })
          .end('Rendering the metrics failed; see the log.\n');
      },
    );
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  return server;
}
