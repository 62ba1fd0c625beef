// The answer of POST /codes/bulk. The zod schema is the contract (it feeds the OpenAPI
// document); the presenter's return type is inferred from it, so the two cannot drift apart.
import { z } from 'zod';
import { stringifyInTurns } from '../../shared/turns.ts';
import { codeResourceSchema, presentCode } from '../codes/index.ts';
import type { BulkResult } from './service.ts';

export const bulkResultSchema = z
  .object({
    object: z.literal('bulk_result'),
    batch_id: z.string().meta({
      description:
        'The batch these codes belong to: `GET /batches/{batch_id}/images.zip` downloads all their images at once.',
      example: 'batch_7hQ2mX8pL4fT',
    }),
    created: z.int().meta({ description: 'How many codes were created: every one sent.', example: 2 }),
    data: z
      .array(codeResourceSchema)
      .meta({ description: 'The new codes, in the order they were sent (for CSV, row order).' }),
  })
  .meta({ id: 'BulkResult', description: 'Every code of a bulk call, created in one transaction.' });
export type BulkResultJson = z.output<typeof bulkResultSchema>;

/** The answer as JSON text, made in turns (shared/turns.ts): 10,000 codes are about 8 MB of it. */
export function bulkResultJson(result: BulkResult, publicBaseUrl: string): Promise<string> {
  const head: Omit<BulkResultJson, 'data'> = {
    object: 'bulk_result',
    batch_id: result.batchId,
    created: result.codes.length,
  };
  return stringifyInTurns(head, 'data', result.codes, (code) => presentCode(code, publicBaseUrl));
}
