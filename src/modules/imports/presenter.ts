// The answer of POST /imports. The zod schema is the contract (it feeds the OpenAPI document);
// the presenter's return type is inferred from it, so the two cannot drift apart.
import { z } from 'zod';
import { IMPORT_FORMATS } from './model.ts';
import type { ImportReport, ImportStatus } from './service.ts';

const STATUSES = ['would_create', 'created', 'exists', 'failed'] as const satisfies readonly ImportStatus[];

export const importReportSchema = z
  .object({
    object: z.literal('import'),
    format: z.enum(IMPORT_FORMATS),
    dry_run: z.boolean(),
    batch_id: z.string().nullable().meta({
      description: 'The batch of the codes created (as a bulk call’s); null for a dry run or when none was created.',
      example: 'batch_7hQ2mX8pL4fT',
    }),
    total: z.int().meta({ description: 'Links in the export.', example: 3 }),
    would_create: z.int().meta({ description: 'Dry run: codes the import would create.', example: 0 }),
    created: z.int().meta({ description: 'Codes created by this call.', example: 2 }),
    existing: z.int().meta({
      description: 'Links already here (the same slug on the same domain in this account), left as they are.',
      example: 0,
    }),
    failed: z.int().meta({ description: 'Links that cannot be created; see their rows’ `reason`.', example: 1 }),
    rows: z.array(
      z.object({
        row: z.int().meta({
          description: 'CSV: the row in the file, the header being row 1. JSON: the link’s place in the list, from 1.',
        }),
        status: z.enum(STATUSES),
        domain: z.string().nullable().meta({ description: 'The own domain the code is on; null for the service’s.' }),
        slug: z.string().nullable(),
        destination: z.string().nullable(),
        code_id: z.string().nullable().meta({ description: 'The code created, or already here (`exists`).' }),
        reason: z.string().nullable().meta({ description: 'Why the link cannot be created (`failed` only).' }),
      }),
    ),
  })
  .meta({ id: 'ImportReport', description: 'What an import created, found already here, and could not create.' });
export type ImportReportJson = z.output<typeof importReportSchema>;

export function presentImportReport(report: ImportReport): ImportReportJson {
  const count = (status: ImportStatus) => report.rows.filter((r) => r.status === status).length;
  return {
    object: 'import',
    format: report.format,
    dry_run: report.dryRun,
    batch_id: report.batchId,
    total: report.rows.length,
    would_create: count('would_create'),
    created: count('created'),
    existing: count('exists'),
    failed: count('failed'),
    rows: report.rows.map((r) => ({
      row: r.row,
      status: r.status,
      domain: r.domain,
      slug: r.slug,
      destination: r.destination,
      code_id: r.codeId,
      reason: r.reason,
    })),
  };
}
