// Accounts' own short domains: register, verify (DNS TXT, or an operator through the CLI),
// set the fallback URL, remove. Codes use a verified domain of their account (codes/service.ts
// asks isVerified); the scan route reads the verified ones from memory (verified-hosts.ts).
import type { Knex } from 'knex';
import { isUniqueViolation } from '../../db/dialect.ts';
import { inTransaction } from '../../db/transaction.ts';
import { CLI_ACTOR } from '../../shared/actor.ts';
import type { AuditedCaller, RecordAudit } from '../audit/index.ts';
import { DomainError, notFound, validationFailed } from '../../shared/errors.ts';
import { newId, randomBase62 } from '../../shared/ids.ts';
import type { Principal } from '../../shared/principal.ts';
import type { Domain } from './model.ts';
import type { CreateDomainInput, UpdateDomainInput } from './schemas.ts';
import type { DomainsStore } from './store.ts';
import { normalizeHostname } from './hostname.ts';
import { checkTxtRecord, type ResolveTxt } from './verification.ts';

/**
 * A registration nobody verified for this long no longer holds its hostname: another account
 * adding it takes it over (someone who typed a domain that is not theirs cannot block its owner).
 */
export const UNVERIFIED_HOLD_MS = 7 * 86_400_000;

export interface DomainsServiceDeps {
  db: Knex;
  store: DomainsStore;
  resolveTxt: ResolveTxt;
  /** The service's own host (PUBLIC_BASE_URL's): never an account's domain. */
  ownHostname: string;
  maxPerAccount: number;
  /** How many codes (of the account) use the hostname: such a domain cannot be removed. */
  codesOnDomain: (accountId: string, hostname: string) => Promise<number>;
  /** After a committed change to a domain: the scan route's verified set is read again. */
  onDomainChanged: () => Promise<void>;
  /** Records the change in the audit log, in the change's transaction. */
  audit: RecordAudit;
}

const hostnameTaken = (hostname: string) =>
  new DomainError('conflict', `The domain '${hostname}' is already registered.`, [
    { path: 'hostname', message: 'is already registered' },
  ]);

