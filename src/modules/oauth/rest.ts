// REST routes for the account's OAuth clients and the grants it gave. Every one needs
// keys:manage: a client can obtain tokens, so registering one is like creating a key, and a
// grant is access the account handed out.
import type { Router } from '@koa/router';
import { principalOf, type AppState } from '../../http/context.ts';
import { scope } from '../../http/scopes.ts';
import type { RouteEdge } from '../../http/route-edge.ts';
import { parseInput } from '../../shared/validation.ts';
import { presentClient, presentGrant, presentRegisteredClient } from './presenter.ts';
import { createClientSchema } from './schemas.ts';
import type { OAuthGrant } from './grant-store.ts';
import type { GrantsService } from './grants.ts';
import type { OAuthService } from './service.ts';

export interface OAuthRouteServices {
  oauth: OAuthService;
  oauthGrants: GrantsService;
  /** The OAuth server's issuer, named in a registered client's answer. */
  oauthIssuer: string;
}

export function registerOAuthClientRoutes(
  router: Router<AppState>,
  { oauth, oauthGrants: grants, oauthIssuer, auth, json }: RouteEdge & OAuthRouteServices,
): void {
  const manage = scope('keys:manage');

  // POST /v1/oauth-clients: register a client (scopes, grant types, redirect URIs); the secret (none for a public
  // client) is shown once
  router.post('/oauth-clients', auth, manage, json, async (ctx) => {
    const { client, secret } = await oauth.register(principalOf(ctx), parseInput(createClientSchema, ctx.request.body));
    ctx.status = 201;
    ctx.set('Location', `${router.opts.prefix}/oauth-clients/${client.id}`);
    ctx.body = presentRegisteredClient(client, secret, oauthIssuer);
  });

  // GET /v1/oauth-clients: every client of the account, newest first
  router.get('/oauth-clients', auth, manage, async (ctx) => {
    ctx.body = { object: 'list', data: (await oauth.list(principalOf(ctx))).map(presentClient) };
  });

  // GET /v1/oauth-clients/:id: one client
  router.get('/oauth-clients/:id', auth, manage, async (ctx) => {
    ctx.body = presentClient(await oauth.get(principalOf(ctx), ctx.params.id!));
  });

  // DELETE /v1/oauth-clients/:id: delete; its tokens stop working (other processes within API_KEY_CACHE_TTL_MS)
  router.delete('/oauth-clients/:id', auth, manage, async (ctx) => {
    await oauth.remove(principalOf(ctx), ctx.params.id!);
    ctx.status = 204;
  });

  const present = async (grant: OAuthGrant) => presentGrant(grant, await oauth.clientName(grant.clientId));

  // GET /v1/oauth-grants: the consent the account gave clients (authorization code flow), newest first
  router.get('/oauth-grants', auth, manage, async (ctx) => {
    ctx.body = { object: 'list', data: await Promise.all((await grants.list(principalOf(ctx))).map(present)) };
  });

  // GET /v1/oauth-grants/:id: one grant
  router.get('/oauth-grants/:id', auth, manage, async (ctx) => {
    ctx.body = await present(await grants.get(principalOf(ctx), ctx.params.id!));
  });

  // DELETE /v1/oauth-grants/:id: withdraw a grant; its refresh tokens end at once, its access tokens too (other
  // processes within API_KEY_CACHE_TTL_MS)
  router.delete('/oauth-grants/:id', auth, manage, async (ctx) => {
    await grants.revoke(principalOf(ctx), ctx.params.id!);
    ctx.status = 204;
  });
}
