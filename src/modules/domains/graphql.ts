// GraphQL types, queries and mutations for accounts' own domains; the same service calls as REST.
import { builder } from '../../graphql/builder.ts';
import { enumOf } from '../../graphql/enums.ts';
import { snakeKeys } from '../../graphql/inputs.ts';
import { orNull } from '../../graphql/pages.ts';
import { scoped } from '../../graphql/scoped.ts';
import { zodInputType } from '../../graphql/zod-inputs.ts';
import { CodeRef } from '../codes/graphql.ts';
import { verificationOf, type Domain } from './model.ts';
import { domainStatusSchema } from './presenter.ts';
import { parseInput } from '../../shared/validation.ts';
import { createDomainSchema, updateDomainSchema } from './schemas.ts';
import type { DomainsService } from './service.ts';

// What this module's resolvers find in the context (graphql/context.ts explains the merging).
declare module '../../graphql/context.ts' {
  interface GraphQLServices {
    domains: DomainsService;
  }
}

type Verification = ReturnType<typeof verificationOf>;

const DomainStatus = enumOf('DomainStatus', domainStatusSchema);

const VerificationRef = builder.objectRef<Verification>('DomainVerification').implement({
  description: 'The DNS TXT record that proves control of the domain: create it, then verifyDomain.',
  fields: (t) => ({
    type: t.exposeString('type', { description: 'dns_txt' }),
    name: t.exposeString('name', { description: 'The record’s name, e.g. _qr-verify.go.example.com.' }),
    value: t.exposeString('value', { description: 'The record’s value, qr-verify=<token>.' }),
  }),
});

const DomainRef = builder.objectRef<Domain>('Domain').implement({
  description: 'A short domain of the account’s own: once verified, its codes scan at https://<hostname>/<slug>.',
  fields: (t) => ({
    id: t.exposeID('id'),
    hostname: t.exposeString('hostname', { description: 'Lower case; IDNs as punycode.' }),
    status: t.expose('status', {
      type: DomainStatus,
      description: 'pending or verified; codes may use a verified domain.',
    }),
    verification: t.field({ type: VerificationRef, resolve: (domain) => verificationOf(domain) }),
    fallbackUrl: t.exposeString('fallbackUrl', {
      nullable: true,
      description: 'Where the root and unknown slugs redirect; null: 404.',
    }),
    appleAppSiteAssociation: t.field({
      type: 'JSON',
      nullable: true,
      description: 'Served at /.well-known/apple-app-site-association once verified (iOS universal links); null: 404.',
      resolve: (domain) => domain.appleAppSiteAssociation,
    }),
    assetlinks: t.field({
      type: 'JSON',
      nullable: true,
      description: 'Served at /.well-known/assetlinks.json once verified (Android App Links); null: 404.',
      resolve: (domain) => domain.assetlinks,
    }),
    verifiedAt: t.field({ type: 'DateTime', nullable: true, resolve: (domain) => domain.verifiedAt }),
    createdAt: t.field({ type: 'DateTime', resolve: (domain) => domain.createdAt }),
  }),
});

builder.objectField(CodeRef, 'domain', (t) =>
  t.exposeString('domain', {
    nullable: true,
    description: 'The account’s own domain (hostname) the scan URL is on; null for the service’s own.',
  }),
);

/** The well-known files are JSON documents in their owners' shapes (Apple's and Google's keys), checked by zod. */
const WELL_KNOWN_INPUT_TYPES = { appleAppSiteAssociation: 'JSON', assetlinks: 'JSON' } as const;

const AddDomainInput = zodInputType('AddDomainInput', createDomainSchema, {
  types: WELL_KNOWN_INPUT_TYPES,
  descriptions: {
    hostname: 'A domain name you control, without scheme or port.',
    fallbackUrl: 'Where the root and unknown slugs redirect.',
  },
});

const UpdateDomainInput = zodInputType('UpdateDomainInput', updateDomainSchema, {
  types: WELL_KNOWN_INPUT_TYPES,
  descriptions: {
    fallbackUrl: 'A new fallback URL; null removes it (404).',
    appleAppSiteAssociation: 'The apple-app-site-association JSON; null removes it (404).',
    assetlinks: 'The assetlinks.json statements; null removes them (404).',
  },
});

const RemoveDomainPayload = builder.objectRef<{ deletedId: string }>('RemoveDomainPayload').implement({
  fields: (t) => ({ deletedId: t.exposeID('deletedId') }),
});

builder.queryFields((t) => ({
  domains: t.field({
    type: [DomainRef],
    description: 'The account’s domains, oldest first.',
    resolve: scoped('codes:read', (_root, _args, ctx) => ctx.services.domains.list(ctx.principal)),
  }),
  domain: t.field({
    type: DomainRef,
    nullable: true,
    args: { id: t.arg.id({ required: true }) },
    resolve: scoped('codes:read', (_root, { id }, ctx) => orNull(ctx.services.domains.get(ctx.principal, String(id)))),
  }),
}));

builder.mutationFields((t) => ({
  addDomain: t.field({
    type: DomainRef,
    description: 'Registers a hostname for the account, pending until verifyDomain finds its TXT record.',
    args: { input: t.arg({ type: AddDomainInput, required: true }) },
    resolve: scoped('codes:write', (_root, { input }, ctx) =>
      ctx.services.domains.add(ctx.principal, parseInput(createDomainSchema, snakeKeys(input))),
    ),
  }),
  verifyDomain: t.field({
    type: DomainRef,
    description:
      'Looks the TXT record up now: the domain verified, or a VALIDATION_FAILED error saying what was expected and ' +
      'found.',
    args: { id: t.arg.id({ required: true }) },
    resolve: scoped('codes:write', (_root, { id }, ctx) => ctx.services.domains.verify(ctx.principal, String(id))),
  }),
  updateDomain: t.field({
    type: DomainRef,
    args: { id: t.arg.id({ required: true }), input: t.arg({ type: UpdateDomainInput, required: true }) },
    // An explicit null means something here: remove the fallback URL.
    resolve: scoped('codes:write', (_root, { id, input }, ctx) =>
      ctx.services.domains.update(
        ctx.principal,
        String(id),
        parseInput(updateDomainSchema, snakeKeys(input, ['fallbackUrl', 'appleAppSiteAssociation', 'assetlinks'])),
      ),
    ),
  }),
  removeDomain: t.field({
    type: RemoveDomainPayload,
    description: 'Removes a domain no code uses (CONFLICT naming how many do).',
    args: { id: t.arg.id({ required: true }) },
    resolve: scoped('codes:write', async (_root, { id }, ctx) => {
      await ctx.services.domains.remove(ctx.principal, String(id));
      return { deletedId: String(id) };
    }),
  }),
}));