export function createDomainsService({
  db,
  store,
  resolveTxt,
  ownHostname,
  maxPerAccount,
  codesOnDomain,
  onDomainChanged,
  audit,
}: DomainsServiceDeps) {
  /** The audit entry of a domain change, named by its hostname. */
  const domainChange = (
    action: 'domain.added' | 'domain.updated' | 'domain.verified' | 'domain.removed',
    domain: Domain,
    summary: Record<string, unknown> = {},
  ) => ({
    action,
    objectType: 'domain' as const,
    objectId: domain.id,
    summary: { hostname: domain.hostname, ...summary },
  });

  async function get(principal: Principal, id: string): Promise<Domain> {
    const domain = await store.findById(principal.accountId, id);
    if (!domain) throw notFound('domain', id);
    return domain;
  }

  async function markVerified(by: AuditedCaller, domain: Domain, how: 'dns' | 'operator'): Promise<Domain> {
    if (domain.status === 'verified') return domain;
    const verifiedAt = new Date();
    await inTransaction(db, async (trx) => {
      await store.update(domain.id, { status: 'verified', verifiedAt }, trx);
      await audit(by, domainChange('domain.verified', domain, { by: how }), trx);
    });
    await onDomainChanged();
    return { ...domain, status: 'verified', verifiedAt };
  }

  /** True when the hostname is a verified domain of the account (codes may use it). */
  async function isVerified(accountId: string, hostname: string): Promise<boolean> {
    const domain = await store.findByHostname(hostname);
    return domain !== null && domain.accountId === accountId && domain.status === 'verified';
  }

  return {
    /** Registers a hostname for the account, pending until verified. */
    async add(principal: Principal, body: CreateDomainInput): Promise<Domain> {
      if (body.hostname === ownHostname)
        throw validationFailed([{ path: 'hostname', message: 'is the service’s own domain' }]);
      const domain: Domain = {
        id: newId('dom'),
        accountId: principal.accountId,
        hostname: body.hostname,
        status: 'pending',
        token: randomBase62(32),
        fallbackUrl: body.fallback_url ?? null,
        appleAppSiteAssociation: body.apple_app_site_association ?? null,
        assetlinks: body.assetlinks ?? null,
        verifiedAt: null,
        createdAt: new Date(),
      };
      try {
        await inTransaction(db, async (trx) => {
          if ((await store.count(principal.accountId, trx)) >= maxPerAccount) {
            throw validationFailed([
              {
                path: 'hostname',
                message:
                  `the account has ${maxPerAccount} domains, the most it may have (DOMAINS_PER_ACCOUNT); ` +
                  `remove one first`,
              },
            ]);
          }
          const held = await store.findByHostname(domain.hostname, trx);
          if (held) {
            const stale =
              held.accountId !== principal.accountId &&
              held.status === 'pending' &&
              domain.createdAt.getTime() - held.createdAt.getTime() > UNVERIFIED_HOLD_MS;
            if (!stale) throw hostnameTaken(domain.hostname);
            await store.delete(held.id, trx);
          }
          await store.insert(domain, trx);
          await audit(principal, domainChange('domain.added', domain, { fallback_url: domain.fallbackUrl }), trx);
        });
      } catch (err) {
        // Two accounts adding one hostname at once: the unique key decides.
        if (isUniqueViolation(err)) throw hostnameTaken(domain.hostname);
        throw err;
      }
      return domain;
    },

    list: (principal: Principal) => store.list(principal.accountId),

    /** The caller's domain, or a 404 (also for another account's id). */
    get,

    /** Changes the fallback URL and the well-known files; a field left out keeps its value. */
    async update(principal: Principal, id: string, patch: UpdateDomainInput): Promise<Domain> {
      const domain = await get(principal, id);
      const changes = {
        fallbackUrl: patch.fallback_url,
        appleAppSiteAssociation: patch.apple_app_site_association,
        assetlinks: patch.assetlinks,
      };
      const given = Object.fromEntries(Object.entries(changes).filter(([, value]) => value !== undefined));
      if (Object.keys(given).length === 0) return domain;
      // The audit entry names each changed setting with its old and new value, in the API's names.
      const audited = {
        fallback_url: ['fallbackUrl', domain.fallbackUrl],
        apple_app_site_association: ['appleAppSiteAssociation', domain.appleAppSiteAssociation],
        assetlinks: ['assetlinks', domain.assetlinks],
      } as const;
      const changed = Object.fromEntries(
        Object.entries(audited)
          .filter(([, [key]]) => key in given)
          .map(([name, [key, old]]) => [name, { old, new: given[key] }]),
      );
      await inTransaction(db, async (trx) => {
        await store.update(domain.id, given, trx);
        await audit(principal, domainChange('domain.updated', domain, { changes: changed }), trx);
      });
      await onDomainChanged();
      return { ...domain, ...given };
    },

    /** Looks the TXT record up now: the domain verified, or a 422 saying what was expected and found. */
    async verify(principal: Principal, id: string): Promise<Domain> {
      const domain = await get(principal, id);
      if (domain.status === 'verified') return domain;
      const problem = await checkTxtRecord(resolveTxt, domain);
      if (problem) throw new DomainError('validation_failed', problem, [{ path: 'verification', message: problem }]);
      return markVerified(principal, domain, 'dns');
    },

    /** The operator's path (CLI `domains verify`): verified without a DNS lookup. */
    async verifyByOperator(hostname: string): Promise<Domain> {
      const domain = await store.findByHostname(hostname);
      if (!domain) throw new DomainError('not_found', `No account has registered the domain '${hostname}'.`);
      return markVerified({ accountId: domain.accountId, actor: CLI_ACTOR }, domain, 'operator');
    },

    /** Removes a domain no code uses (409 naming how many do). */
    async remove(principal: Principal, id: string): Promise<void> {
      const domain = await get(principal, id);
      const using = await codesOnDomain(principal.accountId, domain.hostname);
      if (using > 0) {
        throw new DomainError(
          'conflict',
          `${using} code${using === 1 ? ' uses' : 's use'} the domain '${domain.hostname}'; move or delete ` +
            `${using === 1 ? 'it' : 'them'} first.`,
          [{ path: 'id', message: `is used by ${using} code${using === 1 ? '' : 's'}` }],
        );
      }
      const deleted = await inTransaction(db, async (trx) => {
        if (!(await store.delete(domain.id, trx))) return false;
        await audit(principal, domainChange('domain.removed', domain), trx);
        return true;
      });
      if (!deleted) throw notFound('domain', id);
      await onDomainChanged();
    },

    isVerified,

    /**
     * The hostname a code may be given, as stored: the input normalized, when it is a verified
     * domain of the account; null otherwise (the codes module turns that into its 422).
     */
    async verifiedDomainOf(accountId: string, input: string): Promise<string | null> {
      const normal = normalizeHostname(input);
      return 'hostname' in normal && (await isVerified(accountId, normal.hostname)) ? normal.hostname : null;
    },
  };
}

export type DomainsService = ReturnType<typeof createDomainsService>;
