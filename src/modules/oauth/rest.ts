// REST routes for the account's OAuth clients. Every one needs keys:manage: a client can
// obtain tokens, so registering one is like creating a key.
import type { Router } from '@koa/router';
import { principalOf, type AppState } from '../../http/context.ts';
import { scope } from '../../http/scopes.ts';
import type { RouteDeps } from '../codes/rest.ts';
import { presentClient, presentRegisteredClient } from './presenter.ts';

export function registerOAuthClientRoutes(router: Router<AppState>, { services, auth, json }: RouteDeps): void {
  const oauth = services.oauth;
  const manage = scope('keys:manage');

  // POST /v1/oauth-clients: register a client (scopes, grant types, redirect URIs); the secret (none for a public client) is shown once
  router.post('/oauth-clients', auth, manage, json, async (ctx) => {
    const { client, secret } = await oauth.register(principalOf(ctx), ctx.request.body);
    ctx.status = 201;
    ctx.set('Location', `${router.opts.prefix}/oauth-clients/${client.id}`);
    ctx.body = presentRegisteredClient(client, secret, services.oauthServer.issuer);
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
}
