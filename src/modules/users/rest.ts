// REST routes of people: signing in (with the second factor's step when it is on) and out, the
// current session and the others, the profile, the password, the second factor, passkeys
// (./passkey-rest.ts) and email verification (./email-verification-rest.ts). All but signing in,
// resets and confirming a verification need a session cookie; keys and tokens are refused.
import type { Router } from '@koa/router';
import { sessionOf, type AppContext, type AppState } from '../../http/context.ts';
import { PROBLEM_CONTENT_TYPE, problemFor } from '../../http/problem.ts';
import type { RouteEdge } from '../../http/route-edge.ts';
import { parseInput } from '../../shared/validation.ts';
import { presentSecondFactor, presentSession, presentSignedIn, presentUser, type WorkspaceJson } from './presenter.ts';
import type { EmailVerification } from './email-verification.ts';
import { registerEmailVerificationRoutes } from './email-verification-rest.ts';
import { registerPasskeyRoutes } from './passkey-rest.ts';
import type { Passkeys } from './passkeys.ts';
import type { PasswordResets } from './password-reset.ts';
import {
  changePasswordSchema,
  confirmSecondFactorSchema,
  passwordConfirmationSchema,
  passwordResetRequestSchema,
  passwordResetSchema,
  secondFactorSignInSchema,
  signInSchema,
  updateMeSchema,
} from './schemas.ts';
import type { SecondFactor, SignInOutcome } from './second-factor.ts';
import type { NewSession, SignedIn, SignInContext, UsersService } from './service.ts';

export interface UserRouteDeps {
  users: UsersService;
  secondFactor: SecondFactor;
  passwordResets: PasswordResets;
  passkeys: Passkeys;
  emailVerification: EmailVerification;
  /** The user's workspaces with their role (the workspaces module's, handed in). */
  workspacesOf: (userId: string) => Promise<WorkspaceJson[]>;
  /** How long a new session's cookie lives (SESSION_ABSOLUTE_DAYS). */
  sessionSeconds: number;
}

