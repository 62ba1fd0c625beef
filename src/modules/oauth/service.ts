// OAuth clients of an account, and the verification of the access tokens the OAuth server
// issues. Client management takes the caller's principal first and sees only its account.
import { hashToken } from '../../shared/token-hash.ts';
import type { JWK } from 'jose';
import { LRUCache } from 'lru-cache';
import type { AdapterPayload } from 'oidc-provider';
import type { Knex } from 'knex';
import { inTransaction } from '../../db/transaction.ts';
import { notFound } from '../../shared/errors.ts';
import type { RecordAudit } from '../audit/index.ts';
import { randomBase62 } from '../../shared/ids.ts';
import type { Principal } from '../../shared/principal.ts';
import { assertCanGrant } from '../accounts/index.ts';
import { createAccessTokenVerifier, introspectionOf } from './access-tokens.ts';
import { PUBLIC_AUTH_METHOD, type CreateClientInput } from './schemas.ts';
import type { OAuthClient, OAuthStore } from './store.ts';

/** Recognisable by secret scanners, like API keys' qrk_. */
export const CLIENT_SECRET_PREFIX = 'qrcs_';
const SECRET_LENGTH = 40;
const DISPLAY_PREFIX_LENGTH = CLIENT_SECRET_PREFIX.length + 6;

export interface ClientWithSecret {
  client: OAuthClient;
  /** Shown this once; null for a public client, which has none. */
  secret: string | null;
}

export interface OAuthServiceDeps {
  db: Knex;
  store: OAuthStore;
  /** Records client changes in the audit log, in the change's transaction. */
  audit: RecordAudit;
  issuer: string;
  resource: string;
  /** Public JWKs of every signing key in the key file: a token signed by any of them verifies. */
  verificationKeys: JWK[];
  /**
   * How long a client lookup is trusted; bounds how long a deleted client's tokens work elsewhere when no invalidation
   * arrives.
   */
  cacheTtlMs: number;
  /** Told after a client was deleted, so other processes drop it too. */
  onClientDeleted?: (clientId: string) => void;
  /** Whether the grant an access token was issued under still stands (grants.ts). */
  grantIsLive: (grantId: string) => Promise<boolean>;
}

