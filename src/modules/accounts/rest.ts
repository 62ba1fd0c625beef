// REST routes for the account's API keys. Every one needs keys:manage.
import type { Router } from '@koa/router';
import type { Middleware } from 'koa';
import { hasBody } from '../../http/body.ts';
import { principalOf, type AppState } from '../../http/context.ts';
import { scope } from '../../http/scopes.ts';
import type { RouteEdge } from '../../http/route-edge.ts';
import { parseInput } from '../../shared/validation.ts';
import { presentApiKey } from './presenter.ts';
import { createKeySchema, rotateKeySchema } from './schemas.ts';
import type { AccountsService } from './service.ts';

export function registerApiKeyRoutes(
  router: Router<AppState>,
  { accounts: keys, auth, json }: RouteEdge & { accounts: AccountsService },
): void {
  const manage = scope('keys:manage');
  // Rotation's options are optional: an empty POST rotates with the defaults.
  const optionalJson: Middleware<AppState> = (ctx, next) => (hasBody(ctx) ? json(ctx, next) : next());

  // POST /v1/api-keys: create a key with a name, scopes and an optional expiry; the secret is shown once
  router.post('/api-keys', auth, manage, json, async (ctx) => {
    const { apiKey, secret } = await keys.create(principalOf(ctx), parseInput(createKeySchema, ctx.request.body));
    ctx.status = 201;
    ctx.set('Location', `${router.opts.prefix}/api-keys/${apiKey.id}`);
    ctx.body = { ...presentApiKey(apiKey), key: secret };
  });

  // GET /v1/api-keys: every key of the account (metadata only, never a secret), newest first
  router.get('/api-keys', auth, manage, async (ctx) => {
    ctx.body = { object: 'list', data: (await keys.list(principalOf(ctx))).map(presentApiKey) };
  });

  // GET /v1/api-keys/:id: one key's metadata
  router.get('/api-keys/:id', auth, manage, async (ctx) => {
    ctx.body = presentApiKey(await keys.get(principalOf(ctx), ctx.params.id!));
  });

  // POST /v1/api-keys/:id/rotate: a replacement key; the old one works on for the grace period (default 24 h)
  router.post('/api-keys/:id/rotate', auth, manage, optionalJson, async (ctx) => {
    const { apiKey, secret, previous } = await keys.rotate(
      principalOf(ctx),
      ctx.params.id!,
      parseInput(rotateKeySchema, ctx.request.body ?? {}),
    );
    ctx.status = 201;
    ctx.set('Location', `${router.opts.prefix}/api-keys/${apiKey.id}`);
    ctx.body = { ...presentApiKey(apiKey), key: secret, previous: presentApiKey(previous) };
  });

  // DELETE /v1/api-keys/:id: revoke at once (other processes follow within API_KEY_CACHE_TTL_MS)
  router.delete('/api-keys/:id', auth, manage, async (ctx) => {
    await keys.revoke(principalOf(ctx), ctx.params.id!);
    ctx.status = 204;
  });
}
