// Signing in and a person's own things in the OpenAPI document: the same schemas that validate
// the requests (schemas.ts) and shape the answers (presenter.ts).
import { z } from 'zod';
import { jsonResponse, noContent, pathParams, personOperation, type OpenApiModule } from '../../http/openapi/common.ts';
import {
  recoveryCodesSchema,
  secondFactorEnrolmentSchema,
  secondFactorSchema,
  sessionListSchema,
  signedInSchema,
  userSchema,
} from './presenter.ts';
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
import { emailVerificationPaths } from './email-verification-openapi.ts';
import { passkeyPaths } from './passkey-openapi.ts';

const TAG = 'Sessions and users';

const setCookie = z.object({
  'Set-Cookie': z.string().meta({
    description: 'The session cookie: `qr_session=…; Max-Age=…; Path=/; HttpOnly; SameSite=Lax` (and `Secure`).',
  }),
});
const signedInAnswer = { ...jsonResponse(signedInSchema, 'Signed in; the cookie is set.'), headers: setCookie };
const signInBody = signInSchema.meta({
  id: 'SignIn',
  example: { email: 'ada@example.com', password: 'tangerine orbit canvas 42' },
});
const updateMeBody = updateMeSchema.meta({ id: 'UpdateMe', example: { display_name: 'Ada Lovelace' } });
const passwordBody = changePasswordSchema.meta({
  id: 'ChangePassword',
  example: { current_password: 'tangerine orbit canvas 42', new_password: 'violet harbour engine 77' },
});
const passwordConfirmationBody = passwordConfirmationSchema.meta({
  id: 'PasswordConfirmation',
  example: { password: 'tangerine orbit canvas 42' },
});
/** Said of both sign-in routes whose password may be followed by the second factor's code. */
const CHALLENGE =
  'With the second factor on, no session starts yet: a 401 `/problems/second-factor-required` hands out a ' +
  '`challenge` (5 minutes) to send with a code to POST /v1/sessions/second-factor.';
const sessionIdParams = pathParams({ id: { description: 'The session’s id.', example: 'sess_9fQ2mX7kL0pT4vR8wZ1b' } });

