// Wires the OAuth server together: the signing and cookie keys (keys.ts), the storage adapter,
// oidc-provider, the service that registers clients and verifies access tokens, and the
// account's grants.
import type { JWK } from 'jose';
import type { Knex } from 'knex';
import type { Logger } from 'pino';
import type { Config } from '../../config.ts';
import type { RecordAudit } from '../audit/index.ts';
import { createAdapterClass } from './payload-store.ts';
import { createGrantStore } from './grant-store.ts';
import { createGrantsService } from './grants.ts';
import { loadOAuthKeys } from './keys.ts';
import { createProvider } from './provider.ts';
import { createOAuthService } from './service.ts';
import { createOAuthStore } from './store.ts';

export type OAuthConfig = Pick<
  Config,
  'oauthIssuer' | 'oauthAccessTokenTtlMs' | 'oauthKeysFile' | 'apiKeyCacheTtlMs' | 'trustProxy'
>;

/** Told after a change other processes must see at once (the invalidation bus, in services.ts). */
export interface OAuthChangeHooks {
  onClientDeleted?: (clientId: string) => void;
  onGrantEnded?: (grantId: string) => void;
}

export async function createOAuth({
  db,
  config,
  logger,
  hooks = {},
  audit,
}: {
  db: Knex;
  /** Records client registrations and deletions and grants withdrawn in the audit log. */
  audit: RecordAudit;
  config: OAuthConfig;
  logger: Logger;
  hooks?: OAuthChangeHooks;
}) {
  const store = createOAuthStore(db);
  const keys = await loadOAuthKeys(
    config.oauthKeysFile,
    {
      take: async () => {
        const legacy = await store.legacyKeys();
        return legacy && { signing: legacy.signing as JWK, cookie: legacy.cookie };
      },
      forget: () => store.deleteLegacyKeys(),
    },
    logger,
  );
  const issuer = config.oauthIssuer;
  // The API is the one resource server: its origin identifies it, and is the tokens' audience.
  const resource = new URL(issuer).origin;
  const verificationKeys = keys.signing.map(({ d: _private, ...publicKey }) => publicKey as JWK);
  const grants = createGrantsService({
    db,
    audit,
    store: createGrantStore(db, resource),
    cacheTtlMs: config.apiKeyCacheTtlMs,
    onGrantEnded: hooks.onGrantEnded,
  });
  const service = createOAuthService({
    db,
    audit,
    store,
    issuer,
    resource,
    verificationKeys,
    cacheTtlMs: config.apiKeyCacheTtlMs,
    grantIsLive: grants.isLive,
    onClientDeleted: hooks.onClientDeleted,
  });
  const provider = createProvider({
    issuer,
    resource,
    accessTokenTtlSeconds: Math.round(config.oauthAccessTokenTtlMs / 1000),
    signingKeys: keys.signing,
    cookieKeys: keys.cookies,
    Adapter: createAdapterClass(db, (id) => service.clientMetadata(id), grants.ended),
    trustProxy: config.trustProxy,
    logger,
    introspect: service.introspect,
  });
  return { service, grants, server: { provider, issuer, resource } };
}
