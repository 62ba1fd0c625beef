// POST /imports in the OpenAPI document: the same schemas that validate the request
// (importBodySchema) and shape the answer (presenter.ts).
import { idempotencyKeyHeader, operation, type OpenApiModule } from '../../http/openapi/common.ts';
import { MAX_BULK_CODES } from '../bulk/index.ts';
import { importReportSchema } from './presenter.ts';
import { importBodySchema } from './schemas.ts';

const TAG = 'Imports';

const SHLINK_EXAMPLE = [
  'createdAt,domain,shortCode,shortUrl,longUrl,title,tags,visits',
  '2025-03-02T10:00:00+00:00,go.example.com,spring,https://go.example.com/spring,https://example.com/spring,Spring,' +
    'print|poster,1204',
  '',
].join('\n');

const importBody = importBodySchema.meta({
  id: 'ImportCodes',
  example: { format: 'shlink_csv', content: SHLINK_EXAMPLE, dry_run: true },
});

const REPORT_EXAMPLE = {
  object: 'import',
  format: 'shlink_csv',
  dry_run: true,
  batch_id: null,
  total: 2,
  would_create: 1,
  created: 0,
  existing: 0,
  failed: 1,
  rows: [
    {
      row: 2,
      status: 'would_create',
      domain: 'go.example.com',
      slug: 'spring',
      destination: 'https://example.com/spring',
      code_id: null,
      reason: null,
    },
    {
      row: 3,
      status: 'failed',
      domain: null,
      slug: 'summer',
      destination: 'https://example.com/summer',
      code_id: null,
      reason:
        "its domain 's.test' is not a verified domain of this account (add and verify it, or import with a domain " +
        'to put every link on)',
    },
  ],
};

export const importsOpenApi: OpenApiModule = {
  tag: {
    name: TAG,
    description: 'Moving in: the links of a Bitly, Shlink, YOURLS or Kutt export made into codes, slugs kept.',
  },
  paths: {
    '/imports': {
      post: operation({
        operationId: 'importCodes',
        summary: 'Import links exported from another service',
        description:
          'Reads an export of Bitly, Shlink, YOURLS or Kutt and makes each link a url code: its destination, its ' +
          'slug on the right domain (see `domain`), its title as the name, its tags, its creation date, and its ' +
          'scan total as `imported_scans` (history kept apart from the scans recorded here). Each link is checked ' +
          'as `POST /codes` would check it, and the answer reports every row: `would_create` (dry run), `created`, ' +
          '`exists` (the same slug on the same domain is already a code of this account: left as it is, so running ' +
          'an import twice creates nothing new) or `failed` with its `reason`. A real run creates every row it can, ' +
          'in one transaction through bulk creation (one `codes.bulk_created` webhook event); failed rows are only ' +
          `reported. At most ${MAX_BULK_CODES.toLocaleString('en')} links per call (413 beyond); the body may be as ` +
          'large as a bulk call’s (BULK_BODY_LIMIT) and counts against the bulk rate limit. A file that is not ' +
          'the named format (no CSV header with its columns, no JSON list of links) is a 422. Idempotency-Key ' +
          'is honoured.',
        tag: TAG,
        scope: 'codes:write',
        requestParams: { header: idempotencyKeyHeader },
        requestBody: { required: true, content: { 'application/json': { schema: importBody } } },
        responses: {
          '200': {
            description: 'A dry run, or a run that created nothing (every row exists or failed).',
            content: { 'application/json': { schema: importReportSchema, example: REPORT_EXAMPLE } },
          },
          '201': {
            description: 'Codes were created; the report lists every row.',
            content: { 'application/json': { schema: importReportSchema } },
          },
        },
        problems: [409, 422],
      }),
    },
  },
};
