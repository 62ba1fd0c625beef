// Wires the OAuth server together: the shared signing and cookie keys, the storage adapter,
// oidc-provider, and the service that registers clients and verifies access tokens.
import { generateKeyPairSync, randomBytes } from 'node:crypto';
import type { Knex } from 'knex';
import type { Logger } from 'pino';
import type { Config } from '../../config.ts';
import { createAdapterClass } from './adapter.ts';
import { createProvider, SIGNING_ALG } from './provider.ts';
import { createOAuthService } from './service.ts';
import { createOAuthStore } from './store.ts';

export type OAuthConfig = Pick<Config, 'oauthIssuer' | 'oauthAccessTokenTtlMs' | 'apiKeyCacheTtlMs' | 'trustProxy'>;

function newSigningKey(): string {
  const { privateKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  return JSON.stringify({ ...privateKey.export({ format: 'jwk' }), kid: `es256-${randomBytes(6).toString('hex')}`, alg: SIGNING_ALG, use: 'sig' });
}

export async function createOAuth({ db, config, logger }: { db: Knex; config: OAuthConfig; logger: Logger }) {
  const store = createOAuthStore(db);
  // Made by the first process on a database and shared by all: tokens verify everywhere.
  const signingKey = JSON.parse(await store.secret('oauth-signing-key-1', newSigningKey)) as Record<string, string>;
  const cookieKey = await store.secret('oauth-cookie-key-1', () => randomBytes(32).toString('base64url'));
  const issuer = config.oauthIssuer;
  // The API is the one resource server: its origin identifies it, and is the tokens' audience.
  const resource = new URL(issuer).origin;
  const { d: _private, ...verificationKey } = signingKey;
  const service = createOAuthService({ store, issuer, resource, verificationKey, cacheTtlMs: config.apiKeyCacheTtlMs });
  const provider = createProvider({
    issuer,
    resource,
    accessTokenTtlSeconds: Math.round(config.oauthAccessTokenTtlMs / 1000),
    signingKey,
    cookieKey,
    Adapter: createAdapterClass(db, (id) => service.clientMetadata(id)),
    trustProxy: config.trustProxy,
    logger,
  });
  return { service, server: { provider, issuer, resource } };
}
