// An account's own short domain, as the domain layer sees it.
import type { AppleAppSiteAssociation, Assetlinks, WellKnownBodies } from './well-known.ts';

export const DOMAIN_STATUSES = ['pending', 'verified'] as const;
export type DomainStatus = (typeof DOMAIN_STATUSES)[number];

export interface Domain {
  id: string;
  accountId: string;
  /** Lower case, IDNs as punycode; unique across accounts. */
  hostname: string;
  status: DomainStatus;
  /** The TXT record's value is `qr-verify=<token>`. */
  token: string;
  fallbackUrl: string | null;
  /** Served at /.well-known/apple-app-site-association once verified (well-known.ts), or null. */
  appleAppSiteAssociation: AppleAppSiteAssociation | null;
  /** Served at /.well-known/assetlinks.json once verified, or null. */
  assetlinks: Assetlinks | null;
  verifiedAt: Date | null;
  createdAt: Date;
}

/** The DNS record that proves control of a domain. */
export const verificationOf = (domain: Pick<Domain, 'hostname' | 'token'>) => ({
  type: 'dns_txt' as const,
  name: `_qr-verify.${domain.hostname}`,
  value: `qr-verify=${domain.token}`,
});

/** What the scan route needs of a verified domain. */
export interface VerifiedHost {
  fallbackUrl: string | null;
  /** The /.well-known/ files it serves, as their JSON bodies. */
  wellKnown: WellKnownBodies;
}
