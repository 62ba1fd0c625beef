// The bulk operations in the OpenAPI document: creating up to 10,000 codes in one call (JSON or
// CSV), and downloading a batch's images as one ZIP. The same schemas that validate the
// requests (bulkBodySchema, the images' query) and shape the answers (presenter.ts).
import { z } from 'zod';
import {
  idempotencyKeyHeader,
  operation,
  pathParams,
  problemSchema,
  type OpenApiModule,
} from '../../http/openapi/common.ts';
import { PROBLEM_CONTENT_TYPE } from '../../http/problem.ts';
import { createCodeBody } from '../codes/openapi.ts';
import { imageQuerySchema } from '../images/index.ts';
import { CSV_COLUMNS } from './csv.ts';
import { bulkResultSchema } from './presenter.ts';
import { bulkBodySchema, MAX_BULK_CODES } from './service.ts';

const TAG = 'Bulk';

const bulkJsonBody = bulkBodySchema
  .extend({
    codes: z
      // Each item is validated exactly like the body of POST /codes; the body schema itself takes
      // any items so that every invalid one is reported at once.
      .array(createCodeBody)
      .min(1)
      .max(MAX_BULK_CODES)
      .meta({ description: `1 to ${MAX_BULK_CODES.toLocaleString('en')} codes, each as POST /codes takes it.` }),
  })
  .meta({
    id: 'BulkCreateCodes',
    example: {
      codes: [
        { content: 'https://example.com/menu/table-1', design: { style: 'rounded', fg_color: '#1a73e8' } },
        { type: 'text', content: { text: 'Table 2' } },
      ],
    },
  });

const CSV_EXAMPLE = `type,content,fg_color,style
url,https://example.com/menu/table-1,#1a73e8,rounded
text,"{""text"":""Table 2""}",,
`;

const OPTIONAL_COLUMNS = CSV_COLUMNS.filter((c) => c !== 'content')
  .map((c) => `\`${c}\``)
  .join(', ');

const bulkCsvBody = z.string().meta({
  description:
    'UTF-8 CSV. The first row is a header naming the columns (matched case-insensitively, in any order): ' +
    `\`content\`, and any of ${OPTIONAL_COLUMNS}. Each further row is one code: an empty cell is not set ` +
    '(`type` defaults to url), and a static type\'s `content` is its JSON object, e.g. `{"text":"hello"}`. ' +
    "`tags` holds tag names separated by `|` (`print|spring`), created on the fly like a code's `tags`. " +
    'Quoted fields may hold commas, quotes and line breaks.',
  example: CSV_EXAMPLE,
});

const MAX_CODES = MAX_BULK_CODES.toLocaleString('en');

const batchParams = pathParams({
  batch_id: { description: 'The `batch_id` of a bulk call’s answer.', example: 'batch_7hQ2mX8pL4fT' },
});

