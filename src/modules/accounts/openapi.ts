// The API key operations in the OpenAPI document: the same schemas that validate the requests
// (schemas.ts) and shape the answers (presenter.ts).
import { z } from 'zod';
import { jsonResponse, noContent, operation, pathParams, type OpenApiModule } from '../../http/openapi/common.ts';
import { apiKeyListSchema, apiKeyResourceSchema, apiKeyWithSecretSchema, rotatedApiKeySchema } from './presenter.ts';
import { createKeySchema, rotateKeySchema } from './schemas.ts';

const TAG = 'API keys';

const keyIdParams = pathParams({ id: { description: 'The key’s id.', example: 'key_2bN7xQ4mK9pL1vT5rW8z' } });

const createBody = createKeySchema.meta({
  id: 'CreateApiKey',
  example: { name: 'dashboard', scopes: ['codes:read', 'analytics:read'], expires_at: '2027-01-31T00:00:00Z' },
});
const rotateBody = rotateKeySchema.meta({ id: 'RotateApiKey', example: { grace_period_seconds: 3600 } });

const location = z.object({
  Location: z.string().meta({ description: 'The new key’s URL.', example: '/v1/api-keys/key_2bN7xQ4mK9pL1vT5rW8z' }),
});

export const accountsOpenApi: OpenApiModule = {
  tag: {
    name: TAG,
    description:
      'The account’s API keys, each with its own scopes and optional expiry: create (the secret is shown once), ' +
      'rotate with a grace period, revoke.',
  },
  paths: {
    '/api-keys': {
      post: operation({
        operationId: 'createApiKey',
        summary: 'Create an API key',
        description:
          'The answer carries the secret, shown only this once. A credential can grant only scopes it holds itself: ' +
          'asking for another is a 403 that names the missing scopes.',
        tag: TAG,
        scope: 'keys:manage',
        requestBody: { required: true, content: { 'application/json': { schema: createBody } } },
        responses: {
          '201': { ...jsonResponse(apiKeyWithSecretSchema, 'The new key, with its secret.'), headers: location },
        },
        problems: [422],
      }),
      get: operation({
        operationId: 'listApiKeys',
        summary: 'List API keys',
        description:
          'Every key of the account, newest first, with revoked and expired ones; metadata only, never a secret. ' +
          'Not paginated.',
        tag: TAG,
        scope: 'keys:manage',
        responses: { '200': jsonResponse(apiKeyListSchema, 'Every key of the account.') },
      }),
    },
    '/api-keys/{id}': {
      get: operation({
        operationId: 'getApiKey',
        summary: 'Get an API key',
        tag: TAG,
        scope: 'keys:manage',
        requestParams: { path: keyIdParams },
        responses: { '200': jsonResponse(apiKeyResourceSchema, 'The key’s metadata.') },
        problems: [404],
      }),
      delete: operation({
        operationId: 'revokeApiKey',
        summary: 'Revoke an API key',
        description:
          'At once in this process; other processes refuse the key once their cache entry ages out ' +
          '(API_KEY_CACHE_TTL_MS). The key stays listed as `revoked`. Revoking a revoked key is harmless.',
        tag: TAG,
        scope: 'keys:manage',
        requestParams: { path: keyIdParams },
        responses: { '204': noContent },
        problems: [404],
      }),
    },
    '/api-keys/{id}/rotate': {
      post: operation({
        operationId: 'rotateApiKey',
        summary: 'Rotate an API key',
        description:
          'A replacement key with the same name and scopes; its secret is shown only this once. The old key keeps ' +
          'working for the grace period (24 hours by default) and then expires. The body is optional: without ' +
          'one, the defaults apply. Only an active key that was not rotated before can be rotated (409 ' +
          'otherwise).',
        tag: TAG,
        scope: 'keys:manage',
        requestParams: { path: keyIdParams },
        requestBody: { required: false, content: { 'application/json': { schema: rotateBody } } },
        responses: {
          '201': {
            ...jsonResponse(rotatedApiKeySchema, 'The new key with its secret, and the old one.'),
            headers: location,
          },
        },
        problems: [404, 409, 422],
      }),
    },
  },
};
