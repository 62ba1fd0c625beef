// The public JSON of a workspace's single sign-on settings: everything but the client secret,
// of which only whether one is kept is said.
import { z } from 'zod';
import { SSO_ROLES } from './sso-schemas.ts';
import type { SsoSettings } from './sso-store.ts';

export const ssoSettingsSchema = z
  .object({
    object: z.literal('sso_settings'),
    workspace_id: z.string(),
    issuer: z.string().meta({ example: 'https://login.example.com/realms/staff' }),
    client_id: z.string(),
    client_secret_set: z.literal(true).meta({ description: 'A client secret is kept; it is never answered.' }),
    domains: z.array(z.string()).meta({ example: ['example.com'] }),
    default_role: z.enum(SSO_ROLES),
    enabled: z.boolean(),
    redirect_uri: z.string().meta({
      description: 'The redirect URI to register with the identity provider for this client.',
      example: 'https://qr.example.com/v1/sso/callback',
    }),
    created_at: z.iso.datetime(),
    updated_at: z.iso.datetime(),
  })
  .meta({ id: 'SsoSettings', description: 'A workspace’s single sign-on through an OpenID Connect provider.' });
export type SsoSettingsJson = z.output<typeof ssoSettingsSchema>;

export const presentSsoSettings = (s: SsoSettings, redirectUri: string): SsoSettingsJson => ({
  object: 'sso_settings',
  workspace_id: s.accountId,
  issuer: s.issuer,
  client_id: s.clientId,
  client_secret_set: true,
  domains: s.domains,
  default_role: s.defaultRole,
  enabled: s.enabled,
  redirect_uri: redirectUri,
  created_at: s.createdAt.toISOString(),
  updated_at: s.updatedAt.toISOString(),
});
