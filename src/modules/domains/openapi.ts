// The domains operations in the OpenAPI document: the same schemas that validate the requests
// (schemas.ts) and shape the answers (presenter.ts).
import { z } from 'zod';
import {
  jsonResponse,
  operation,
  pathParams,
  resourceOperations,
  type OpenApiModule,
} from '../../http/openapi/common.ts';
import { domainResourceSchema } from './presenter.ts';
import { createDomainSchema, updateDomainSchema } from './schemas.ts';
import { UNVERIFIED_HOLD_MS } from './service.ts';

const TAG = 'Domains';

const domainIdParams = pathParams({ id: { description: 'The domain’s id.', example: 'dom_4fT9kQ2mX8pL3aB7dE5g' } });

const domains = resourceOperations({
  tag: TAG,
  resource: domainResourceSchema,
  idParams: domainIdParams,
  read: 'codes:read',
  write: 'codes:write',
  create: {
    operationId: 'addDomain',
    summary: 'Register a domain',
    description:
      `The domain is \`pending\` until POST /domains/{id}/verify finds its TXT record ` +
      `(\`verification\`). A hostname is registered once across all accounts (409), except that one left ` +
      `unverified for ${UNVERIFIED_HOLD_MS / 86_400_000} days may be taken over by another account. Not an IP ` +
      `address, not the service’s own host. At most DOMAINS_PER_ACCOUNT (20 by default) per account.`,
    body: createDomainSchema.meta({
      id: 'CreateDomain',
      example: { hostname: 'go.example.com', fallback_url: 'https://example.com/' },
    }),
    location: z.object({
      Location: z.string().meta({ description: 'The domain’s URL.', example: '/v1/domains/dom_4fT9kQ2mX8pL3aB7dE5g' }),
    }),
    answered: 'The new domain, pending.',
    problems: [409, 422],
  },
  list: {
    operationId: 'listDomains',
    summary: 'List domains',
    description:
      'Every domain of the account, oldest first (there are at most DOMAINS_PER_ACCOUNT: `next_cursor` is always ' +
      'null).',
    listId: 'DomainList',
    answered: 'The account’s domains.',
    problems: [],
  },
  get: {
    operationId: 'getDomain',
    summary: 'Get a domain',
    description: 'With the TXT record that verifies it.',
    answered: 'The domain.',
    problems: [404],
  },
  update: {
    operationId: 'updateDomain',
    summary: 'Change a domain’s fallback URL or well-known files',
    description:
      'Where the domain’s root (`/`) and its unknown slugs redirect (302); null to answer them 404, as the ' +
      'service’s own domain does. `apple_app_site_association` and `assetlinks` are served at ' +
      '`/.well-known/apple-app-site-association` and `/.well-known/assetlinks.json` on the verified domain ' +
      '(iOS universal links, Android App Links); null removes one (404). A field left out keeps its value.',
    body: updateDomainSchema.meta({ id: 'UpdateDomain', example: { fallback_url: null } }),
    answered: 'The domain after the change.',
    problems: [404, 422],
  },
  remove: {
    operationId: 'removeDomain',
    summary: 'Remove a domain',
    description:
      'Only while no code uses it (409 naming how many do: move them to another domain or delete them first). Slugs ' +
      'once used on the hostname stay retired there, should it be registered again.',
    problems: [404, 409],
  },
});

export const domainsOpenApi: OpenApiModule = {
  tag: {
    name: TAG,
    description:
      'Short domains of the account’s own. Once verified (a DNS TXT record, or the operator’s `cli domains ' +
      'verify`), a url code may use one (`domain`): its scan URL is `https://<hostname>/<slug>`, and slugs are ' +
      'unique per domain. Point the domain’s DNS at this service (or the edge in front of it, which must pass ' +
      'the `Host` header through); TLS for it is the edge’s business.',
  },
  paths: {
    '/domains': domains.collection,
    '/domains/{id}': domains.item,
    '/domains/{id}/verify': {
      post: operation({
        operationId: 'verifyDomain',
        summary: 'Verify a domain now',
        description:
          'Looks up the TXT record `verification.name` through the server’s resolver and verifies the domain when ' +
          'one of its values is `verification.value`. A 422 says what was expected and what was found (DNS ' +
          'changes can take a while to appear). A verified domain answers as it is, without a lookup. No request ' +
          'body.',
        tag: TAG,
        scope: 'codes:write',
        requestParams: { path: domainIdParams },
        responses: { '200': jsonResponse(domainResourceSchema, 'The domain, verified.') },
        problems: [404, 422],
      }),
    },
  },
};
