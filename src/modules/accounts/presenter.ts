// The public JSON of an API key. The secret is never part of it: it is shown once, beside the
// key, when the key is created or rotated. The zod schemas are the contract (they feed the
// OpenAPI document); the presenter's return type is inferred from them, so the two cannot drift.
import { z } from 'zod';
import { SCOPES } from '../../shared/principal.ts';
import { keyStatus } from './service.ts';
import type { ApiKeyRecord } from './store.ts';

const iso = (date: Date | null) => date?.toISOString() ?? null;
const instant = z.iso.datetime();

export const apiKeyResourceSchema = z
  .object({
    id: z.string().meta({ example: 'key_2bN7xQ4mK9pL1vT5rW8z' }),
    object: z.literal('api_key'),
    name: z.string().meta({ example: 'dashboard' }),
    prefix: z.string().meta({
      description: 'The start of the key, to tell keys apart; the rest is never shown again.',
      example: 'qrk_7Hx2Pq',
    }),
    scopes: z.array(z.enum(SCOPES)).meta({ example: ['codes:read', 'analytics:read'] }),
    status: z.enum(['active', 'expired', 'revoked']).meta({
      description:
        'A key works while active: until revoked or past `expires_at` (for a rotated key, its grace period’s end).',
    }),
    created_at: instant,
    last_used_at: instant.nullable().meta({ description: 'Updated at most once a minute.' }),
    expires_at: instant.nullable().meta({ description: 'Null: never expires.' }),
    revoked_at: instant.nullable(),
    replaced_by: z.string().nullable().meta({ description: 'The key that replaced this one in a rotation.' }),
    created_by: z
      .string()
      .nullable()
      .meta({
        description:
          'Who made it: a user (`user_…`; removing them from the workspace revokes it unless kept), a key, an OAuth ' +
          'client or `cli`; null for keys made before this was recorded.',
        example: 'user_4kT0Xb2Qm9LpV7sR1wZc',
      }),
  })
  .meta({
    id: 'ApiKey',
    description: 'An API key’s metadata; the secret itself is shown only when the key is created or rotated.',
  });
export type ApiKeyJson = z.output<typeof apiKeyResourceSchema>;

const secretField = z.string().meta({
  description: 'The secret: send it as `Authorization: Bearer …`. Shown only in this answer; only a hash is stored.',
  example: 'qrk_7Hx2Pq9LmV4tR8sK1wZ3yB6nD0fG5hJ2aC4eX7uQ',
});

export const apiKeyWithSecretSchema = apiKeyResourceSchema
  .extend({ key: secretField })
  .meta({ id: 'ApiKeyWithSecret', description: 'A new key with its secret, shown this once.' });

export const rotatedApiKeySchema = apiKeyResourceSchema
  .extend({
    key: secretField,
    previous: apiKeyResourceSchema,
  })
  .meta({
    id: 'RotatedApiKey',
    description:
      'The replacement key with its secret (shown this once), and in `previous` the key it replaces: its ' +
      '`replaced_by` names the new key and its `expires_at` is the end of its grace period.',
  });

/** Every key of the account; accounts have a handful, so the list is not paginated. */
export const apiKeyListSchema = z.object({ object: z.literal('list'), data: z.array(apiKeyResourceSchema) }).meta({
  id: 'ApiKeyList',
  description: 'Every key of the account, newest first, revoked and expired ones included. Not paginated.',
});

export function presentApiKey(key: ApiKeyRecord): ApiKeyJson {
  return {
    id: key.id,
    object: 'api_key',
    name: key.name,
    prefix: key.prefix,
    scopes: key.scopes,
    status: keyStatus(key),
    created_at: key.createdAt.toISOString(),
    last_used_at: iso(key.lastUsedAt),
    expires_at: iso(key.expiresAt),
    revoked_at: iso(key.revokedAt),
    replaced_by: key.replacedBy,
    created_by: key.createdBy,
  };
}
