// The OpenAPI 3.1 document of one API version, generated from the zod schemas that validate
// requests and shape answers (one source of truth). Each module describes its own operations
// in its openapi.ts; this file adds what is common and assembles them.
import { createDocument, type ZodOpenApiPathsObject } from 'zod-openapi';
import { accountsOpenApi } from '../modules/accounts/openapi.ts';
import { auditOpenApi } from '../modules/audit/openapi.ts';
import { usersOpenApi } from '../modules/users/openapi.ts';
import { workspacesOpenApi } from '../modules/workspaces/openapi.ts';
import { analyticsOpenApi } from '../modules/analytics/openapi.ts';
import { bulkOpenApi } from '../modules/bulk/openapi.ts';
import { codesOpenApi } from '../modules/codes/openapi.ts';
import { domainsOpenApi } from '../modules/domains/openapi.ts';
import { imagesOpenApi, uploadedImagesOpenApi } from '../modules/images/openapi.ts';
import { importsOpenApi } from '../modules/imports/openapi.ts';
import { oauthOpenApi } from '../modules/oauth/openapi.ts';
import { routingOpenApi } from '../modules/routing/openapi.ts';
import { scansOpenApi } from '../modules/scans/openapi.ts';
import { tagsOpenApi } from '../modules/tags/openapi.ts';
import { utmTemplatesOpenApi } from '../modules/utm-templates/openapi.ts';
import { webhooksOpenApi } from '../modules/webhooks/openapi.ts';
import { SCOPES, type Scope } from '../shared/principal.ts';
import { CURRENT_API_VERSION, type ApiVersion } from '../http/versions.ts';
import type { OpenApiModule } from '../http/openapi/common.ts';
import { opsOpenApi } from '../http/openapi/ops.ts';

/** In the order the reference docs show them. */
const MODULES: readonly OpenApiModule[] = [
  codesOpenApi,
  tagsOpenApi,
  domainsOpenApi,
  utmTemplatesOpenApi,
  routingOpenApi,
  imagesOpenApi,
  uploadedImagesOpenApi,
  bulkOpenApi,
  importsOpenApi,
  analyticsOpenApi,
  webhooksOpenApi,
  accountsOpenApi,
  auditOpenApi,
  usersOpenApi,
  workspacesOpenApi,
  oauthOpenApi,
  scansOpenApi,
  opsOpenApi,
];

const SCOPE_DESCRIPTIONS: Readonly<Record<Scope, string>> = {
  'codes:read': 'Read codes, routing rules, images and domains; simulate routing.',
  'codes:write': 'Create, change and delete codes, routing rules and domains; bulk creation and imports.',
  'analytics:read': 'Scan analytics, raw scan records and the live scan stream.',
  'webhooks:read': 'Read webhook endpoints and their deliveries.',
  'webhooks:write': 'Create, change, test and delete webhook endpoints; retry deliveries.',
  'keys:manage': 'Manage API keys, OAuth clients and the grants the account gave clients.',
  'audit:read': 'Read the account’s audit log (who changed what, and when) and export it as CSV.',
};

const DESCRIPTION =
  `A self-hostable dynamic QR code service: codes with brand designs, routing of each scan by
country, device, time or language, privacy-preserving scan analytics, bulk creation of up to
10,000 codes, and signed webhooks. The same operations are on GraphQL at \`/graphql\`.

Errors are RFC 9457 problems (\`application/problem+json\`). Lists are \`{ object: "list", data }\`;
the paginated ones add \`next_cursor\` (pass it as \`cursor\`, with \`limit\`). ` +
  `Every API answer carries \`API-Version\` (the scan redirect, which browsers follow, does not);
authenticated answers carry \`RateLimit-Limit\`, \`RateLimit-Remaining\` and \`RateLimit-Reset\` (in points)
when the rate limit is on. Each answer declares these headers (components/headers).`;

function mergeInto(target: ZodOpenApiPathsObject, items: ZodOpenApiPathsObject): void {
  for (const [key, item] of Object.entries(items)) {
    if (target[key]) throw new Error(`OpenAPI ${key} is described twice`);
    target[key] = item;
  }
}

function build(version: ApiVersion) {
  const paths: ZodOpenApiPathsObject = {};
  const webhooks: ZodOpenApiPathsObject = {};
  for (const module of MODULES) {
    mergeInto(paths, module.paths);
    mergeInto(webhooks, module.webhooks ?? {});
  }
  const scopes = Object.fromEntries(SCOPES.map((scope) => [scope, SCOPE_DESCRIPTIONS[scope]]));
  return createDocument({
    openapi: '3.1.0',
    info: {
      title: 'QR code service API',
      version,
      description: DESCRIPTION,
      license: { name: 'MIT', identifier: 'MIT' },
    },
    servers: [
      {
        url: `/${version}`,
        description: version === CURRENT_API_VERSION ? 'This server, current version' : `This server, ${version}`,
      },
    ],
    tags: MODULES.map((module) => module.tag),
    paths,
    ...(Object.keys(webhooks).length > 0 ? { webhooks } : {}),
    components: {
      securitySchemes: {
        ApiKey: {
          type: 'http',
          scheme: 'bearer',
          bearerFormat: 'qrk_ followed by 40 characters',
          description: 'An API key (`npm run cli -- keys create` or POST /api-keys). Each key holds a set of scopes.',
        },
        Session: {
          type: 'apiKey',
          in: 'cookie',
          name: 'qr_session',
          description:
            'A person signed in (POST /sessions): the cookie `qr_session`, with the scopes of their role in the ' +
            'workspace the header `Qr-Workspace` names (else the latest used). A request that changes something ' +
            'must also send `X-CSRF-Token`. Used only without an Authorization header.',
        },
        OAuth2: {
          type: 'oauth2',
          description:
            'Access tokens from this service’s OAuth 2.0 server at /oauth (clients are registered with POST ' +
            '/oauth-clients; its metadata is at /oauth/.well-known/openid-configuration and, by RFC 8414, at ' +
            '/.well-known/oauth-authorization-server/oauth). A client credentials request asking for no scope the ' +
            'client is allowed gets invalid_scope; a client authenticates only with the method it registered.',
          flows: {
            clientCredentials: { tokenUrl: '/oauth/token', scopes },
            authorizationCode: {
              authorizationUrl: '/oauth/auth',
              tokenUrl: '/oauth/token',
              refreshUrl: '/oauth/token',
              scopes,
            },
          },
        },
      },
    },
  });
}

const documents = new Map<ApiVersion, ReturnType<typeof build>>();

/** The document of a version, built once per process. */
export function openApiDocument(version: ApiVersion = CURRENT_API_VERSION): ReturnType<typeof build> {
  let document = documents.get(version);
  if (!document) {
    document = build(version);
    documents.set(version, document);
  }
  return document;
}