export const usersOpenApi: OpenApiModule = {
  tag: {
    name: TAG,
    description:
      'People sign in with email and password and get a session cookie (`qr_session`); a request signed in by ' +
      'cookie that changes something sends the session’s CSRF token as `X-CSRF-Token`. A person’s sessions, ' +
      'profile and password. API keys and access tokens cannot use these routes.',
  },
  paths: {
    ...passkeyPaths({ tag: TAG, signedIn: signedInAnswer, passwordBody: passwordConfirmationBody }),
    ...emailVerificationPaths(TAG),
    '/sessions': {
      post: personOperation({
        operationId: 'signIn',
        summary: 'Sign in',
        description:
          'A new session every time (a cookie sent along is ignored). An unknown email and a wrong password get ' +
          'the same 401. Attempts are limited per email and per address (SIGN_IN_ATTEMPTS_PER_MINUTE): 429 with ' +
          `Retry-After. ${CHALLENGE}`,
        tag: TAG,
        anonymous: true,
        requestBody: { required: true, content: { 'application/json': { schema: signInBody } } },
        responses: { '201': signedInAnswer },
        problems: [401, 422, 429],
      }),
      get: personOperation({
        operationId: 'listSessions',
        summary: 'List my sessions',
        tag: TAG,
        responses: { '200': jsonResponse(sessionListSchema, 'The live sessions, newest first.') },
      }),
    },
    '/password-resets': {
      post: personOperation({
        operationId: 'requestPasswordReset',
        summary: 'Mail a password reset link',
        description:
          'Answers 202 alike, at once, whether a user has the email or not; the link (single use, an hour) is ' +
          'mailed after the answer. Counts against the sign-in limits of the email and the address (429). 501 when ' +
          'the service sends no mail (SMTP_URL).',
        tag: TAG,
        anonymous: true,
        requestBody: {
          required: true,
          content: {
            'application/json': {
              schema: passwordResetRequestSchema.meta({
                id: 'PasswordResetRequest',
                example: { email: 'ada@example.com' },
              }),
            },
          },
        },
        responses: {
          '202': jsonResponse(
            z
              .object({ object: z.literal('password_reset_requested'), detail: z.string() })
              .meta({ id: 'PasswordResetRequested' }),
            'Requested; a link is mailed if a user has the email.',
          ),
        },
        problems: [422, 429, 501],
      }),
    },
    '/password-resets/complete': {
      post: personOperation({
        operationId: 'resetPassword',
        summary: 'Set a new password with a reset link',
        description:
          'Every session of the user ends and a new one starts (the cookie is set). 401 for an unknown, used or ' +
          `expired link; a weak password is a 422 that leaves the link usable. ${CHALLENGE}`,
        tag: TAG,
        anonymous: true,
        requestBody: {
          required: true,
          content: {
            'application/json': {
              schema: passwordResetSchema.meta({
                id: 'PasswordReset',
                example: { token: 'qrreset_…', password: 'violet harbour engine 77' },
              }),
            },
          },
        },
        responses: {
          '201': { ...jsonResponse(signedInSchema, 'The new password is set; signed in.'), headers: setCookie },
        },
        problems: [401, 422],
      }),
    },
    '/sessions/second-factor': {
      post: personOperation({
        operationId: 'signInSecondFactor',
        summary: 'Complete a sign-in with the second factor',
        description:
          'The challenge of the password step with a current code of the authenticator app (a code works once) or ' +
          'an unused recovery code (each works once). A wrong code is a 401 and counts against the sign-in limits ' +
          '(429); after 5 wrong codes, or 5 minutes, the challenge is gone and the password is needed again.',
        tag: TAG,
        anonymous: true,
        requestBody: {
          required: true,
          content: {
            'application/json': {
              schema: secondFactorSignInSchema.meta({
                id: 'SecondFactorSignIn',
                example: { challenge: 'qrmfa_…', code: '492039' },
              }),
            },
          },
        },
        responses: { '201': signedInAnswer },
        problems: [401, 422, 429],
      }),
    },
    '/users/me/second-factor': {
      get: personOperation({
        operationId: 'getMySecondFactor',
        summary: 'Get my second factor',
        tag: TAG,
        responses: { '200': jsonResponse(secondFactorSchema, 'Whether it is on, and the recovery codes left.') },
      }),
      post: personOperation({
        operationId: 'beginSecondFactor',
        summary: 'Set up a second factor',
        description:
          'A new TOTP secret, shown only in this answer, with its otpauth:// URI and QR code. It is not on until a ' +
          'code of it is confirmed; asking again replaces an unconfirmed one. 409 when it is on already.',
        tag: TAG,
        responses: { '201': jsonResponse(secondFactorEnrolmentSchema, 'The secret awaiting its first code.') },
        problems: [409],
      }),
    },
    '/users/me/second-factor/confirm': {
      post: personOperation({
        operationId: 'confirmSecondFactor',
        summary: 'Turn the second factor on',
        description:
          'A current code of the new secret turns it on and answers ten recovery codes, shown only now. A wrong code ' +
          'is a 422 that changes nothing; tries count against the sign-in limits (429).',
        tag: TAG,
        requestBody: {
          required: true,
          content: {
            'application/json': {
              schema: confirmSecondFactorSchema.meta({ id: 'ConfirmSecondFactor', example: { code: '492039' } }),
            },
          },
        },
        responses: { '200': jsonResponse(recoveryCodesSchema, 'On; the recovery codes.') },
        problems: [409, 422, 429],
      }),
    },
    '/users/me/second-factor/disable': {
      post: personOperation({
        operationId: 'disableSecondFactor',
        summary: 'Turn the second factor off',
        description: 'The password first (a wrong one is a 422). The secret and the recovery codes are deleted.',
        tag: TAG,
        requestBody: { required: true, content: { 'application/json': { schema: passwordConfirmationBody } } },
        responses: { '204': noContent },
        problems: [422, 429],
      }),
    },
    '/users/me/second-factor/recovery-codes': {
      post: personOperation({
        operationId: 'regenerateRecoveryCodes',
        summary: 'Renew my recovery codes',
        description: 'The password first; ten new codes, shown only now, and the old ones stop working.',
        tag: TAG,
        requestBody: { required: true, content: { 'application/json': { schema: passwordConfirmationBody } } },
        responses: { '201': jsonResponse(recoveryCodesSchema, 'The new recovery codes.') },
        problems: [409, 422, 429],
      }),
    },
    '/sessions/{id}': {
      delete: personOperation({
        operationId: 'revokeSession',
        summary: 'Sign out one of my sessions',
        description: 'Another device’s, or this one. It ends on every instance at once.',
        tag: TAG,
        requestParams: { path: sessionIdParams },
        responses: { '204': noContent },
        problems: [404],
      }),
    },
    '/session': {
      get: personOperation({
        operationId: 'getSession',
        summary: 'The current session',
        description: 'The user, their workspaces with the role in each, and the CSRF token.',
        tag: TAG,
        responses: { '200': jsonResponse(signedInSchema, 'The current session.') },
      }),
      delete: personOperation({
        operationId: 'signOut',
        summary: 'Sign out',
        tag: TAG,
        responses: { '204': { ...noContent, headers: setCookie } },
      }),
    },
    '/users/me': {
      get: personOperation({
        operationId: 'getMe',
        summary: 'Get my profile',
        tag: TAG,
        responses: { '200': jsonResponse(userSchema, 'The signed-in user.') },
      }),
      patch: personOperation({
        operationId: 'updateMe',
        summary: 'Change my display name',
        tag: TAG,
        requestBody: { required: true, content: { 'application/json': { schema: updateMeBody } } },
        responses: { '200': jsonResponse(userSchema, 'The user as changed.') },
        problems: [422],
      }),
    },
    '/users/me/password': {
      post: personOperation({
        operationId: 'changeMyPassword',
        summary: 'Change my password',
        description:
          'The current password first; the new one must be hard to guess (a 422 names the weakness). Every other ' +
          'session of the user ends.',
        tag: TAG,
        requestBody: { required: true, content: { 'application/json': { schema: passwordBody } } },
        responses: { '204': noContent },
        problems: [422],
      }),
    },
  },
};
