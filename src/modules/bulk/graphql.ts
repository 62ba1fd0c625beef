// bulkCreateCodes: the GraphQL face of POST /codes/bulk, through the same service.
import { builder } from '../../graphql/builder.ts';
import { scoped } from '../../graphql/scoped.ts';
import { CodeRef, CreateCodeInput, toCreateBody } from '../codes/graphql.ts';
import type { BulkResult } from './service.ts';

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
    args: { input: t.arg({ type: [CreateCodeInput], required: true }) },
    resolve: scoped('codes:write', (_root, { input }, ctx) => ctx.services.bulk.create(ctx.principal, { codes: input.map(toCreateBody) })),
  }),
}));
