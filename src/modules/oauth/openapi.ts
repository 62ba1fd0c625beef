// The OAuth client and grant operations in the OpenAPI document: the same schemas that validate the
// requests (schemas.ts) and shape the answers (presenter.ts). The authorization server itself
// (/oauth/*) is oidc-provider's and answers in OAuth's own formats: it is described by the
// OAuth2 security scheme and by its metadata (routes.ts), not as operations.
import { z } from 'zod';
import { jsonResponse, noContent, operation, pathParams, type OpenApiModule } from '../../http/openapi/common.ts';
import {
  oauthClientListSchema,
  oauthClientResourceSchema,
  oauthGrantListSchema,
  oauthGrantResourceSchema,
  registeredOAuthClientSchema,
} from './presenter.ts';
import { createClientSchema } from './schemas.ts';

const TAG = 'OAuth clients';

const grantIdParams = pathParams({
  id: { description: 'The grant’s id.', example: 'G7p2cVwq1yXr0mN4sLk8dT6fHbJz3aQe' },
});

const clientIdParams = pathParams({
  id: { description: 'The client’s id (its `client_id`).', example: 'client_9fK3mQ7xP2wL5vB8nT4r' },
});

const createBody = createClientSchema.meta({
  id: 'CreateOAuthClient',
  example: { name: 'reporting job', scopes: ['codes:read', 'analytics:read'], grant_types: ['client_credentials'] },
});

export const oauthOpenApi: OpenApiModule = {
  tag: {
    name: TAG,
    description:
      'Clients of this service’s OAuth 2.0 server (client credentials, or authorization code with consent), whose ' +
      'access tokens work like API keys limited to the client’s scopes; and the grants (consents) the account ' +
      'gave clients, which it can list and withdraw.',
  },
  paths: {
    '/oauth-clients': {
      post: operation({
        operationId: 'createOAuthClient',
        summary: 'Register an OAuth client',
        description:
          'The answer carries the client secret, shown only this once, and the issuer whose token endpoint the ' +
          'client uses. A client may hold only scopes the calling credential holds itself: asking for another is ' +
          'a 403 that names the missing scopes.\n\n' +
          ('A **public client** (`token_endpoint_auth_method: none`, RFC 7591) is an app that cannot keep a secret, ' +
            'such as a single-page app (the dashboard signs in with one, its redirect URI ' +
            '`{origin}/dashboard/oauth/callback`) or a native app: it gets no `client_secret`, may use only ' +
            '`authorization_code` (and `refresh_token`, rotated on every use), always with PKCE `S256`, and ' +
            'presents only its `client_id` to the token endpoint. Browser pages on the origin of one of its ' +
            'redirect URIs may call the token endpoint (CORS).'),
        tag: TAG,
        scope: 'keys:manage',
        requestBody: { required: true, content: { 'application/json': { schema: createBody } } },
        responses: {
          '201': {
            ...jsonResponse(registeredOAuthClientSchema, 'The new client, with its secret (none for a public client).'),
            headers: z.object({
              Location: z
                .string()
                .meta({ description: 'The client’s URL.', example: '/v1/oauth-clients/client_9fK3mQ7xP2wL5vB8nT4r' }),
            }),
          },
        },
        problems: [422],
      }),
      get: operation({
        operationId: 'listOAuthClients',
        summary: 'List OAuth clients',
        description: 'Every client of the account, newest first; never a secret. Not paginated.',
        tag: TAG,
        scope: 'keys:manage',
        responses: { '200': jsonResponse(oauthClientListSchema, 'Every client of the account.') },
      }),
    },
    '/oauth-clients/{id}': {
      get: operation({
        operationId: 'getOAuthClient',
        summary: 'Get an OAuth client',
        tag: TAG,
        scope: 'keys:manage',
        requestParams: { path: clientIdParams },
        responses: { '200': jsonResponse(oauthClientResourceSchema, 'The client.') },
        problems: [404],
      }),
      delete: operation({
        operationId: 'deleteOAuthClient',
        summary: 'Delete an OAuth client',
        description:
          'The token endpoint refuses the client at once; its access tokens stop working at once in this process ' +
          'and in others once their cache entry ages out (API_KEY_CACHE_TTL_MS).',
        tag: TAG,
        scope: 'keys:manage',
        requestParams: { path: clientIdParams },
        responses: { '204': noContent },
        problems: [404],
      }),
    },
    '/oauth-grants': {
      get: operation({
        operationId: 'listOAuthGrants',
        summary: 'List the grants the account gave',
        description:
          'Every live consent the account gave an OAuth client on the consent page (the authorization code flow), ' +
          'newest first, with the client, the scopes and the API key that approved it. Client-credentials ' +
          'clients act for their own account and have no grant. Not paginated.',
        tag: TAG,
        scope: 'keys:manage',
        responses: { '200': jsonResponse(oauthGrantListSchema, 'Every live grant of the account.') },
      }),
    },
    '/oauth-grants/{id}': {
      get: operation({
        operationId: 'getOAuthGrant',
        summary: 'Get a grant',
        tag: TAG,
        scope: 'keys:manage',
        requestParams: { path: grantIdParams },
        responses: { '200': jsonResponse(oauthGrantResourceSchema, 'The grant.') },
        problems: [404],
      }),
      delete: operation({
        operationId: 'revokeOAuthGrant',
        summary: 'Withdraw a grant',
        description:
          'The client loses the account at once: the grant’s refresh tokens and unused codes are deleted, and its ' +
          'access tokens are refused at once in this process and in others once their cache entry ages out ' +
          '(API_KEY_CACHE_TTL_MS). The client may ask for consent again. Revoking the API key that approved a ' +
          'grant withdraws it the same way.',
        tag: TAG,
        scope: 'keys:manage',
        requestParams: { path: grantIdParams },
        responses: { '204': noContent },
        problems: [404],
      }),
    },
  },
};
