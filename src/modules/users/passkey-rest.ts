// REST routes of passkeys: signing in with one (anonymous, like the password's POST /v1/sessions)
// and the signed-in person's own: options to register one, registering, listing, renaming and
// deleting (the password first). Registered by the users module's routes, beside the sessions.
import type { Router } from '@koa/router';
import type { Middleware } from 'koa';
import { sessionOf, type AppContext, type AppState } from '../../http/context.ts';
import { parseInput } from '../../shared/validation.ts';
import { presentCeremony, presentPasskey } from './passkey-presenter.ts';
import {
  passkeySignInOptionsSchema,
  passkeySignInSchema,
  registerPasskeySchema,
  renamePasskeySchema,
} from './passkey-schemas.ts';
import type { Passkeys } from './passkeys.ts';
import { passwordConfirmationSchema } from './schemas.ts';
import type { NewSession, SignInContext } from './service.ts';

export interface PasskeyRouteDeps {
  passkeys: Passkeys;
  json: Middleware<AppState>;
  signedIn: Middleware<AppState>;
  signInContext: (ctx: AppContext) => Promise<SignInContext>;
  /** Sets a new session's cookie and answers it, as the password sign-in does. */
  started: (ctx: AppContext, session: NewSession) => Promise<void>;
}

export function registerPasskeyRoutes(router: Router<AppState>, deps: PasskeyRouteDeps): void {
  const { passkeys, json, signedIn, signInContext, started } = deps;

  // POST /v1/sessions/passkey/options: a challenge for signing in with a passkey (by email or without)
  router.post('/sessions/passkey/options', json, async (ctx) => {
    const { email } = parseInput(passkeySignInOptionsSchema, ctx.request.body);
    ctx.body = presentCeremony(await passkeys.signInOptions(email));
  });

  // POST /v1/sessions/passkey: sign in with a passkey's assertion; a session, no second factor asked
  router.post('/sessions/passkey', json, async (ctx) => {
    const input = parseInput(passkeySignInSchema, ctx.request.body);
    await started(ctx, await passkeys.signIn(input, await signInContext(ctx)));
  });

  // GET /v1/users/me/passkeys: the user's passkeys
  router.get('/users/me/passkeys', signedIn, async (ctx) => {
    ctx.body = { object: 'list', data: (await passkeys.list(sessionOf(ctx).userId)).map(presentPasskey) };
  });

  // POST /v1/users/me/passkeys/options: a challenge for registering a new passkey
  router.post('/users/me/passkeys/options', signedIn, async (ctx) => {
    ctx.body = presentCeremony(await passkeys.registrationOptions(sessionOf(ctx).userId));
  });

  // POST /v1/users/me/passkeys: register a passkey with the device's answer to the options
  router.post('/users/me/passkeys', signedIn, json, async (ctx) => {
    const input = parseInput(registerPasskeySchema, ctx.request.body);
    ctx.status = 201;
    ctx.body = presentPasskey(await passkeys.register(sessionOf(ctx).userId, input));
  });

  // PATCH /v1/users/me/passkeys/:id: rename one of the user's passkeys
  router.patch('/users/me/passkeys/:id', signedIn, json, async (ctx) => {
    const { name } = parseInput(renamePasskeySchema, ctx.request.body);
    ctx.body = presentPasskey(await passkeys.rename(sessionOf(ctx).userId, ctx.params.id!, name));
  });

  // POST /v1/users/me/passkeys/:id/delete: delete one of the user's passkeys (the password first)
  router.post('/users/me/passkeys/:id/delete', signedIn, json, async (ctx) => {
    const { password } = parseInput(passwordConfirmationSchema, ctx.request.body);
    await passkeys.delete(sessionOf(ctx).userId, ctx.params.id!, password);
    ctx.status = 204;
  });
}
