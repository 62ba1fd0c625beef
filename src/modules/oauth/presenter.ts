// The public JSON of an OAuth client. Its secret is shown only once, when registered.
import type { OAuthClient } from './store.ts';

export function presentClient(client: OAuthClient) {
  return {
    id: client.id,
    object: 'oauth_client' as const,
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
