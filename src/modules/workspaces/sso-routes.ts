// REST routes of single sign-on: a workspace's settings (owners only, signed in) and the
// browser's sign-in through the provider (anonymous redirects). Every refusal of the sign-in
// lands on the dashboard's sign-in page with a reason it explains, never on a problem page.
import type { Router } from '@koa/router';
import type { AppContext, AppState } from '../../http/context.ts';
import { ssoStateCookie } from '../../http/session-cookie.ts';
import type { RouteEdge } from '../../http/route-edge.ts';
import { DomainError, notFound } from '../../shared/errors.ts';
import { parseInput } from '../../shared/validation.ts';
import { personOf, signInContextOf } from './route-callers.ts';
import { presentSsoSettings } from './sso-presenter.ts';
import { putSsoSchema, ssoStartSchema } from './sso-schemas.ts';
import type { SsoSettingsService } from './sso-settings.ts';
import { SSO_ATTEMPT_TTL_MS, SsoRefusal, type SsoSignIn } from './sso-sign-in.ts';

export interface SsoRouteDeps {
  ssoSettings: SsoSettingsService;
  ssoSignIn: SsoSignIn;
  /** The callback's public URL (shown to owners, to register with their provider). */
  ssoRedirectUri: string;
  sessionSeconds: number;
}

export function registerSsoRoutes(router: Router<AppState>, deps: RouteEdge & SsoRouteDeps): void {
  const { ssoSettings, ssoSignIn, ssoRedirectUri, signedIn, json, sessionCookie, callerAddressHash } = deps;
  const stateCookie = ssoStateCookie(deps.publicBaseUrl);
  const dashboard = `${deps.publicBaseUrl}/dashboard/`;
  const contextOf = (ctx: AppContext) => signInContextOf(ctx, callerAddressHash);

  /** A 302 without Koa's "Redirecting to" text: the browser never shows it, and no body is declared. */
  function redirect(ctx: AppContext, url: string): void {
    ctx.status = 302;
    ctx.set('Location', url);
    ctx.body = '';
  }

  /** Sends the browser back to the sign-in page, which explains `reason`. */
  function refused(ctx: AppContext, err: unknown): void {
    const reason =
      err instanceof SsoRefusal
        ? err.reason
        : err instanceof DomainError && err.kind === 'rate_limited'
          ? 'rate_limited'
          : err instanceof DomainError && err.kind === 'validation_failed'
            ? 'bad_email'
            : null;
    if (reason === null) throw err;
    ctx.state.log.info({ reason, detail: (err as Error).message }, 'SSO sign-in refused');
    redirect(ctx, `${dashboard}?sso_error=${reason}`);
  }

  // GET /v1/workspaces/:id/sso: the workspace's single sign-on settings, without the secret (owners)
  router.get('/workspaces/:id/sso', signedIn, async (ctx) => {
    const settings = await ssoSettings.find(personOf(ctx), ctx.params.id!);
    if (!settings) throw notFound('single sign-on settings of workspace', ctx.params.id!);
    ctx.body = presentSsoSettings(settings, ssoRedirectUri);
  });

  // PUT /v1/workspaces/:id/sso: set the settings whole; a domain another workspace covers is a 409 (owners)
  router.put('/workspaces/:id/sso', signedIn, json, async (ctx) => {
    const input = parseInput(putSsoSchema, ctx.request.body);
    ctx.body = presentSsoSettings(await ssoSettings.put(personOf(ctx), ctx.params.id!, input), ssoRedirectUri);
  });

  // DELETE /v1/workspaces/:id/sso: turn single sign-on off, forgetting the settings (owners)
  router.delete('/workspaces/:id/sso', signedIn, async (ctx) => {
    await ssoSettings.remove(personOf(ctx), ctx.params.id!);
    ctx.status = 204;
  });

  // GET /v1/sso/start?email=: redirect to the identity provider of the email's domain
  router.get('/sso/start', async (ctx) => {
    try {
      const { email } = parseInput(ssoStartSchema, ctx.query);
      const { url, state } = await ssoSignIn.start(email, await contextOf(ctx));
      stateCookie.set(ctx, state, SSO_ATTEMPT_TTL_MS / 1000);
      redirect(ctx, url.href);
    } catch (err) {
      refused(ctx, err);
    }
  });

  // GET /v1/sso/callback: the provider's answer; a session, then the dashboard
  router.get('/sso/callback', async (ctx) => {
    const cookieState = stateCookie.read(ctx);
    stateCookie.clear(ctx);
    try {
      const callbackUrl = new URL(`${ssoRedirectUri}${ctx.search}`);
      const started = await ssoSignIn.finish(callbackUrl, cookieState, await contextOf(ctx));
      sessionCookie.set(ctx, started.token, deps.sessionSeconds);
      redirect(ctx, dashboard);
    } catch (err) {
      refused(ctx, err);
    }
  });
}
