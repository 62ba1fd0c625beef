// SQL for the domains table.
import type { Queryable } from '../../db/transaction.ts';
import { fromJson, fromMillis, fromMillisOrNull, toJson, toMillis } from '../../db/rows.ts';
import type { Domain, DomainStatus, VerifiedHost } from './model.ts';
import { wellKnownBodies, type AppleAppSiteAssociation, type Assetlinks } from './well-known.ts';

interface DomainRow {
  id: string;
  account_id: string;
  hostname: string;
  status: string;
  token: string;
  fallback_url: string | null;
  apple_app_site_association: string | null;
  assetlinks: string | null;
  verified_at: number | string | null;
  created_at: number | string;
}

function domainOf(row: DomainRow): Domain {
  return {
    id: row.id,
    accountId: row.account_id,
    hostname: row.hostname,
    status: row.status as DomainStatus,
    token: row.token,
    fallbackUrl: row.fallback_url,
    appleAppSiteAssociation: fromJson<AppleAppSiteAssociation>(row.apple_app_site_association ?? null),
    assetlinks: fromJson<Assetlinks>(row.assetlinks ?? null),
    verifiedAt: fromMillisOrNull(row.verified_at),
    createdAt: fromMillis(row.created_at),
  };
}

export function createDomainsStore(db: Queryable) {
  return {
    async insert(domain: Domain, q: Queryable = db): Promise<void> {
      await q('domains').insert({
        id: domain.id,
        account_id: domain.accountId,
        hostname: domain.hostname,
        status: domain.status,
        token: domain.token,
        fallback_url: domain.fallbackUrl,
        apple_app_site_association: domain.appleAppSiteAssociation && toJson(domain.appleAppSiteAssociation),
        assetlinks: domain.assetlinks && toJson(domain.assetlinks),
        verified_at: domain.verifiedAt && toMillis(domain.verifiedAt),
        created_at: toMillis(domain.createdAt),
      });
    },

    /** The account's domains, oldest first (an account has a few: DOMAINS_PER_ACCOUNT). */
    async list(accountId: string): Promise<Domain[]> {
      const rows: DomainRow[] = await db('domains')
        .where({ account_id: accountId })
        .orderBy([{ column: 'created_at' }, { column: 'id' }]);
      return rows.map(domainOf);
    },

    async count(accountId: string, q: Queryable = db): Promise<number> {
      const row = await q('domains').where({ account_id: accountId }).count({ n: '*' }).first();
      return Number(row?.n ?? 0);
    },

    async findById(accountId: string, id: string, q: Queryable = db): Promise<Domain | null> {
      const row: DomainRow | undefined = await q('domains').where({ account_id: accountId, id }).first();
      return row ? domainOf(row) : null;
    },

    /** Whoever's domain has this hostname. */
    async findByHostname(hostname: string, q: Queryable = db): Promise<Domain | null> {
      const row: DomainRow | undefined = await q('domains').where({ hostname }).first();
      return row ? domainOf(row) : null;
    },

    async update(
      id: string,
      changes: {
        status?: DomainStatus;
        verifiedAt?: Date;
        fallbackUrl?: string | null;
        appleAppSiteAssociation?: AppleAppSiteAssociation | null;
        assetlinks?: Assetlinks | null;
      },
      q: Queryable = db,
    ): Promise<void> {
      const row: Record<string, unknown> = {};
      if (changes.status !== undefined) row.status = changes.status;
      if (changes.verifiedAt !== undefined) row.verified_at = toMillis(changes.verifiedAt);
      if (changes.fallbackUrl !== undefined) row.fallback_url = changes.fallbackUrl;
      if (changes.appleAppSiteAssociation !== undefined)
        row.apple_app_site_association = changes.appleAppSiteAssociation && toJson(changes.appleAppSiteAssociation);
      if (changes.assetlinks !== undefined) row.assetlinks = changes.assetlinks && toJson(changes.assetlinks);
      if (Object.keys(row).length > 0) await q('domains').where({ id }).update(row);
    },

    async delete(id: string, q: Queryable = db): Promise<boolean> {
      return (await q('domains').where({ id }).delete()) > 0;
    },

    /** Every verified hostname, its fallback and its well-known files: what the scan route keeps in memory. */
    async verifiedHosts(): Promise<Map<string, VerifiedHost>> {
      const rows: DomainRow[] = await db('domains')
        .where({ status: 'verified' })
        .select('hostname', 'fallback_url', 'apple_app_site_association', 'assetlinks');
      return new Map(
        rows.map((row) => [
          row.hostname,
          {
            fallbackUrl: row.fallback_url,
            wellKnown: wellKnownBodies({
              appleAppSiteAssociation: fromJson(row.apple_app_site_association ?? null),
              assetlinks: fromJson(row.assetlinks ?? null),
            }),
          },
        ]),
      );
    },
  };
}

export type DomainsStore = ReturnType<typeof createDomainsStore>;