export function registerUserRoutes(router: Router<AppState>, deps: RouteEdge & UserRouteDeps): void {
  const {
    users,
    secondFactor,
    passwordResets,
    passkeys,
    emailVerification,
    workspacesOf,
    sessionSeconds,
    json,
    signedIn,
    sessionCookie,
    callerAddressHash,
  } = deps;
  const answer = async (signedIn: SignedIn, token: string) =>
    presentSignedIn(signedIn, token, await workspacesOf(signedIn.user.id));

  const signInContext = async (ctx: AppContext): Promise<SignInContext> => ({
    userAgent: ctx.get('User-Agent') || null,
    addressHash: await callerAddressHash(ctx.req.headers, ctx.req.socket.remoteAddress),
  });

  /** A new session: its cookie set, and the signed-in answer. */
  async function started(ctx: AppContext, session: NewSession): Promise<void> {
    sessionCookie.set(ctx, session.token, sessionSeconds);
    ctx.status = 201;
    ctx.body = await answer(session, session.token);
  }

  /** A session, or the 401 problem that hands out the challenge for the second factor's code. */
  async function signedInOrChallenged(ctx: AppContext, outcome: SignInOutcome): Promise<void> {
    if (outcome.kind === 'signed_in') return started(ctx, outcome.started);
    ctx.status = 401;
    ctx.type = PROBLEM_CONTENT_TYPE;
    ctx.set('WWW-Authenticate', 'Bearer realm="qr-service"');
    ctx.body = problemFor(
      'second_factor_required',
      'The password is right; now send a code of your authenticator app (or a recovery code) with this challenge ' +
        'to POST /v1/sessions/second-factor.',
      {
        challenge: outcome.challenge,
        challenge_expires_at: outcome.expiresAt.toISOString(),
        instance: ctx.path,
        request_id: ctx.state.requestId,
      },
    );
  }

  /** The session of the request (the middleware resolved it a moment ago). */
  async function current(ctx: AppContext): Promise<{ signedIn: SignedIn; token: string }> {
    const token = sessionCookie.read(ctx)!;
    const signedIn = await users.resolve(token);
    if (!signedIn) throw new Error('the session ended during the request');
    return { signedIn, token };
  }

  // POST /v1/sessions: sign in with email and password; a fresh session and cookie every time, or
  // a 401 with a challenge for the second factor's code
  router.post('/sessions', json, async (ctx) => {
    const input = parseInput(signInSchema, ctx.request.body);
    const context = await signInContext(ctx);
    const user = await users.checkPassword(input, context);
    await signedInOrChallenged(ctx, await secondFactor.signIn(user, context));
  });

  // POST /v1/sessions/second-factor: complete a challenged sign-in with a TOTP or recovery code
  router.post('/sessions/second-factor', json, async (ctx) => {
    const { challenge, code } = parseInput(secondFactorSignInSchema, ctx.request.body);
    await started(ctx, await secondFactor.completeSignIn(challenge, code, await signInContext(ctx)));
  });

  registerPasskeyRoutes(router, { passkeys, json, signedIn, signInContext, started });
  registerEmailVerificationRoutes(router, { emailVerification, json, signedIn, signInContext });

  // POST /v1/password-resets: mail a reset link to the user with this email, answering alike either way
  router.post('/password-resets', json, async (ctx) => {
    const { email } = parseInput(passwordResetRequestSchema, ctx.request.body);
    await passwordResets.request(email, await signInContext(ctx));
    ctx.status = 202;
    ctx.body = {
      object: 'password_reset_requested',
      detail: 'If a user has this email, a link to reset the password is on its way; it works once, for an hour.',
    };
  });

  // POST /v1/password-resets/complete: a new password with the link's token; every session ends, a new
  // one starts (or, with the second factor on, a challenge for its code)
  router.post('/password-resets/complete', json, async (ctx) => {
    const { token, password } = parseInput(passwordResetSchema, ctx.request.body);
    await signedInOrChallenged(ctx, await passwordResets.complete(token, password, await signInContext(ctx)));
  });

  // GET /v1/session: the current session, its user, their workspaces and the CSRF token
  router.get('/session', signedIn, async (ctx) => {
    const { signedIn: now, token } = await current(ctx);
    ctx.body = await answer(now, token);
  });

  // DELETE /v1/session: sign out (the session ends on every instance at once)
  router.delete('/session', signedIn, async (ctx) => {
    const { userId, sessionId } = sessionOf(ctx);
    await users.endSession(userId, sessionId);
    sessionCookie.clear(ctx);
    ctx.status = 204;
  });

  // GET /v1/sessions: the user's live sessions, the current one marked
  router.get('/sessions', signedIn, async (ctx) => {
    const { userId, sessionId } = sessionOf(ctx);
    const data = (await users.listSessions(userId)).map((s) => presentSession(s, sessionId));
    ctx.body = { object: 'list', data };
  });

  // DELETE /v1/sessions/:id: sign out one of the user's sessions (another device's, or this one)
  router.delete('/sessions/:id', signedIn, async (ctx) => {
    const { userId, sessionId } = sessionOf(ctx);
    await users.endSession(userId, ctx.params.id!);
    if (ctx.params.id === sessionId) sessionCookie.clear(ctx);
    ctx.status = 204;
  });

  // GET /v1/users/me: the signed-in user
  router.get('/users/me', signedIn, async (ctx) => {
    ctx.body = presentUser(await users.me(sessionOf(ctx).userId));
  });

  // PATCH /v1/users/me: change the display name
  router.patch('/users/me', signedIn, json, async (ctx) => {
    const input = parseInput(updateMeSchema, ctx.request.body);
    ctx.body = presentUser(await users.updateMe(sessionOf(ctx).userId, input));
  });

  // POST /v1/users/me/password: change the password (the current one first); every other session ends
  router.post('/users/me/password', signedIn, json, async (ctx) => {
    const { userId, sessionId } = sessionOf(ctx);
    await users.changePassword(userId, sessionId, parseInput(changePasswordSchema, ctx.request.body));
    ctx.status = 204;
  });

  // GET /v1/users/me/second-factor: whether the second factor is on, and the recovery codes left
  router.get('/users/me/second-factor', signedIn, async (ctx) => {
    ctx.body = presentSecondFactor(await secondFactor.status(sessionOf(ctx).userId));
  });

  // POST /v1/users/me/second-factor: a new secret to confirm (shown this once, with its URI and QR code)
  router.post('/users/me/second-factor', signedIn, async (ctx) => {
    const enrolment = await secondFactor.begin(sessionOf(ctx).userId);
    ctx.status = 201;
    ctx.body = {
      object: 'second_factor_enrolment',
      secret: enrolment.secret,
      otpauth_uri: enrolment.uri,
      qr_svg: enrolment.qrSvg,
    };
  });

  // POST /v1/users/me/second-factor/confirm: turn it on with a current code; the recovery codes, once
  router.post('/users/me/second-factor/confirm', signedIn, json, async (ctx) => {
    const { code } = parseInput(confirmSecondFactorSchema, ctx.request.body);
    ctx.body = { object: 'recovery_codes', codes: await secondFactor.confirm(sessionOf(ctx).userId, code) };
  });

  // POST /v1/users/me/second-factor/disable: turn it off (the password first)
  router.post('/users/me/second-factor/disable', signedIn, json, async (ctx) => {
    const { password } = parseInput(passwordConfirmationSchema, ctx.request.body);
    await secondFactor.disable(sessionOf(ctx).userId, password);
    ctx.status = 204;
  });

  // POST /v1/users/me/second-factor/recovery-codes: new recovery codes in place of the old (the password first)
  router.post('/users/me/second-factor/recovery-codes', signedIn, json, async (ctx) => {
    const { password } = parseInput(passwordConfirmationSchema, ctx.request.body);
    const codes = await secondFactor.regenerateRecoveryCodes(sessionOf(ctx).userId, password);
    ctx.status = 201;
    ctx.body = { object: 'recovery_codes', codes };
  });
}
