// The passkey routes in the OpenAPI document, under the users module's tag (./openapi.ts).
import type { z } from 'zod';
import type { ZodOpenApiPathsObject, ZodOpenApiResponseObject } from 'zod-openapi';
import { jsonResponse, noContent, pathParams, personOperation } from '../../http/openapi/common.ts';
import {
  passkeyListSchema,
  passkeySchema,
  registrationOptionsSchema,
  signInOptionsSchema,
} from './passkey-presenter.ts';
import {
  passkeySignInOptionsSchema,
  passkeySignInSchema,
  registerPasskeySchema,
  renamePasskeySchema,
} from './passkey-schemas.ts';

const json = (schema: z.ZodType) => ({ required: true, content: { 'application/json': { schema } } });
const passkeyIdParams = pathParams({ id: { description: 'The passkey’s id.', example: 'pk_7Hq2mX7kL0pT4vR8wZ1b' } });

/** The passkey paths, with what the users module's document shares: its tag, sign-in answer and password body. */
export function passkeyPaths({
  tag,
  signedIn,
  passwordBody,
}: {
  tag: string;
  signedIn: ZodOpenApiResponseObject;
  passwordBody: z.ZodType;
}): ZodOpenApiPathsObject {
  return {
    '/sessions/passkey/options': {
      post: personOperation({
        operationId: 'passkeySignInOptions',
        summary: 'Start signing in with a passkey',
        description:
          'A challenge (single-use, 5 minutes) and the options to hand to `navigator.credentials.get()`. With an ' +
          '`email`, only that person’s passkeys are listed; an unknown email is answered as one without passkeys. ' +
          'Send `{}` to let the browser offer every passkey it has for this site.',
        tag,
        anonymous: true,
        requestBody: json(passkeySignInOptionsSchema.meta({ id: 'PasskeySignInOptionsRequest' })),
        responses: { '200': jsonResponse(signInOptionsSchema, 'The options of the sign-in.') },
        problems: [422],
      }),
    },
    '/sessions/passkey': {
      post: personOperation({
        operationId: 'signInWithPasskey',
        summary: 'Sign in with a passkey',
        description:
          'The device’s answer to the options. The same session as a password sign-in; a passkey, which verified ' +
          'its user, counts as both factors, so no second-factor code is asked. A replayed or expired challenge, ' +
          'another origin, an unknown passkey or a signature counter that went backwards is a 401. Attempts count ' +
          'against the same limits as passwords (SIGN_IN_ATTEMPTS_PER_MINUTE).',
        tag,
        anonymous: true,
        requestBody: json(passkeySignInSchema.meta({ id: 'PasskeySignIn' })),
        responses: { '201': signedIn },
        problems: [401, 422, 429],
      }),
    },
    '/users/me/passkeys': {
      get: personOperation({
        operationId: 'listMyPasskeys',
        summary: 'List my passkeys',
        tag,
        responses: { '200': jsonResponse(passkeyListSchema, 'The passkeys, oldest first.') },
      }),
      post: personOperation({
        operationId: 'registerPasskey',
        summary: 'Register a passkey',
        description:
          'A name and the answer of `navigator.credentials.create()` to the options of POST ' +
          '/v1/users/me/passkeys/options (a 409 when they expired or were used). The device must verify its user.',
        tag,
        requestBody: json(registerPasskeySchema.meta({ id: 'RegisterPasskey' })),
        responses: { '201': jsonResponse(passkeySchema, 'The passkey.') },
        problems: [409, 422],
      }),
    },
    '/users/me/passkeys/options': {
      post: personOperation({
        operationId: 'passkeyRegistrationOptions',
        summary: 'Start registering a passkey',
        description:
          'A challenge (single-use, 5 minutes) and the options to hand to `navigator.credentials.create()`: a ' +
          'discoverable credential with user verification, none of the user’s passkeys again.',
        tag,
        responses: { '200': jsonResponse(registrationOptionsSchema, 'The options of the registration.') },
      }),
    },
    '/users/me/passkeys/{id}': {
      patch: personOperation({
        operationId: 'renamePasskey',
        summary: 'Rename one of my passkeys',
        tag,
        requestParams: { path: passkeyIdParams },
        requestBody: json(renamePasskeySchema.meta({ id: 'RenamePasskey' })),
        responses: { '200': jsonResponse(passkeySchema, 'The passkey as renamed.') },
        problems: [404, 422],
      }),
    },
    '/users/me/passkeys/{id}/delete': {
      post: personOperation({
        operationId: 'deletePasskey',
        summary: 'Delete one of my passkeys',
        description: 'The password first (a wrong one is a 422), as for turning the second factor off.',
        tag,
        requestParams: { path: passkeyIdParams },
        requestBody: json(passwordBody),
        responses: { '204': noContent },
        problems: [404, 422, 429],
      }),
    },
  };
}
