// Input of a workspace's single sign-on settings and of the sign-in's start, shared by REST and
// GraphQL. The client secret is write-only: PUT without it keeps the one stored.
import { z } from 'zod';
import { emailSchema } from '../users/index.ts';

/** Roles a person can get by signing in for the first time: never owner. */
export const SSO_ROLES = ['admin', 'editor', 'viewer'] as const;
export const MAX_SSO_DOMAINS = 50;

// A host name of letters, digits and hyphens in dot-separated labels, at least two of them.
const DOMAIN = /^(?=.{1,191}$)([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/;

export const ssoDomainSchema = z
  .string({ error: 'must be a string' })
  .trim()
  .toLowerCase()
  .regex(DOMAIN, 'must be an email domain such as example.com');

export const putSsoSchema = z.strictObject({
  issuer: z
    .url({ protocol: /^https?$/, error: 'must be an absolute https:// URL' })
    .max(2048, 'must be at most 2048 characters')
    .meta({
      description: 'The identity provider’s issuer; its /.well-known/openid-configuration is read from there.',
      example: 'https://login.example.com/realms/staff',
    }),
  client_id: z
    .string({ error: 'must be a string' })
    .trim()
    .min(1, 'must not be empty')
    .max(255, 'must be at most 255 characters'),
  client_secret: z
    .string({ error: 'must be a string' })
    .min(1, 'must not be empty')
    .max(1024, 'must be at most 1024 characters')
    .optional()
    .meta({ description: 'Needed the first time; absent later: the stored one is kept. Never answered.' }),
  domains: z
    .array(ssoDomainSchema, { error: 'must be a list of email domains' })
    .min(1, 'must name at least one domain')
    .max(MAX_SSO_DOMAINS, `must name at most ${MAX_SSO_DOMAINS} domains`)
    .meta({ description: 'Email domains whose people sign in through this provider; each one workspace’s only.' }),
  default_role: z
    .enum(SSO_ROLES, { error: `must be one of ${SSO_ROLES.join(', ')}` })
    .meta({ description: 'The role of someone who joins by signing in for the first time (never owner).' }),
  enabled: z.boolean({ error: 'must be true or false' }),
});
export type PutSsoInput = z.output<typeof putSsoSchema>;

export const ssoStartSchema = z.strictObject({ email: emailSchema });
