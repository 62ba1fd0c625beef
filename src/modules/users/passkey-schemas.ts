// Input of the passkey routes. The WebAuthn responses are the browser's PublicKeyCredential as
// JSON (what `toJSON()` and @simplewebauthn/browser give): checked here for shape and size only;
// what they say is checked by the WebAuthn library.
import { z } from 'zod';

/** base64url, as WebAuthn's JSON encodes bytes; no field of a real response comes near the bound. */
const base64url = (max: number) =>
  z
    .string({ error: 'must be a string' })
    .min(1, 'must not be empty')
    .max(max, `must be at most ${max} characters`)
    .regex(/^[A-Za-z0-9_-]+={0,2}$/, 'must be base64url');

const credentialFields = {
  id: base64url(1400).meta({ description: 'The credential’s id, base64url.' }),
  rawId: base64url(1400),
  type: z.literal('public-key', { error: "must be 'public-key'" }),
  clientExtensionResults: z.looseObject({}).default({}),
  authenticatorAttachment: z.enum(['platform', 'cross-platform']).optional(),
};

export const registrationResponseSchema = z
  .looseObject({
    ...credentialFields,
    response: z.looseObject({
      clientDataJSON: base64url(4096),
      attestationObject: base64url(16_384),
      transports: z.array(z.string().max(32)).max(10).optional(),
    }),
  })
  .meta({
    id: 'PasskeyRegistrationResponse',
    description: 'The PublicKeyCredential of `navigator.credentials.create()`, as JSON.',
  });

export const authenticationResponseSchema = z
  .looseObject({
    ...credentialFields,
    response: z.looseObject({
      clientDataJSON: base64url(4096),
      authenticatorData: base64url(4096),
      signature: base64url(1024),
      userHandle: base64url(128).optional(),
    }),
  })
  .meta({
    id: 'PasskeyAuthenticationResponse',
    description: 'The PublicKeyCredential of `navigator.credentials.get()`, as JSON.',
  });

const passkeyNameSchema = z
  .string({ error: 'must be a string' })
  .trim()
  .min(1, 'must not be empty')
  .max(100, 'must be at most 100 characters')
  .meta({ description: 'What the person calls it, to tell their passkeys apart.', example: 'Laptop' });

export const registerPasskeySchema = z.strictObject({
  name: passkeyNameSchema,
  response: registrationResponseSchema,
});
export type RegisterPasskeyInput = z.output<typeof registerPasskeySchema>;

export const renamePasskeySchema = z.strictObject({ name: passkeyNameSchema });

export const passkeySignInOptionsSchema = z.strictObject({
  email: z.string({ error: 'must be a string' }).trim().min(1, 'must not be empty').max(191).optional().meta({
    description: 'Offer only this person’s passkeys; without it, the browser offers every passkey it has for the site.',
    example: 'ada@example.com',
  }),
});

export const passkeySignInSchema = z.strictObject({ response: authenticationResponseSchema });
