// Mounts graphql-yoga at /graphql behind the same API-key auth and rate limit as REST.
import type { IncomingMessage } from 'node:http';
import { Readable } from 'node:stream';
import { Router } from '@koa/router';
import parse from 'co-body';
import { shouldRenderGraphiQL } from 'graphql-yoga';
import type { Middleware } from 'koa';
import type { Yoga } from './graphql-server.ts';
import { createAnalyticsLoaders } from '../modules/analytics/index.ts';
import type { Services } from '../services.ts';
import { DomainError } from '../shared/errors.ts';
import { bearerAuthenticator, bearerToken, requireAuth, WORKSPACE_HEADER } from '../http/auth.ts';
import { hasBody, jsonDepthExceeds, tooDeep } from '../http/body.ts';
import { checkGraphQLRequest, notAcceptable } from '../http/graphql-request.ts';
import { principalOf, type AppContext, type AppState } from '../http/context.ts';
import { setRateLimitHeaders, withRateLimit } from '../http/rate-limit.ts';
import { encodedAsset, GRAPHIQL_ASSETS_PATH, graphiqlAsset } from '../http/graphiql.ts';
import { chooseEncoding } from '../http/precompressed.ts';
import { GRAPHIQL_CSP, HTML_SECURITY_HEADERS } from '../http/security-headers.ts';
import type { GraphQLContext } from '../graphql/context.ts';

/**
 * yoga would read a body of any size. It is read here first, within `limitBytes` and
 * MAX_JSON_DEPTH, and handed over already read (whatwg-node under yoga takes `req.body`, as it
 * does behind Express's body parsers). Handed over as a stream of the one buffer, not as the
 * string: whatwg-node first tests a parsed body with `Object.keys(body).length`, which for a
 * string makes an array of one key per character (31 KB of query took 8 ms of the thread that
 * answers scans; a 10 MB bulk mutation would make ten million keys). A stream has a few keys and
 * is taken as a body as it is.
 */
async function readBody(ctx: AppContext, limitBytes: number): Promise<void> {
  if (ctx.method === 'GET' || ctx.method === 'HEAD' || !hasBody(ctx)) return;
  const encoding = ctx.get('Content-Encoding');
  if (encoding && encoding !== 'identity') {
    throw new DomainError('unsupported_media_type', `Send the body uncompressed (got Content-Encoding '${encoding}').`);
  }
  const text = await parse.text(ctx, { limit: limitBytes, encoding: 'utf8' });
  if (jsonDepthExceeds(text)) throw tooDeep();
  if (text !== '') (ctx.req as IncomingMessage & { body?: Readable }).body = Readable.from([Buffer.from(text)]);
}

/** GraphQL over GET carries JSON in two parameters; yoga would answer bad JSON there with a 500. */
function checkJsonParams(ctx: AppContext): void {
  for (const name of ['variables', 'extensions']) {
    for (const value of [ctx.query[name] ?? []].flat()) {
      if (value === '') continue;
      try {
        JSON.parse(value);
      } catch {
        throw new DomainError('bad_request', `The '${name}' parameter is not valid JSON.`);
      }
      if (jsonDepthExceeds(value)) throw tooDeep();
    }
  }
}

export function createGraphQLRouter(yoga: Yoga, services: Services, graphiql: boolean): Router<AppState> {
  const router = new Router<AppState>();
  // A GraphQL request counts as one call here, as it is read; execution charges the rest of its
  // points (graphql/cost-limit.ts) and the headers are set again from that charge.
  const authenticate = bearerAuthenticator(services);
  const auth = withRateLimit(
    requireAuth(authenticate, services.callerAddressHash, services.sessionEdge),
    services.rateLimits,
  );

  // A long subscription checks again that its session lives and its membership still holds.
  const { resolver, cookie } = services.sessionEdge;
  const reauthenticateSession = async (ctx: AppContext) => {
    const signedIn = await resolver.session(cookie.read(ctx) ?? '');
    return signedIn ? resolver.principal(signedIn.userId, ctx.get(WORKSPACE_HEADER) || null) : null;
  };

  // A browser opening GraphiQL cannot send a key yet; it sets one in GraphiQL's headers tab. Only
  // the page itself goes without a credential: yoga's own test decides, so whatever passes here
  // unauthenticated is answered with GraphiQL and never executed (content negotiation would also
  // let `Accept: */*` through, which yoga executes).
  const rendersGraphiQL = (ctx: AppContext) =>
    graphiql &&
    shouldRenderGraphiQL({ method: ctx.method, headers: new Headers({ accept: ctx.get('Accept') }) } as Request);
  const authUnlessGraphiQL: Middleware<AppState> = (ctx, next) =>
    !ctx.get('Authorization') && rendersGraphiQL(ctx) ? next() : auth(ctx, next);

  // GET /graphql/assets/:file: GraphiQL's script, styles and icon (development), named by content
  if (graphiql) {
    router.get(`${GRAPHIQL_ASSETS_PATH}/:file`, async (ctx) => {
      const asset = await graphiqlAsset(ctx.params.file!);
      if (!asset) throw new DomainError('not_found', `GraphiQL has no file '${ctx.params.file}'; reload the page.`);
      ctx.set({ 'X-Content-Type-Options': 'nosniff', 'Cache-Control': 'public, max-age=31536000, immutable' });
      ctx.type = asset.type;
      const encoding = chooseEncoding(ctx, asset.type.startsWith('image/') ? [] : ['br', 'gzip']);
      if (encoding) ctx.set('Content-Encoding', encoding);
      ctx.body = encoding ? encodedAsset(asset, encoding) : asset.bytes;
    });
  }

  // GET|POST /graphql: GraphQL over HTTP (and GraphiQL in development)
  router.all('/graphql', authUnlessGraphiQL, async (ctx) => {
    if (!rendersGraphiQL(ctx)) checkGraphQLRequest(ctx);
    // bulkCreateCodes and importCodes carry up to 10,000 codes: the bulk body limit applies.
    await readBody(ctx, services.config.bulkBodyLimit);
    checkJsonParams(ctx);
    const principal = ctx.state.principal ? principalOf(ctx) : (undefined as never);
    const context: GraphQLContext = {
      principal,
      services,
      loaders: { analytics: createAnalyticsLoaders(principal, services.analytics) },
      reauthenticate: () =>
        ctx.state.session ? reauthenticateSession(ctx) : authenticate(bearerToken(ctx.get('Authorization')) ?? ''),
      charge: { points: 1, state: ctx.state.rateLimit ?? null },
    };
    const response = await yoga.handleNodeRequestAndResponse(ctx.req, ctx.res, context);
    if (context.charge?.state) setRateLimitHeaders((name, value) => ctx.set(name, value), context.charge.state);
    // A subscription asked for over multipart/mixed alone: yoga serves it over SSE only.
    if (response.status === 406 && !response.body) throw notAcceptable(ctx.get('Accept'));
    ctx.status = response.status;
    response.headers.forEach((value, key) => ctx.append(key, value));
    if (response.headers.get('content-type')?.startsWith('text/html')) {
      // GraphiQL's page: a few hundred bytes, its script and styles under /graphql/assets.
      ctx.set({ ...HTML_SECURITY_HEADERS, 'Content-Security-Policy': GRAPHIQL_CSP, 'Cache-Control': 'no-cache' });
      ctx.body = await response.text();
      return;
    }
    // Yoga's body is a web stream (its own ponyfill); a Node stream lets Koa pipe it, SSE included.
    ctx.body = response.body ? Readable.from(response.body as unknown as AsyncIterable<Uint8Array>) : null;
  });

  return router;
}
