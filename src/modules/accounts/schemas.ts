// Input schemas for API keys, shared by the REST routes and the CLI.
import { z } from 'zod';
import { SCOPES } from '../../shared/principal.ts';

/** How long a rotated key keeps working unless the rotation says otherwise. */
export const DEFAULT_ROTATION_GRACE_SECONDS = 24 * 3600;
export const MAX_ROTATION_GRACE_SECONDS = 7 * 24 * 3600;

export const scopesSchema = z
  .array(z.enum(SCOPES, { error: `must be one of ${SCOPES.join(', ')}` }), { error: 'must be an array of scopes' })
  .min(1, 'must name at least one scope')
  .transform((scopes) => [...new Set(scopes)]);

/** An instant in the future, as a Date; null means "never expires". */
const expiresAtSchema = z.iso
  .datetime({ offset: true, error: 'must be an ISO 8601 date-time such as 2027-01-31T00:00:00Z' })
  .transform((value) => new Date(value))
  .refine((date) => date.getTime() > Date.now(), 'must be in the future')
  .nullable();

export const createKeySchema = z.strictObject({
  name: z
    .string({ error: 'must be a string' })
    .trim()
    .min(1, 'must not be empty')
    .max(100, 'must be at most 100 characters')
    .meta({ example: 'dashboard' }),
  scopes: scopesSchema.meta({
    description: 'What the key may do; only scopes the calling credential holds itself.',
    example: ['codes:read', 'analytics:read'],
  }),
  expires_at: expiresAtSchema
    .optional()
    .meta({ description: 'A future instant; null or omitted: never expires.', example: '2027-01-31T00:00:00Z' }),
});
export type CreateKeyInput = z.output<typeof createKeySchema>;

export const rotateKeySchema = z.strictObject({
  /** How long the old key keeps working beside the new one; 0 retires it at once. */
  grace_period_seconds: z
    .number({ error: 'must be a number of seconds' })
    .int('must be a whole number of seconds')
    .min(0, 'must not be negative')
    .max(MAX_ROTATION_GRACE_SECONDS, `must be at most ${MAX_ROTATION_GRACE_SECONDS} (7 days)`)
    .default(DEFAULT_ROTATION_GRACE_SECONDS)
    .meta({
      description:
        `How long the old key keeps working beside the new one, up to ${MAX_ROTATION_GRACE_SECONDS} (7 ` +
        `days); 0 retires it at once.`,
    }),
  /** Expiry of the new key; omitted, it keeps the old key's. */
  expires_at: expiresAtSchema
    .optional()
    .meta({ description: 'Expiry of the new key (null: never); omitted, it keeps the old key’s.' }),
});
export type RotateKeyInput = z.output<typeof rotateKeySchema>;
