// OAuth clients and the OAuth server's shared secrets. (The server's own records, codes,
// refresh tokens, grants and sessions, are in ./adapter.ts.)
import { type DbRow, fromJson, fromMillis, toJson, toMillis } from '../../db/rows.ts';
import type { Queryable } from '../../db/transaction.ts';
import { isScope, type Scope } from '../../shared/principal.ts';
import type { AuthMethod, GrantType } from './schemas.ts';

export interface OAuthClient {
  id: string;
  accountId: string;
  name: string;
  /** SHA-256 of the client secret, hex; the secret itself is never stored. Null for a public client. */
  secretHash: string | null;
  secretPrefix: string | null;
  scopes: Scope[];
  redirectUris: string[];
  grantTypes: GrantType[];
  /** `none`: a public client, which has no secret. */
  tokenEndpointAuthMethod: AuthMethod;
  createdAt: Date;
}

type Row = DbRow;

function toClient(row: Row): OAuthClient {
  return {
    id: row.id,
    accountId: row.account_id,
    name: row.name,
    secretHash: row.secret_hash || null,
    secretPrefix: row.secret_prefix || null,
    scopes: (fromJson<string[]>(row.scopes) ?? []).filter(isScope),
    redirectUris: fromJson<string[]>(row.redirect_uris) ?? [],
    grantTypes: (fromJson<string[]>(row.grant_types) ?? []) as GrantType[],
    tokenEndpointAuthMethod: row.token_endpoint_auth_method,
    createdAt: fromMillis(row.created_at),
  };
}

/** Where the keys were kept before OAUTH_KEYS_FILE (migration 20261122230300). */
const LEGACY_SIGNING_KEY = 'oauth-signing-key-1';
const LEGACY_COOKIE_KEY = 'oauth-cookie-key-1';

export function createOAuthStore(db: Queryable) {
  return {
    async insertClient(client: OAuthClient, q: Queryable = db): Promise<void> {
      await q('oauth_clients').insert({
        id: client.id,
        account_id: client.accountId,
        name: client.name,
        // The columns are NOT NULL: a public client stores '' (never a SHA-256, never a prefix).
        secret_hash: client.secretHash ?? '',
        secret_prefix: client.secretPrefix ?? '',
        scopes: toJson(client.scopes),
        redirect_uris: toJson(client.redirectUris),
        grant_types: toJson(client.grantTypes),
        token_endpoint_auth_method: client.tokenEndpointAuthMethod,
        created_at: toMillis(client.createdAt),
      });
    },

    /** Any account's client: the token endpoint knows the client, not yet the account. */
    async findClient(id: string): Promise<OAuthClient | null> {
      const row = await db('oauth_clients').where({ id }).first();
      return row ? toClient(row) : null;
    },

    async findAccountClient(accountId: string, id: string, q: Queryable = db): Promise<OAuthClient | null> {
      const row = await q('oauth_clients').where({ account_id: accountId, id }).first();
      return row ? toClient(row) : null;
    },

    async listClients(accountId: string): Promise<OAuthClient[]> {
      const rows = await db('oauth_clients')
        .where({ account_id: accountId })
        .orderBy([
          { column: 'created_at', order: 'desc' },
          { column: 'id', order: 'desc' },
        ]);
      return rows.map(toClient);
    },

    async deleteClient(accountId: string, id: string, q: Queryable = db): Promise<boolean> {
      return (await q('oauth_clients').where({ account_id: accountId, id }).delete()) > 0;
    },

    /** The keys versions before OAUTH_KEYS_FILE kept in the database, if any are left. */
    async legacyKeys(): Promise<{ signing: Record<string, unknown>; cookie: string } | null> {
      const rows: { id: string; value: string }[] = await db('oauth_secrets').whereIn('id', [
        LEGACY_SIGNING_KEY,
        LEGACY_COOKIE_KEY,
      ]);
      const value = (id: string) => rows.find((row) => row.id === id)?.value;
      const signing = value(LEGACY_SIGNING_KEY);
      const cookie = value(LEGACY_COOKIE_KEY);
      return signing && cookie ? { signing: JSON.parse(signing) as Record<string, unknown>, cookie } : null;
    },

    /** Deletes the database's copy of the keys once they are in the key file. */
    async deleteLegacyKeys(): Promise<void> {
      await db('oauth_secrets').whereIn('id', [LEGACY_SIGNING_KEY, LEGACY_COOKIE_KEY]).delete();
    },
  };
}

export type OAuthStore = ReturnType<typeof createOAuthStore>;
