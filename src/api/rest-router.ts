// One router per API version. Today /v1 and /v2 share every route; a later difference is
// made here, in one place (versions.ts lists the versions and their lifecycle).
import { Router } from '@koa/router';
import { registerApiKeyRoutes } from '../modules/accounts/rest.ts';
import { registerAnalyticsRoutes } from '../modules/analytics/rest.ts';
import { registerAuditRoutes } from '../modules/audit/rest.ts';
import { registerBatchRoutes } from '../modules/batches/rest.ts';
import { registerBulkRoutes } from '../modules/bulk/rest.ts';
import { registerCodeRoutes } from '../modules/codes/rest.ts';
import { registerDomainRoutes } from '../modules/domains/rest.ts';
import { registerImageRoutes } from '../modules/images/rest.ts';
import { registerImportRoutes } from '../modules/imports/rest.ts';
import { registerOAuthClientRoutes } from '../modules/oauth/rest.ts';
import { registerRoutingRoutes } from '../modules/routing/rest.ts';
import { registerTagRoutes } from '../modules/tags/rest.ts';
import { registerUtmTemplateRoutes } from '../modules/utm-templates/rest.ts';
import { registerWebhookRoutes } from '../modules/webhooks/rest.ts';
import { registerUserRoutes } from '../modules/users/rest.ts';
import { presentWorkspace } from '../modules/workspaces/index.ts';
import { registerSsoRoutes, registerWorkspaceRoutes } from '../modules/workspaces/rest.ts';
import type { Services } from '../services.ts';
import { bearerAuthenticator, requireAuth, requireSession } from '../http/auth.ts';
import { jsonBody } from '../http/body.ts';
import type { AppContext, AppState } from '../http/context.ts';
import { withRateLimit } from '../http/rate-limit.ts';
import type { RouteEdge } from '../http/route-edge.ts';
import type { ApiVersion } from '../http/versions.ts';

export function createApiRouter(version: ApiVersion, services: Services): Router<AppState> {
  const router = new Router<AppState>({ prefix: `/${version}` });
  // Every authenticated call is charged to its key's limit right after auth (a point, or its
  // route's price); bulk calls and imports also count against the bulk limit.
  const isBulk = (ctx: AppContext) =>
    ctx.method === 'POST' && (ctx.routerPath === `/${version}/codes/bulk` || ctx.routerPath === `/${version}/imports`);
  const auth = requireAuth(bearerAuthenticator(services), services.callerAddressHash, services.sessionEdge);
  const pricedAuth = (points: number) => withRateLimit(auth, services.rateLimits, isBulk, points);
  const edge: RouteEdge = {
    auth: pricedAuth(1),
    pricedAuth,
    json: jsonBody(services.config.jsonBodyLimit),
    bulkJson: jsonBody(services.config.bulkBodyLimit),
    publicBaseUrl: services.config.publicBaseUrl,
    signedIn: requireSession(services.sessionEdge, services.callerAddressHash),
    sessionCookie: services.sessionEdge.cookie,
    callerAddressHash: services.callerAddressHash,
  };
  const sessionSeconds = services.config.sessionAbsoluteDays * 86_400;
  // Codes and what hangs off them; bulk before the codes routes, so /codes/bulk is never read as /codes/:id.
  const { idempotency } = services;
  registerBulkRoutes(router, {
    ...edge,
    bulk: services.bulk,
    idempotency,
    bulkBodyLimit: services.config.bulkBodyLimit,
  });
  registerImportRoutes(router, { ...edge, imports: services.imports, idempotency });
  registerCodeRoutes(router, { ...edge, codes: services.codes, idempotency });
  registerRoutingRoutes(router, { ...edge, routing: services.routing });
  registerImageRoutes(router, { ...edge, images: services.images, uploads: services.uploads });
  registerBatchRoutes(router, { ...edge, batches: services.batches });
  registerDomainRoutes(router, { ...edge, domains: services.domains });
  registerTagRoutes(router, { ...edge, tags: services.tags });
  registerUtmTemplateRoutes(router, { ...edge, utmTemplates: services.utmTemplates });
  registerAnalyticsRoutes(router, { ...edge, analytics: services.analytics, rawScans: services.rawScans });
  registerWebhookRoutes(router, { ...edge, webhooks: services.webhooks });
  registerApiKeyRoutes(router, { ...edge, accounts: services.accounts });
  registerAuditRoutes(router, { ...edge, audit: services.audit });
  registerUserRoutes(router, {
    ...edge,
    secondFactor: services.secondFactor,
    passwordResets: services.passwordResets,
    passkeys: services.passkeys,
    emailVerification: services.emailVerification,
    users: services.users,
    sessionSeconds,
    workspacesOf: async (userId) =>
      (await services.workspaces.listMine(userId, { limit: 200 })).data.map(presentWorkspace),
  });
  registerWorkspaceRoutes(router, {
    ...edge,
    workspaces: services.workspaces,
    invitations: services.invitations,
    setup: services.setup,
    sessionSeconds,
  });
  registerSsoRoutes(router, {
    ...edge,
    ssoSettings: services.sso.settings,
    ssoSignIn: services.sso.signIn,
    ssoRedirectUri: services.sso.redirectUri,
    sessionSeconds,
  });
  registerOAuthClientRoutes(router, {
    ...edge,
    oauth: services.oauth,
    oauthGrants: services.oauthGrants,
    oauthIssuer: services.oauthServer.issuer,
  });
  return router;
}
