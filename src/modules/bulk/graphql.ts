// bulkCreateCodes and bulkCreateCodesFromCsv: the GraphQL faces of POST /codes/bulk (JSON and
// CSV), through the same service and the same CSV reader.
import { Readable } from 'node:stream';
import { builder } from '../../graphql/builder.ts';
import { scoped } from '../../graphql/scoped.ts';
import { parseInput } from '../../shared/validation.ts';
import { CodeRef, CreateCodeInputRef, toCreateBody } from '../codes/graphql.ts';
import { readCsvCodes, withCsvRows } from './csv.ts';
import { bulkBodySchema, type BulkResult, type BulkService } from './service.ts';

declare module '../../graphql/context.ts' {
  interface GraphQLServices {
    bulk: BulkService;
  }
}

const BulkPayload = builder.objectRef<BulkResult>('BulkCreateCodesPayload').implement({
  fields: (t) => ({
    batchId: t.exposeID('batchId'),
    created: t.int({ resolve: (result) => result.codes.length }),
    codes: t.field({ type: [CodeRef], description: 'In input order.', resolve: (result) => result.codes }),
  }),
});

builder.mutationFields((t) => ({
  bulkCreateCodes: t.field({
    type: BulkPayload,
    description: 'Creates up to 10,000 codes atomically: all of them, or none when any is invalid.',
    args: { input: t.arg({ type: [CreateCodeInputRef], required: true }) },
    resolve: scoped('codes:write', (_root, { input }, ctx) =>
      ctx.services.bulk.create(ctx.principal, parseInput(bulkBodySchema, { codes: input.map(toCreateBody) })),
    ),
  }),
  bulkCreateCodesFromCsv: t.field({
    type: BulkPayload,
    description:
      'The CSV form of POST /v1/codes/bulk (header row, then one code per row): all codes or none. Errors name rows ' +
      "as 'row <n>.<column>', the header being row 1.",
    args: { csv: t.arg.string({ required: true }) },
    resolve: scoped('codes:write', async (_root, { csv }, ctx) => {
      // The request body, and so this string, is already within BULK_BODY_LIMIT.
      const body = await readCsvCodes(Readable.from([Buffer.from(csv, 'utf8')]), ctx.services.config.bulkBodyLimit);
      try {
        // The envelope is checked here; the items one by one by the service, each one's problems under its row.
        return await ctx.services.bulk.create(ctx.principal, parseInput(bulkBodySchema, body));
      } catch (err) {
        throw withCsvRows(err);
      }
    }),
  }),
}));
