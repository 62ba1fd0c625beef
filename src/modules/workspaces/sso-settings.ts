// A workspace's single sign-on settings, managed by its owners: the identity provider (issuer,
// client id and secret), the email domains it covers, and the role of people who join through
// it. Each change is written to the audit log, never the secret.
import type { Knex } from 'knex';
import { isUniqueViolation } from '../../db/dialect.ts';
import { inTransaction } from '../../db/transaction.ts';
import { DomainError, notFound, validationFailed } from '../../shared/errors.ts';
import { ROLE_RULES } from '../../shared/roles.ts';
import type { RecordAudit } from '../audit/index.ts';
import { urlProblems, type TargetPolicy } from '../webhooks/index.ts';
import type { Person } from './service.ts';
import type { PutSsoInput } from './sso-schemas.ts';
import type { SsoSettings, SsoStore } from './sso-store.ts';
import type { MembershipsStore } from './store.ts';

export function createSsoSettings(options: {
  db: Knex;
  store: SsoStore;
  memberships: MembershipsStore;
  audit: RecordAudit;
  /** Where an issuer may point (the SSRF rules of webhooks). */
  policy: TargetPolicy;
  now?: () => number;
}) {
  const { db, store, memberships, audit } = options;
  const now = () => new Date((options.now ?? Date.now)());

  /** Owners only: a 404 for a non-member (the workspace is never told to exist), a 403 for another role. */
  async function asOwner(person: Person, accountId: string): Promise<void> {
    const membership = await memberships.find(person.userId, accountId);
    if (!membership) throw notFound('workspace', accountId);
    if (!ROLE_RULES[membership.role].ownsWorkspace)
      throw new DomainError(
        'forbidden',
        `Only an owner can see or change single sign-on; you are its ${membership.role}.`,
      );
  }

  /** The audit summary: what an owner set, never the secret. */
  const summaryOf = (s: SsoSettings) => ({
    issuer: s.issuer,
    client_id: s.clientId,
    domains: s.domains,
    default_role: s.defaultRole,
    enabled: s.enabled,
  });

  return {
    /** The workspace's settings, or null when it has none. */
    async find(person: Person, accountId: string): Promise<SsoSettings | null> {
      await asOwner(person, accountId);
      return store.find(accountId);
    },

    /** Sets the settings whole; a domain another workspace covers is a 409. */
    async put(person: Person, accountId: string, input: PutSsoInput): Promise<SsoSettings> {
      await asOwner(person, accountId);
      const problems = urlProblems(input.issuer, options.policy).map((message) => ({ path: 'issuer', message }));
      if (problems.length > 0) throw validationFailed(problems);
      const before = await store.find(accountId);
      const clientSecret = input.client_secret ?? before?.clientSecret;
      if (!clientSecret) throw validationFailed([{ path: 'client_secret', message: 'is needed the first time' }]);
      const at = now();
      const settings: SsoSettings = {
        accountId,
        issuer: input.issuer,
        clientId: input.client_id,
        clientSecret,
        domains: [...new Set(input.domains)].sort(),
        defaultRole: input.default_role,
        enabled: input.enabled,
        createdAt: before?.createdAt ?? at,
        updatedAt: at,
      };
      await inTransaction(db, async (trx) => {
        await store.put(settings, trx);
        const summary = { ...summaryOf(settings), client_secret_changed: input.client_secret !== undefined };
        await audit(
          { accountId, actor: person.actor },
          { action: 'sso.configured', objectType: 'workspace', objectId: accountId, summary },
          trx,
        );
      }).catch(async (err: unknown) => {
        if (!isUniqueViolation(err)) throw err;
        const taken = await takenDomains(accountId, settings.domains);
        throw new DomainError(
          'conflict',
          `Another workspace's single sign-on covers ${taken.join(', ') || 'one of these domains'}; ` +
            'a domain belongs to one workspace at a time.',
        );
      });
      return settings;
    },

    /** Turns single sign-on off for good: the settings and their domains are deleted. */
    async remove(person: Person, accountId: string): Promise<void> {
      await asOwner(person, accountId);
      await inTransaction(db, async (trx) => {
        const before = await store.find(accountId, trx);
        if (!before || !(await store.remove(accountId, trx)))
          throw notFound('single sign-on settings of workspace', accountId);
        await audit(
          { accountId, actor: person.actor },
          { action: 'sso.removed', objectType: 'workspace', objectId: accountId, summary: summaryOf(before) },
          trx,
        );
      });
    },
  };

  /** Which of the domains another workspace's settings cover (for the 409's message). */
  async function takenDomains(accountId: string, domains: string[]): Promise<string[]> {
    const owners = await Promise.all(domains.map(async (d) => [d, await store.findByDomain(d)] as const));
    return owners.filter(([, s]) => s && s.accountId !== accountId).map(([d]) => d);
  }
}

export type SsoSettingsService = ReturnType<typeof createSsoSettings>;
