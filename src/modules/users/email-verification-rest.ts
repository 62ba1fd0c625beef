// REST routes of email verification: the signed-in person asks for a link to their address, and
// the link's token (public, like a password reset's) marks the address verified. Registered by
// the users module's routes, beside the profile.
import type { Router } from '@koa/router';
import type { Middleware } from 'koa';
import { sessionOf, type AppContext, type AppState } from '../../http/context.ts';
import { parseInput } from '../../shared/validation.ts';
import type { EmailVerification } from './email-verification.ts';
import { emailVerificationConfirmSchema } from './schemas.ts';
import type { SignInContext } from './service.ts';

export interface EmailVerificationRouteDeps {
  emailVerification: EmailVerification;
  json: Middleware<AppState>;
  signedIn: Middleware<AppState>;
  signInContext: (ctx: AppContext) => Promise<SignInContext>;
}

export function registerEmailVerificationRoutes(router: Router<AppState>, deps: EmailVerificationRouteDeps): void {
  const { emailVerification, json, signedIn, signInContext } = deps;

  // POST /v1/users/me/email-verification: mail a link that verifies the user's address (24 hours, once)
  router.post('/users/me/email-verification', signedIn, async (ctx) => {
    const sent = await emailVerification.request(sessionOf(ctx).userId, await signInContext(ctx));
    ctx.status = 202;
    ctx.body = { object: 'email_verification_sent', email: sent.email, expires_at: sent.expiresAt.toISOString() };
  });

  // POST /v1/email-verification/confirm: the mailed link's token marks its address verified
  router.post('/email-verification/confirm', json, async (ctx) => {
    const { token } = parseInput(emailVerificationConfirmSchema, ctx.request.body);
    const verified = await emailVerification.confirm(token);
    ctx.body = { object: 'email_verified', email: verified.email, verified_at: verified.verifiedAt.toISOString() };
  });
}
