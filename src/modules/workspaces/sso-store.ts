// Single sign-on's tables: a workspace's provider settings, the domains they cover, and the
// sign-ins under way. Only this store runs SQL on them.
import type { Queryable } from '../../db/transaction.ts';
import { type DbRow, fromMillis, toMillis } from '../../db/rows.ts';
import type { SSO_ROLES } from './sso-schemas.ts';

export type SsoRole = (typeof SSO_ROLES)[number];

export interface SsoSettings {
  accountId: string;
  issuer: string;
  clientId: string;
  clientSecret: string;
  domains: string[];
  defaultRole: SsoRole;
  enabled: boolean;
  createdAt: Date;
  updatedAt: Date;
}

export interface SsoAttempt {
  stateHash: string;
  accountId: string;
  codeVerifier: string;
  nonce: string;
  expiresAt: Date;
}

const toSettings = (row: DbRow, domains: string[]): SsoSettings => ({
  accountId: row.account_id,
  issuer: row.issuer,
  clientId: row.client_id,
  clientSecret: row.client_secret,
  domains,
  defaultRole: row.default_role,
  enabled: Boolean(row.enabled),
  createdAt: fromMillis(row.created_at),
  updatedAt: fromMillis(row.updated_at),
});

export function createSsoStore(db: Queryable) {
  async function find(accountId: string, q: Queryable = db): Promise<SsoSettings | null> {
    const row = await q('workspace_sso').where({ account_id: accountId }).first();
    if (!row) return null;
    const domains = await q('workspace_sso_domains').where({ account_id: accountId }).orderBy('domain');
    return toSettings(
      row,
      domains.map((d: DbRow) => d.domain),
    );
  }

  return {
    find,

    /** The settings that cover an email domain, whoever's they are. */
    async findByDomain(domain: string): Promise<SsoSettings | null> {
      const row = await db('workspace_sso_domains').where({ domain: domain.toLowerCase() }).first();
      return row ? find(row.account_id) : null;
    },

    /** Writes the settings whole; the domains are replaced (a domain another workspace holds: a unique violation). */
    async put(settings: SsoSettings, q: Queryable): Promise<void> {
      const row = {
        issuer: settings.issuer,
        client_id: settings.clientId,
        client_secret: settings.clientSecret,
        default_role: settings.defaultRole,
        enabled: settings.enabled,
        updated_at: toMillis(settings.updatedAt),
      };
      const updated = await q('workspace_sso').where({ account_id: settings.accountId }).update(row);
      if (updated === 0)
        await q('workspace_sso').insert({
          ...row,
          account_id: settings.accountId,
          created_at: toMillis(settings.createdAt),
        });
      await q('workspace_sso_domains').where({ account_id: settings.accountId }).delete();
      await q('workspace_sso_domains').insert(
        settings.domains.map((domain) => ({ domain, account_id: settings.accountId })),
      );
    },

    /** Removes the settings and their domains; false when there were none. */
    async remove(accountId: string, q: Queryable): Promise<boolean> {
      await q('workspace_sso_domains').where({ account_id: accountId }).delete();
      return (await q('workspace_sso').where({ account_id: accountId }).delete()) > 0;
    },

    async insertAttempt(attempt: SsoAttempt): Promise<void> {
      await db('sso_attempts').insert({
        state_hash: attempt.stateHash,
        account_id: attempt.accountId,
        code_verifier: attempt.codeVerifier,
        nonce: attempt.nonce,
        expires_at: toMillis(attempt.expiresAt),
      });
    },

    /** Takes an attempt: read and deleted at once, so that a state works once. Null when unknown. */
    async takeAttempt(stateHash: string, q: Queryable): Promise<SsoAttempt | null> {
      const row = await q('sso_attempts').where({ state_hash: stateHash }).first();
      if (!row) return null;
      if ((await q('sso_attempts').where({ state_hash: stateHash }).delete()) === 0) return null;
      return {
        stateHash,
        accountId: row.account_id,
        codeVerifier: row.code_verifier,
        nonce: row.nonce,
        expiresAt: fromMillis(row.expires_at),
      };
    },

    /** Forgets attempts past their expiry (abandoned sign-ins). */
    async purgeAttempts(before: Date): Promise<void> {
      await db('sso_attempts').where('expires_at', '<', toMillis(before)).delete();
    },
  };
}

export type SsoStore = ReturnType<typeof createSsoStore>;
