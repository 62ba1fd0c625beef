// Input schemas for registering OAuth clients: confidential ones (a secret, presented with
// client_secret_basic or client_secret_post) and public ones (token_endpoint_auth_method "none",
// RFC 7591 §2): apps in a browser or on a device, which cannot keep a secret.
import { z } from 'zod';
import { scopesSchema } from '../accounts/index.ts';

export const GRANT_TYPES = ['client_credentials', 'authorization_code', 'refresh_token'] as const;
export type GrantType = (typeof GRANT_TYPES)[number];

export const AUTH_METHODS = ['client_secret_basic', 'client_secret_post', 'none'] as const;
export type AuthMethod = (typeof AUTH_METHODS)[number];
/** A public client: no secret, only the authorization code grant (with PKCE, always required here). */
export const PUBLIC_AUTH_METHOD = 'none' satisfies AuthMethod;

const LOOPBACK = new Set(['127.0.0.1', '[::1]', 'localhost']);

/** https, or http on a loopback address (native apps, RFC 8252 §7.3); never a fragment. */
const redirectUriSchema = z
  .string()
  .max(2000, 'must be at most 2000 characters')
  .refine((value) => {
    try {
      const url = new URL(value);
      if (url.hash || url.username || url.password) return false;
      return url.protocol === 'https:' || (url.protocol === 'http:' && LOOPBACK.has(url.hostname));
    } catch {
      return false;
    }
  }, 'must be an https:// URL (or http:// on 127.0.0.1, [::1] or localhost) without a fragment');

export const createClientSchema = z
  .strictObject({
    name: z
      .string({ error: 'must be a string' })
      .trim()
      .min(1, 'must not be empty')
      .max(100, 'must be at most 100 characters')
      .meta({ example: 'reporting job' }),
    /** Every token the client gets is limited to these. */
    scopes: scopesSchema.meta({
      description: 'Every token the client gets is limited to these; only scopes the calling credential holds itself.',
      example: ['codes:read'],
    }),
    grant_types: z
      .array(z.enum(GRANT_TYPES, { error: `must be one of ${GRANT_TYPES.join(', ')}` }), {
        error: 'must be an array of grant types',
      })
      .min(1, 'must name at least one grant type')
      .transform((types) => [...new Set(types)])
      .meta({ description: '`refresh_token` only beside `authorization_code`.', example: ['client_credentials'] }),
    redirect_uris: z
      .array(redirectUriSchema, { error: 'must be an array of URLs' })
      .max(10, 'must list at most 10 URIs')
      .default([])
      .meta({
        description:
          'Required (at least one) for the authorization_code grant and refused for the others: https://, or ' +
          'http:// on 127.0.0.1, [::1] or localhost (native apps), without a fragment.',
      }),
    token_endpoint_auth_method: z
      .enum(AUTH_METHODS, { error: `must be one of ${AUTH_METHODS.join(', ')}` })
      .default('client_secret_basic')
      .meta({
        description:
          'How the client presents its secret to the token endpoint; `none` registers a public client (an app in a ' +
          'browser or on a device, which cannot keep a secret): it gets no secret, may use only ' +
          '`authorization_code` (and `refresh_token`), always with PKCE S256, and names only its `client_id`.',
      }),
  })
  .superRefine((client, ctx) => {
    const code = client.grant_types.includes('authorization_code');
    if (code && client.redirect_uris.length === 0) {
      ctx.addIssue({
        code: 'custom',
        path: ['redirect_uris'],
        message: 'must list at least one URI for the authorization_code grant',
      });
    }
    if (!code && client.redirect_uris.length > 0) {
      ctx.addIssue({
        code: 'custom',
        path: ['redirect_uris'],
        message: 'are only used by the authorization_code grant',
      });
    }
    if (client.grant_types.includes('refresh_token') && !code) {
      ctx.addIssue({ code: 'custom', path: ['grant_types'], message: 'refresh_token goes with authorization_code' });
    }
    // Client credentials authenticate the client itself: a client without a secret cannot.
    if (client.token_endpoint_auth_method === PUBLIC_AUTH_METHOD && client.grant_types.includes('client_credentials')) {
      ctx.addIssue({
        code: 'custom',
        path: ['grant_types'],
        message:
          'client_credentials needs a client secret: a public client (token_endpoint_auth_method none) may use only ' +
          'authorization_code and refresh_token',
      });
    }
  });
export type CreateClientInput = z.output<typeof createClientSchema>;
