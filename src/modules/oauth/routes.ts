// The OAuth server on our Koa app: oidc-provider answers everything under /oauth (token,
// authorization, JWKS, introspection, revocation, discovery) except the consent page, which is
// ours: GET shows it, POST approves or denies.
import { Router } from '@koa/router';
import parse from 'co-body';
import type { Middleware } from 'koa';
import type { InteractionDetails } from 'oidc-provider';
import type { AppContext, AppState } from '../../http/context.ts';
import type { Services } from '../../services.ts';
import { DomainError } from '../../shared/errors.ts';
import { looksLikeApiKey } from '../../shared/api-key.ts';
import { OAUTH_PATH } from '../../shared/paths.ts';
import { isScope, type Principal, type Scope } from '../../shared/principal.ts';
import { assertCanGrant } from '../accounts/service.ts';
import { consentPage, type ConsentView } from './consent-page.ts';
import { INTERACTION_PATH } from './provider.ts';

/** OpenID scopes the library handles itself (refresh tokens come with the client's refresh_token grant). */
const OIDC_SCOPES = new Set(['openid', 'offline_access']);

/** Hands /oauth/* (but the consent page) to the provider, its own Koa app, on the raw request. */
export function oauthServer(services: Services): Middleware<AppState> {
  const callback = services.oauthServer.provider.callback();
  return async (ctx, next) => {
    const inside = ctx.path === OAUTH_PATH || ctx.path.startsWith(`${OAUTH_PATH}/`);
    if (!inside || ctx.path.startsWith(OAUTH_PATH + INTERACTION_PATH + '/')) return next();
    // Mounted the way Express mounts: the library derives its own URLs from originalUrl.
    const req = ctx.req as typeof ctx.req & { originalUrl?: string };
    const below = req.url!.slice(OAUTH_PATH.length);
    req.originalUrl = req.url;
    req.url = below.startsWith('/') ? below : `/${below}`;
    ctx.respond = false;
    await callback(ctx.req, ctx.res);
  };
}

function sendPage(ctx: AppContext, status: number, view: ConsentView): void {
  ctx.status = status;
  ctx.type = 'text/html; charset=utf-8';
  // The page asks for a key: never cached, never framed (clickjacking), nothing but itself.
  ctx.set('Cache-Control', 'no-store');
  ctx.set('X-Frame-Options', 'DENY');
  ctx.set('Content-Security-Policy', "default-src 'none'; frame-ancestors 'none'");
  ctx.body = consentPage(view);
}

const listOf = (value: unknown): string[] => (Array.isArray(value) ? value.map(String) : typeof value === 'string' ? [value] : []);

export function createConsentRouter(services: Services): Router<AppState> {
  const router = new Router<AppState>({ prefix: OAUTH_PATH + INTERACTION_PATH });
  const { provider, resource } = services.oauthServer;

  /** The interaction of this browser (its cookie) and what its client asks for. */
  async function load(ctx: AppContext) {
    const details: InteractionDetails = await provider.interactionDetails(ctx.req, ctx.res);
    if (details.uid !== ctx.params.uid) throw new DomainError('bad_request', 'This consent page belongs to another authorization request.');
    const client = await services.oauth.clientMetadata(details.params.client_id);
    if (!client) throw new DomainError('bad_request', 'The client of this authorization request no longer exists.');
    const allowed = new Set(String(client.allowed_scopes ?? '').split(' '));
    const asked = (details.params.scope ?? '').split(' ').filter((s) => s !== '');
    const scopes = asked.filter(isScope).filter((scope) => allowed.has(scope));
    const view: ConsentView = {
      action: ctx.path,
      clientName: String(client.client_name),
      clientId: details.params.client_id,
      scopes,
      offline: listOf(client.grant_types).includes('refresh_token'),
    };
    return { details, view, oidcScopes: asked.filter((s) => OIDC_SCOPES.has(s)) };
  }

  async function finish(ctx: AppContext, result: Record<string, unknown>): Promise<void> {
    const returnTo = await provider.interactionResult(ctx.req, ctx.res, result, { mergeWithLastSubmission: false });
    ctx.status = 303;
    ctx.redirect(returnTo);
  }

  // GET /oauth/interaction/:uid: the consent page of an authorization request
  router.get('/:uid', async (ctx) => {
    const { view } = await load(ctx);
    sendPage(ctx, 200, view);
  });

  // POST /oauth/interaction/:uid: approve (with an API key of the account holding keys:manage) or deny
  router.post('/:uid', async (ctx) => {
    const { details, view, oidcScopes } = await load(ctx);
    const form = (await parse.form(ctx, { limit: '16kb' })) as Record<string, unknown>;
    if (form.decision !== 'approve') {
      return finish(ctx, { error: 'access_denied', error_description: 'The account owner denied the request.' });
    }
    const key = typeof form.api_key === 'string' ? form.api_key.trim() : '';
    const principal: Principal | null = looksLikeApiKey(key) ? await services.accounts.authenticate(key) : null;
    if (!principal) return sendPage(ctx, 401, { ...view, error: 'That API key is unknown, revoked or expired.' });
    if (!principal.scopes.has('keys:manage')) return sendPage(ctx, 403, { ...view, error: 'Use a key with the keys:manage scope.' });
    const approved = listOf(form.scope).filter((scope): scope is Scope => view.scopes.includes(scope as Scope));
    if (approved.length === 0) return sendPage(ctx, 422, { ...view, error: 'Choose at least one permission, or deny.' });
    try {
      assertCanGrant(principal, approved);
    } catch (err) {
      return sendPage(ctx, 403, { ...view, error: (err as Error).message });
    }
    const grant = new provider.Grant({ accountId: principal.accountId, clientId: details.params.client_id });
    grant.addResourceScope(resource, approved.join(' '));
    // Marked as seen, so the library does not ask again for what the owner left unchecked.
    const declined = view.scopes.filter((scope) => !approved.includes(scope));
    if (declined.length > 0) grant.rejectResourceScope(resource, declined.join(' '));
    for (const scope of oidcScopes) grant.addOIDCScope(scope);
    const grantId = await grant.save();
    // Revoking this key ends the grant (grants.ts).
    await services.oauthGrants.approved(grantId, principal.keyId);
    ctx.state.log.info({ account_id: principal.accountId, client_id: details.params.client_id, scopes: approved }, 'OAuth consent given');
    return finish(ctx, { login: { accountId: principal.accountId }, consent: { grantId } });
  });

  return router;
}
