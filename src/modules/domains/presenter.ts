// The public JSON of a domain. The zod schema is the contract (it feeds the OpenAPI document).
import { z } from 'zod';
import { DOMAIN_STATUSES, verificationOf, type Domain } from './model.ts';

/** pending until its TXT record is verified (GraphQL's DomainStatus too). */
export const domainStatusSchema = z
  .enum(DOMAIN_STATUSES)
  .meta({ description: 'Codes may use a domain once it is verified.' });

export const domainResourceSchema = z
  .object({
    id: z.string().meta({ example: 'dom_4fT9kQ2mX8pL3aB7dE5g' }),
    object: z.literal('domain'),
    hostname: z.string().meta({ description: 'Lower case; IDNs as punycode.', example: 'go.example.com' }),
    status: domainStatusSchema,
    verification: z
      .object({
        type: z.literal('dns_txt'),
        name: z.string().meta({ example: '_qr-verify.go.example.com' }),
        value: z.string().meta({ example: 'qr-verify=8dK2pQ7wZ1xY4vB6nM0c3fT9kQ2mX8pL' }),
      })
      .meta({ description: 'The DNS TXT record that proves control: create it, then POST /domains/{id}/verify.' }),
    fallback_url: z.string().nullable().meta({
      description: 'Where the root and unknown slugs of the domain redirect; null: 404.',
      example: 'https://example.com/',
    }),
    apple_app_site_association: z
      .record(z.string(), z.unknown())
      .nullable()
      .meta({ description: 'Served at /.well-known/apple-app-site-association once verified; null: 404.' }),
    assetlinks: z
      .array(z.record(z.string(), z.unknown()))
      .nullable()
      .meta({ description: 'Served at /.well-known/assetlinks.json once verified; null: 404.' }),
    verified_at: z.iso.datetime().nullable(),
    created_at: z.iso.datetime(),
  })
  .meta({ id: 'Domain' });
export type DomainJson = z.output<typeof domainResourceSchema>;

export function presentDomain(domain: Domain): DomainJson {
  return {
    id: domain.id,
    object: 'domain',
    hostname: domain.hostname,
    status: domain.status,
    verification: verificationOf(domain),
    fallback_url: domain.fallbackUrl,
    apple_app_site_association: domain.appleAppSiteAssociation,
    assetlinks: domain.assetlinks,
    verified_at: domain.verifiedAt?.toISOString() ?? null,
    created_at: domain.createdAt.toISOString(),
  };
}
