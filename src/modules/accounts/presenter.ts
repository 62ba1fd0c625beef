// The public JSON of an API key. The secret is never part of it: it is shown once, beside the
// key, when the key is created or rotated.
import { keyStatus } from './service.ts';
import type { ApiKeyRecord } from './store.ts';

const iso = (date: Date | null) => date?.toISOString() ?? null;

export function presentApiKey(key: ApiKeyRecord) {
  return {
    id: key.id,
    object: 'api_key' as const,
    name: key.name,
    prefix: key.prefix,
    scopes: key.scopes,
    status: keyStatus(key),
    created_at: key.createdAt.toISOString(),
    last_used_at: iso(key.lastUsedAt),
    expires_at: iso(key.expiresAt),
    revoked_at: iso(key.revokedAt),
    replaced_by: key.replacedBy,
  };
}