export const bulkOpenApi: OpenApiModule = {
  tag: {
    name: TAG,
    description:
      'Bulk creation of up to 10,000 codes in one atomic call, from JSON or CSV, and each batch’s images as one ZIP ' +
      'for a print run.',
  },
  paths: {
    '/codes/bulk': {
      post: operation({
        operationId: 'bulkCreateCodes',
        summary: 'Create many codes at once',
        description:
          `Creates 1 to ${MAX_CODES} codes in one transaction: all of them, or none when any is invalid. ` +
          'Every item is validated like the body of `POST /codes`, and a 422 lists every problem of every item ' +
          'at once (at most 1,000, the `detail` says how many there were in all), each `path` naming its item: ' +
          '`codes.<index>.<field>` for JSON (index from 0), `row <n>.<column>` for CSV (the header being row 1, ' +
          'so the first code is row 2).\n\n' +
          'The body is JSON (`{ "codes": [...] }`) or CSV (`Content-Type: text/csv`, UTF-8, uncompressed). ' +
          `It may be larger than other bodies (BULK_BODY_LIMIT, 16 MiB by default), and more than ${MAX_CODES} ` +
          "codes is a 413 too. Each call counts against the key's rate limit and also against the lower limit " +
          'of bulk calls per minute (BULK_RATE_LIMIT_PER_MINUTE, 30 by default); past either, a 429. Bulk ' +
          "imports take turns with the account's other expensive calls (HEAVY_CALLS_PER_ACCOUNT at once, " +
          'HEAVY_QUEUE_PER_ACCOUNT waiting); past those too, a 429 that creates nothing. ' +
          'Idempotency-Key is honoured.',
        tag: TAG,
        scope: 'codes:write',
        requestParams: { header: idempotencyKeyHeader },
        requestBody: {
          required: true,
          content: {
            'application/json': { schema: bulkJsonBody },
            'text/csv': { schema: bulkCsvBody },
          },
        },
        responses: {
          '201': {
            description: 'Every code was created, in the order sent.',
            content: {
              'application/json': {
                schema: bulkResultSchema,
                examples: {
                  created: {
                    summary: 'One code created',
                    value: {
                      object: 'bulk_result',
                      batch_id: 'batch_7hQ2mX8pL4fT',
                      created: 1,
                      data: [
                        {
                          id: 'qr_4fT9kQ2mX8pL',
                          object: 'code',
                          type: 'url',
                          content: 'https://example.com/menu/table-1',
                          payload: 'https://qr.example.com/aB3dE5f',
                          tags: ['menu'],
                          design: {
                            fg_color: '#1a73e8',
                            bg_color: '#ffffff',
                            style: 'rounded',
                            logo_url: null,
                            error_correction: 'M',
                            eye_style: 'square',
                            eye_color: '#1a73e8',
                            gradient: null,
                            frame: 'none',
                            frame_text: null,
                            margin: 4,
                            allow_light_on_dark: false,
                          },
                          routing: { enabled: false, rules: [] },
                          name: null,
                          notes: null,
                          forward_query: false,
                          password_protected: false,
                          app_links: null,
                          utm: null,
                          preview: null,
                          page: null,
                          status: 'active',
                          state: 'active',
                          paused_destination: null,
                          expires_at: null,
                          expired_destination: null,
                          max_scans: null,
                          domain: null,
                          scan_url: 'https://qr.example.com/aB3dE5f',
                          imported_scans: 0,
                          created_at: '2026-03-02T10:00:00.000Z',
                          updated_at: '2026-03-02T10:00:00.000Z',
                          warnings: [],
                        },
                      ],
                    },
                  },
                },
              },
            },
          },
          '422': {
            description:
              'Some items are invalid, and nothing was created; `errors` lists every problem by item (JSON) or row ' +
              'and column (CSV). Also a CSV without a proper header row or without rows, and an Idempotency-Key ' +
              'reused with another body.',
            content: {
              [PROBLEM_CONTENT_TYPE]: {
                schema: problemSchema,
                examples: {
                  json: {
                    summary: 'JSON items',
                    value: {
                      type: '/problems/validation-failed',
                      title: 'Validation failed',
                      status: 422,
                      detail: '2 of 500 codes are invalid (2 problems); none was created.',
                      instance: '/v1/codes/bulk',
                      errors: [
                        { path: 'codes.17.design.fg_color', message: 'must be a color in the form #rrggbb' },
                        { path: 'codes.342.content', message: 'must be an absolute http:// or https:// URL' },
                      ],
                    },
                  },
                  csv: {
                    summary: 'CSV rows',
                    value: {
                      type: '/problems/validation-failed',
                      title: 'Validation failed',
                      status: 422,
                      detail:
                        "2 of 500 rows are invalid (2 problems); none was created. Paths name CSV rows as 'row " +
                        "<n>.<column>', counting the header as row 1.",
                      instance: '/v1/codes/bulk',
                      errors: [
                        { path: 'row 19.fg_color', message: 'must be a color in the form #rrggbb' },
                        { path: 'row 344.content', message: 'must be an absolute http:// or https:// URL' },
                      ],
                    },
                  },
                },
              },
            },
          },
        },
        problems: [409],
      }),
    },
    '/batches/{batch_id}/images.zip': {
      get: operation({
        operationId: 'downloadBatchImages',
        summary: 'Download a batch’s images as a ZIP',
        description:
          'Every code of one bulk call rendered in the asked format, size and margin, one `<code id>.<format>` ' +
          'entry per code in id order, and `manifest.csv` (id, type, content, payload, scan_url) as the last ' +
          'entry; text a spreadsheet would run as a formula (starting with =, +, -, @, tab or CR) gets a leading ' +
          'apostrophe, as in the raw-scan CSV. The ZIP is streamed as it is rendered: the query and the batch ' +
          'are checked first (422, 404), and a failure after the answer has begun can only abort the connection. ' +
          '404 for a batch of another account.',
        tag: TAG,
        scope: 'codes:read',
        requestParams: { path: batchParams, query: imageQuerySchema },
        responses: {
          '200': {
            description: 'The ZIP, streamed (no Content-Length).',
            content: { 'application/zip': { schema: z.string().meta({ format: 'binary' }) } },
            headers: z.object({
              'Content-Disposition': z.string().meta({
                description: 'An attachment named after the batch.',
                example: 'attachment; filename="batch_7hQ2mX8pL4fT.zip"',
              }),
              'Cache-Control': z.literal('private, no-store'),
            }),
          },
        },
        problems: [404, 422],
      }),
    },
  },
};