export function createOAuthService({
  db,
  audit,
  store,
  issuer,
  resource,
  verificationKeys,
  cacheTtlMs,
  grantIsLive,
  onClientDeleted,
}: OAuthServiceDeps) {
  // Client id -> client (or null once known to be gone).
  const clients = new LRUCache<string, { client: OAuthClient | null }>({ max: 10_000, ttl: Math.max(cacheTtlMs, 1) });
  // Bumped by every drop: a lookup that read the database before a drop must not cache what it read.
  let generation = 0;

  async function cachedClient(id: string): Promise<OAuthClient | null> {
    const hit = clients.get(id);
    if (hit) return hit.client;
    const readAt = generation;
    const client = await store.findClient(id);
    if (readAt === generation) clients.set(id, { client });
    return client;
  }

  function forgetClient(id: string): void {
    generation++;
    clients.delete(id);
  }

  const verifyAccessToken = createAccessTokenVerifier({
    issuer,
    resource,
    verificationKeys,
    clientOf: cachedClient,
    grantIsLive,
  });

  async function find(principal: Principal, id: string): Promise<OAuthClient> {
    const client = await store.findAccountClient(principal.accountId, id);
    if (!client) throw notFound('OAuth client', id);
    return client;
  }

  return {
    /**
     * Registers a client of the caller's account, allowed at most the scopes the caller holds.
     * The client secret is shown once; only its SHA-256 is stored. A public client
     * (token_endpoint_auth_method none) gets no secret.
     */
    async register(principal: Principal, body: CreateClientInput): Promise<ClientWithSecret> {
      assertCanGrant(principal, body.scopes);
      const isPublic = body.token_endpoint_auth_method === PUBLIC_AUTH_METHOD;
      const secret = isPublic ? null : CLIENT_SECRET_PREFIX + randomBase62(SECRET_LENGTH);
      const client: OAuthClient = {
        id: `client_${randomBase62(20)}`,
        accountId: principal.accountId,
        name: body.name,
        secretHash: secret === null ? null : hashToken(secret),
        secretPrefix: secret === null ? null : secret.slice(0, DISPLAY_PREFIX_LENGTH),
        scopes: body.scopes,
        redirectUris: body.redirect_uris,
        grantTypes: body.grant_types,
        tokenEndpointAuthMethod: body.token_endpoint_auth_method,
        createdAt: new Date(),
      };
      await inTransaction(db, async (trx) => {
        await store.insertClient(client, trx);
        const summary = { name: client.name, scopes: client.scopes, redirect_uris: client.redirectUris };
        await audit(
          principal,
          { action: 'oauth_client.registered', objectType: 'oauth_client', objectId: client.id, summary },
          trx,
        );
      });
      return { client, secret };
    },

    /** The caller's clients, newest first. */
    async list(principal: Principal): Promise<OAuthClient[]> {
      return store.listClients(principal.accountId);
    },

    get: find,

    /** A client's name whatever its account (a grant's client is usually another account's), or null once deleted. */
    async clientName(id: string): Promise<string | null> {
      return (await cachedClient(id))?.name ?? null;
    },

    /**
     * Deletes a client: the token endpoint refuses it at once, and its access tokens stop working
     * in this process at once, in others once told (onClientDeleted) or at the latest within
     * API_KEY_CACHE_TTL_MS.
     */
    async remove(principal: Principal, id: string): Promise<void> {
      const deleted = await inTransaction(db, async (trx) => {
        const client = await store.findAccountClient(principal.accountId, id, trx);
        if (!client || !(await store.deleteClient(principal.accountId, id, trx))) return false;
        const summary = { name: client.name, scopes: client.scopes };
        await audit(
          principal,
          { action: 'oauth_client.deleted', objectType: 'oauth_client', objectId: id, summary },
          trx,
        );
        return true;
      });
      if (!deleted) throw notFound('OAuth client', id);
      forgetClient(id);
      onClientDeleted?.(id);
    },

    /** Another process deleted this client: drop it here. */
    forgetClient,

    /** Invalidations may have been missed (Redis was away): drop every cached client. */
    forgetAllClients(): void {
      generation++;
      clients.clear();
    },

    /**
     * The client as oidc-provider's metadata; the "secret" it compares is the hash. A public
     * client has none, and authenticates with `none` (its client_id only); PKCE is required of
     * every client (provider.ts).
     */
    async clientMetadata(id: string): Promise<AdapterPayload | undefined> {
      const client = await store.findClient(id);
      if (!client) return undefined;
      return {
        client_id: client.id,
        client_name: client.name,
        ...(client.secretHash === null ? {} : { client_secret: client.secretHash }),
        grant_types: client.grantTypes,
        response_types: client.grantTypes.includes('authorization_code') ? ['code'] : [],
        redirect_uris: client.redirectUris,
        token_endpoint_auth_method: client.tokenEndpointAuthMethod,
        allowed_scopes: client.scopes.join(' '),
      };
    },

    /** The principal of an access token (a JWT this server issued, still honoured: access-tokens.ts), or null. */
    async authenticate(token: string): Promise<Principal | null> {
      const verified = await verifyAccessToken(token);
      if (!verified) return null;
      const { accountId, client, scopes } = verified;
      return Object.freeze({ accountId, keyId: client.id, scopes: new Set(scopes) });
    },

    /**
     * An access token as introspection (RFC 7662) answers it to the client asking: active, with its claims, for the
     * client it was issued to while the API honours it; null (not active) otherwise.
     */
    async introspect(token: string, clientId: string): Promise<Record<string, unknown> | null> {
      const verified = await verifyAccessToken(token);
      return verified?.client.id === clientId ? introspectionOf(verified) : null;
    },
  };
}

export type OAuthService = ReturnType<typeof createOAuthService>;
