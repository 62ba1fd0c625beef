// The public JSON of an OAuth client (its secret is shown only once, when registered) and of a
// grant. The zod
// schemas are the contract (they feed the OpenAPI document); the presenter's return type is
// inferred from them, so the two cannot drift apart.
import { z } from 'zod';
import { isScope, SCOPES } from '../../shared/principal.ts';
import type { OAuthGrant } from './grant-store.ts';
import { AUTH_METHODS, GRANT_TYPES } from './schemas.ts';
import type { OAuthClient } from './store.ts';

export const oauthClientResourceSchema = z
  .object({
    id: z.string().meta({ example: 'client_9fK3mQ7xP2wL5vB8nT4r' }),
    object: z.literal('oauth_client'),
    client_id: z.string().meta({
      description: 'The `client_id` to present to the token endpoint (the same as `id`).',
      example: 'client_9fK3mQ7xP2wL5vB8nT4r',
    }),
    name: z.string().meta({ example: 'reporting job' }),
    scopes: z
      .array(z.enum(SCOPES))
      .meta({ description: 'The most any token of this client can carry.', example: ['codes:read'] }),
    grant_types: z.array(z.enum(GRANT_TYPES)).meta({ example: ['client_credentials'] }),
    redirect_uris: z.array(z.string()).meta({ description: 'For the authorization_code grant; empty otherwise.' }),
    token_endpoint_auth_method: z
      .enum(AUTH_METHODS)
      .meta({ description: '`none` for a public client (no secret; authorization code with PKCE only).' }),
    secret_prefix: z
      .string()
      .nullable()
      .meta({
        description:
          'The start of the client secret, to tell secrets apart; the rest is never shown again. Null for a public ' +
          'client, which has no secret.',
        example: 'qrcs_4Hn8Rt',
      }),
    created_at: z.iso.datetime(),
  })
  .meta({
    id: 'OAuthClient',
    description: 'A client of this service’s OAuth 2.0 server, acting for the account that registered it.',
  });
export type OAuthClientJson = z.output<typeof oauthClientResourceSchema>;

export const registeredOAuthClientSchema = oauthClientResourceSchema
  .extend({
    client_secret: z
      .string()
      .optional()
      .meta({
        description:
          'The client secret. Shown only in this answer; only a hash is stored. Absent for a public client ' +
          '(`token_endpoint_auth_method` `none`), which has none (RFC 7591 §3.2.1).',
        example: 'qrcs_4Hn8Rt2Lq6Vx9Kb3Mz7Pw1Yc5Dg8Fj0Sa2Te4U',
      }),
    issuer: z.string().meta({
      description:
        'The OAuth server’s issuer: its metadata is at `{issuer}/.well-known/openid-configuration` (and, by RFC ' +
        '8414, at `/.well-known/oauth-authorization-server/oauth` on its origin), its token endpoint at ' +
        '`{issuer}/token`.',
      example: 'https://qr.example.com/oauth',
    }),
  })
  .meta({
    id: 'RegisteredOAuthClient',
    description:
      'A new client with its secret (if it is confidential), shown this once, and where its tokens come from.',
  });
export type RegisteredOAuthClientJson = z.output<typeof registeredOAuthClientSchema>;

/** Every client of the account; accounts have a handful, so the list is not paginated. */
export const oauthClientListSchema = z
  .object({ object: z.literal('list'), data: z.array(oauthClientResourceSchema) })
  .meta({ id: 'OAuthClientList', description: 'Every client of the account, newest first. Not paginated.' });

export function presentClient(client: OAuthClient): OAuthClientJson {
  return {
    id: client.id,
    object: 'oauth_client',
    client_id: client.id,
    name: client.name,
    scopes: client.scopes,
    grant_types: client.grantTypes,
    redirect_uris: client.redirectUris,
    token_endpoint_auth_method: client.tokenEndpointAuthMethod,
    secret_prefix: client.secretPrefix,
    created_at: client.createdAt.toISOString(),
  };
}

/** The answer to a registration: the client, its secret this once (none for a public client), the issuer. */
export function presentRegisteredClient(
  client: OAuthClient,
  secret: string | null,
  issuer: string,
): RegisteredOAuthClientJson {
  return { ...presentClient(client), ...(secret === null ? {} : { client_secret: secret }), issuer };
}

export const oauthGrantResourceSchema = z
  .object({
    id: z.string().meta({ example: 'G7p2cVwq1yXr0mN4sLk8dT6fHbJz3aQe' }),
    object: z.literal('oauth_grant'),
    client: z
      .object({ id: z.string(), name: z.string().nullable().meta({ description: 'Null once the client is deleted.' }) })
      .meta({
        description: 'The client the account consented to.',
        example: { id: 'client_9fK3mQ7xP2wL5vB8nT4r', name: 'reporting app' },
      }),
    scopes: z.array(z.enum(SCOPES)).meta({
      description: 'What the account granted; tokens carry at most these (and the client’s own scopes).',
      example: ['codes:read'],
    }),
    approved_by_key_id: z
      .string()
      .nullable()
      .meta({
        description:
          'The API key that approved the grant on the consent page. Revoking that key ends the grant; rotating it ' +
          'passes the grant to the replacement. Null for grants given before this was recorded.',
        example: 'key_3Jq8Wn5Zr1Vt7Lp2Xc9M',
      }),
    created_at: z.iso.datetime(),
    expires_at: z.iso
      .datetime()
      .nullable()
      .meta({ description: 'When the grant, and every refresh token under it, ends (14 days after consent).' }),
  })
  .meta({
    id: 'OAuthGrant',
    description:
      'The consent the account gave an OAuth client (authorization code flow): the client acts for the account with ' +
      'these scopes until the grant expires or is withdrawn.',
  });
export type OAuthGrantJson = z.output<typeof oauthGrantResourceSchema>;

export const oauthGrantListSchema = z
  .object({ object: z.literal('list'), data: z.array(oauthGrantResourceSchema) })
  .meta({ id: 'OAuthGrantList', description: 'Every live grant of the account, newest first. Not paginated.' });

export function presentGrant(grant: OAuthGrant, clientName: string | null): OAuthGrantJson {
  return {
    id: grant.id,
    object: 'oauth_grant',
    client: { id: grant.clientId, name: clientName },
    scopes: grant.scopes.filter(isScope),
    approved_by_key_id: grant.approvedByKeyId,
    created_at: grant.createdAt.toISOString(),
    expires_at: grant.expiresAt?.toISOString() ?? null,
  };
}
