// Input schemas for domains, for REST and GraphQL alike.
import { z } from 'zod';
import { httpUrlSchema } from '../../shared/url.ts';
import { normalizeHostname } from './hostname.ts';
import { appleAppSiteAssociationSchema, assetlinksSchema } from './well-known.ts';

export const hostnameSchema = z
  .string({ error: 'must be a string' })
  .transform((value, ctx) => {
    const result = normalizeHostname(value);
    if ('hostname' in result) return result.hostname;
    ctx.addIssue({ code: 'custom', message: result.problem });
    return z.NEVER;
  })
  .meta({
    description:
      'A domain name you control, without scheme or port. Stored lower-cased, IDNs as punycode (`bücher.example` is ' +
      '`xn--bcher-kva.example`).',
    example: 'go.example.com',
  });

const fallbackUrlSchema = httpUrlSchema.nullable().meta({
  description:
    'Where the domain’s root (`/`) and its unknown slugs redirect (302); null answers them 404 as the service’s own ' +
    'domain does.',
  example: 'https://example.com/',
});

export const createDomainSchema = z.strictObject({
  hostname: hostnameSchema,
  fallback_url: fallbackUrlSchema.optional(),
  apple_app_site_association: appleAppSiteAssociationSchema.optional(),
  assetlinks: assetlinksSchema.optional(),
});
export type CreateDomainInput = z.output<typeof createDomainSchema>;

export const updateDomainSchema = z.strictObject({
  fallback_url: fallbackUrlSchema.optional(),
  apple_app_site_association: appleAppSiteAssociationSchema.optional(),
  assetlinks: assetlinksSchema.optional(),
});
export type UpdateDomainInput = z.output<typeof updateDomainSchema>;
