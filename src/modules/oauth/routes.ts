// The OAuth server on our Koa app: oidc-provider answers everything under /oauth (token,
// authorization, JWKS, introspection, revocation, discovery) except the consent page, which is
// ours: GET shows it, POST approves or denies; and its metadata where RFC 8414 puts it, outside /oauth.
import { Router } from '@koa/router';
import parse from 'co-body';
import type { Middleware } from 'koa';
import type Provider from 'oidc-provider';
import type { InteractionDetails } from 'oidc-provider';
import type { AppContext, AppState } from '../../http/context.ts';
import { DomainError } from '../../shared/errors.ts';
import { OAUTH_METADATA_PATH, OAUTH_PATH } from '../../shared/paths.ts';
import type { ConsentService } from './consent.ts';
import { consentPage, type ConsentView } from './consent-page.ts';
import { INTERACTION_PATH } from './provider.ts';

/** What the consent page refuses with the page itself (and this status) rather than a problem. */
const PAGE_ERRORS = new Set(['unauthorized', 'forbidden', 'validation_failed']);

/** The provider's own path of its metadata, which it serves as OpenID discovery (a superset of RFC 8414's). */
const DISCOVERY_PATH = '/.well-known/openid-configuration';

/**
 * Hands /oauth/* (but the consent page) to the provider, its own Koa app, on the raw request; and
 * the RFC 8414 metadata path, as the provider's discovery document.
 */
export function oauthServer(provider: Provider): Middleware<AppState> {
  const callback = provider.callback();
  return async (ctx, next) => {
    const req = ctx.req as typeof ctx.req & { originalUrl?: string };
    const metadata = ctx.path === OAUTH_METADATA_PATH;
    const inside = ctx.path === OAUTH_PATH || ctx.path.startsWith(`${OAUTH_PATH}/`);
    if (!metadata && (!inside || ctx.path.startsWith(OAUTH_PATH + INTERACTION_PATH + '/'))) return next();
    // Mounted the way Express mounts (the library builds its URLs on the issuer: conformance.ts).
    const below = metadata ? DISCOVERY_PATH : req.url!.slice(OAUTH_PATH.length);
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

export function createConsentRouter({
  provider,
  consent,
}: {
  provider: Provider;
  consent: ConsentService;
}): Router<AppState> {
  const router = new Router<AppState>({ prefix: OAUTH_PATH + INTERACTION_PATH });

  /** The interaction of this browser (its cookie) and what its client asks for. */
  async function load(ctx: AppContext) {
    const details: InteractionDetails = await provider.interactionDetails(ctx.req, ctx.res);
    if (details.uid !== ctx.params.uid)
      throw new DomainError('bad_request', 'This consent page belongs to another authorization request.');
    const request = await consent.request(details.params);
    const view: ConsentView = {
      action: ctx.path,
      clientName: request.clientName,
      clientId: request.clientId,
      scopes: request.scopes,
      offline: request.offline,
    };
    return { request, view };
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
    const { request, view } = await load(ctx);
    const form = (await parse.form(ctx, { limit: '16kb' })) as Record<string, unknown>;
    if (form.decision !== 'approve') {
      return finish(ctx, { error: 'access_denied', error_description: 'The account owner denied the request.' });
    }
    let approval;
    try {
      approval = await consent.approve(request, { apiKey: form.api_key, scopes: form.scope });
    } catch (err) {
      if (err instanceof DomainError && PAGE_ERRORS.has(err.kind))
        return sendPage(ctx, err.status, { ...view, error: err.message });
      throw err;
    }
    ctx.state.log.info(
      { account_id: approval.accountId, client_id: request.clientId, scopes: approval.scopes },
      'OAuth consent given',
    );
    return finish(ctx, { login: { accountId: approval.accountId }, consent: { grantId: approval.grantId } });
  });

  return router;
}
