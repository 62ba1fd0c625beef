// Input schemas of the users module (sign-in, setup, profile, password), shared by REST and the CLI.
import { z } from 'zod';
import { MAX_PASSWORD_LENGTH, MIN_PASSWORD_LENGTH } from './password-policy.ts';

export const emailSchema = z
  .string({ error: 'must be a string' })
  .trim()
  .max(191, 'must be at most 191 characters')
  .pipe(z.email({ error: 'must be an email address' }))
  .meta({ example: 'ada@example.com' });

export const displayNameSchema = z
  .string({ error: 'must be a string' })
  .trim()
  .min(1, 'must not be empty')
  .max(100, 'must be at most 100 characters')
  .meta({ example: 'Ada Lovelace' });

/** A new password: its strength is checked by the service, which knows the user's email and name. */
export const newPasswordSchema = z
  .string({ error: 'must be a string' })
  .min(MIN_PASSWORD_LENGTH, `must be at least ${MIN_PASSWORD_LENGTH} characters`)
  .max(MAX_PASSWORD_LENGTH, `must be at most ${MAX_PASSWORD_LENGTH} characters`)
  .meta({
    description: 'At least 8 characters and hard to guess (zxcvbn score 3 of 4).',
    example: 'tangerine orbit canvas 42',
  });

/** A presented password: any length up to the maximum, so a wrong one is a 401, not a 422 that tells. */
const presentedPasswordSchema = z
  .string({ error: 'must be a string' })
  .min(1, 'must not be empty')
  .max(MAX_PASSWORD_LENGTH, `must be at most ${MAX_PASSWORD_LENGTH} characters`);

export const signInSchema = z.strictObject({
  email: z
    .string({ error: 'must be a string' })
    .trim()
    .min(1, 'must not be empty')
    .max(191)
    .meta({ example: 'ada@example.com' }),
  password: presentedPasswordSchema.meta({ example: 'tangerine orbit canvas 42' }),
});
export type SignInInput = z.output<typeof signInSchema>;

export const updateMeSchema = z.strictObject({ display_name: displayNameSchema });
export type UpdateMeInput = z.output<typeof updateMeSchema>;

export const changePasswordSchema = z.strictObject({
  current_password: presentedPasswordSchema,
  new_password: newPasswordSchema,
});
export type ChangePasswordInput = z.output<typeof changePasswordSchema>;

export const setupSchema = z.strictObject({
  token: z.string({ error: 'must be a string' }).min(1, 'must not be empty').max(200),
  email: emailSchema,
  display_name: displayNameSchema,
  password: newPasswordSchema,
  workspace_name: z
    .string({ error: 'must be a string' })
    .trim()
    .min(1, 'must not be empty')
    .max(191, 'must be at most 191 characters')
    .optional()
    .meta({
      description:
        'The new workspace’s name (default: the owner’s display name’s); ignored when the token names an account.',
    }),
});
export type SetupInput = z.output<typeof setupSchema>;

export const passwordResetRequestSchema = z.strictObject({ email: emailSchema });

export const passwordResetSchema = z.strictObject({
  token: z
    .string({ error: 'must be a string' })
    .min(1, 'must not be empty')
    .max(200)
    .meta({ description: 'The token of the mailed link.', example: 'qrreset_…' }),
  password: newPasswordSchema,
});

/** A code of the authenticator app (6 digits) or, at sign-in, a recovery code. */
const secondFactorCodeSchema = z
  .string({ error: 'must be a string' })
  .trim()
  .min(1, 'must not be empty')
  .max(64, 'must be at most 64 characters')
  .meta({ description: 'The 6 digits the authenticator app shows now.', example: '492039' });

export const confirmSecondFactorSchema = z.strictObject({ code: secondFactorCodeSchema });

export const secondFactorSignInSchema = z.strictObject({
  challenge: z
    .string({ error: 'must be a string' })
    .min(1, 'must not be empty')
    .max(200)
    .meta({ description: 'The `challenge` of the sign-in’s 401 second-factor-required problem.', example: 'qrmfa_…' }),
  code: secondFactorCodeSchema.meta({
    description: 'The 6 digits the authenticator app shows now, or one of the recovery codes (each works once).',
    example: '492039',
  }),
});

/** The password again, before turning the second factor off or renewing its recovery codes. */
export const passwordConfirmationSchema = z.strictObject({
  password: presentedPasswordSchema.meta({ example: 'tangerine orbit canvas 42' }),
});

export const emailVerificationConfirmSchema = z.strictObject({
  token: z
    .string({ error: 'must be a string' })
    .min(1, 'must not be empty')
    .max(200)
    .meta({ description: 'The token of the mailed link.', example: 'qrverify_…' }),
});
