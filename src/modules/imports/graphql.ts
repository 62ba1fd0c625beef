// importCodes: the GraphQL face of POST /v1/imports, through the same schema and service.
import { builder } from '../../graphql/builder.ts';
import { enumOf } from '../../graphql/enums.ts';
import { scoped } from '../../graphql/scoped.ts';
import { zodInputType } from '../../graphql/zod-inputs.ts';
import { parseInput } from '../../shared/validation.ts';
import { importBodySchema, importFormatSchema } from './schemas.ts';
import type { ImportOutcome, ImportReport, ImportsService, ImportStatus } from './service.ts';

declare module '../../graphql/context.ts' {
  interface GraphQLServices {
    imports: ImportsService;
  }
}

const ImportFormatEnum = enumOf('ImportFormat', importFormatSchema, 'The export formats an import reads.');
const ImportStatusEnum = builder.enumType('ImportRowStatus', {
  values: ['would_create', 'created', 'exists', 'failed'] as const satisfies readonly ImportStatus[],
  description:
    'would_create (dry run), created, exists (the same slug on the same domain is already a code of the account: ' +
    'left as it is), failed (see reason).',
});

const ImportCodesInput = zodInputType('ImportCodesInput', importBodySchema, {
  types: { format: ImportFormatEnum },
  zodDescriptions: false,
  descriptions: {
    content: 'The export file’s text.',
    dryRun: 'Report what would be created and every row that cannot be; write nothing. Default false.',
    domain:
      'Left out: each link keeps its short URL’s host (a verified domain of the account). A hostname: every link ' +
      'on that verified domain. null: every link on the service’s own domain.',
  },
});

const ImportRowRef = builder.objectRef<ImportOutcome>('ImportRow').implement({
  fields: (t) => ({
    row: t.exposeInt('row', {
      description: 'CSV: the row in the file, the header being row 1. JSON: the link’s place in the list, from 1.',
    }),
    status: t.field({ type: ImportStatusEnum, resolve: (r) => r.status }),
    domain: t.exposeString('domain', { nullable: true }),
    slug: t.exposeString('slug', { nullable: true }),
    destination: t.exposeString('destination', { nullable: true }),
    codeId: t.exposeID('codeId', { nullable: true }),
    reason: t.exposeString('reason', { nullable: true }),
  }),
});

const count = (report: ImportReport, status: ImportStatus) => report.rows.filter((r) => r.status === status).length;

const ImportReportRef = builder.objectRef<ImportReport>('ImportReport').implement({
  fields: (t) => ({
    format: t.field({ type: ImportFormatEnum, resolve: (r) => r.format }),
    dryRun: t.exposeBoolean('dryRun'),
    batchId: t.exposeID('batchId', { nullable: true }),
    total: t.int({ resolve: (r) => r.rows.length }),
    wouldCreate: t.int({ resolve: (r) => count(r, 'would_create') }),
    created: t.int({ resolve: (r) => count(r, 'created') }),
    existing: t.int({ resolve: (r) => count(r, 'exists') }),
    failed: t.int({ resolve: (r) => count(r, 'failed') }),
    rows: t.field({ type: [ImportRowRef], resolve: (r) => r.rows }),
  }),
});

builder.mutationFields((t) => ({
  importCodes: t.field({
    type: ImportReportRef,
    description:
      'POST /v1/imports: the links of a Bitly, Shlink, YOURLS or Kutt export made into codes, slugs kept; every row ' +
      'reported. A second run creates nothing new.',
    args: { input: t.arg({ type: ImportCodesInput, required: true }) },
    resolve: scoped('codes:write', (_root, { input }, ctx) =>
      ctx.services.imports.run(
        ctx.principal,
        parseInput(importBodySchema, {
          format: input.format,
          content: input.content,
          dry_run: input.dryRun ?? undefined,
          ...('domain' in input ? { domain: input.domain } : {}),
        }),
      ),
    ),
  }),
}));
