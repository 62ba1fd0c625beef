// The audit log's operation in the OpenAPI document: the same schemas that validate the query
// (schemas.ts) and shape the answer (presenter.ts).
import { z } from 'zod';
import { listOf, operation, type OpenApiModule } from '../../http/openapi/common.ts';
import { AUDIT_CSV_COLUMNS, auditEntryResourceSchema } from './presenter.ts';
import { listAuditSchema } from './schemas.ts';

const TAG = 'Audit log';

// One row as the export writes it: the summary is JSON text, quoted as CSV quotes it.
const EXAMPLE_SUMMARY = { changes: { destination: { old: 'https://example.com/a', new: 'https://example.com/b' } } };
const CSV_EXAMPLE = `${AUDIT_CSV_COLUMNS.join(',')}
${[
  'aud_3kQ9xT4pL0aZc7VbN8mD',
  '2026-04-01T09:15:02.000Z',
  'api_key',
  'key_8kD2mQ9xT4pL0aZc7VbN',
  '5e0c2b9f41d7a3e86b1c0f9d2a4e7b13',
  'code.updated',
  'code',
  'qr_4fT9kQ2mX8pL0aZc7VbN',
  `"${JSON.stringify(EXAMPLE_SUMMARY).replaceAll('"', '""')}"`,
].join(',')}
`;

export const auditOpenApi: OpenApiModule = {
  tag: {
    name: TAG,
    description:
      'Every change to the account’s codes, tags, domains, webhooks, API keys and OAuth clients, recorded in ' +
      'the change’s own transaction and never edited: when, who (API key, OAuth client or the CLI, with the ' +
      'address hashed), what, and a summary of the change. ' +
      'Kept for AUDIT_RETENTION_DAYS (365 by default).',
  },
  paths: {
    '/audit-log': {
      get: operation({
        operationId: 'listAuditLog',
        summary: 'The account’s audit log (JSON pages or CSV)',
        description:
          'Entries newest first, filtered by `action`, `object_type`, `object_id`, `actor_kind`, `actor_id` and ' +
          '`since` (inclusive) to `until` (exclusive). As JSON, one page of at most `limit` entries with ' +
          '`next_cursor`. With `format=csv`, every matching entry as one streamed CSV file (`limit` and `cursor` do ' +
          'not apply); text a spreadsheet would run as a formula gets a leading apostrophe.',
        tag: TAG,
        scope: 'audit:read',
        requestParams: { query: listAuditSchema },
        responses: {
          '200': {
            description: 'A page of entries (the default, `format=json`), or all of them as CSV (`format=csv`).',
            content: {
              'application/json': { schema: listOf(auditEntryResourceSchema, 'AuditEntryList') },
              'text/csv': {
                schema: z.string().meta({ description: 'A header row, then one entry per row.', example: CSV_EXAMPLE }),
              },
            },
            headers: z.object({
              'Content-Disposition': z.string().optional().meta({
                description: 'With `format=csv`: an attachment.',
                example: 'attachment; filename="audit-log.csv"',
              }),
              'Cache-Control': z
                .literal('private, no-store')
                .optional()
                .meta({ description: 'With `format=csv`: the export is not kept by caches.' }),
            }),
          },
        },
        problems: [422],
      }),
    },
  },
};
