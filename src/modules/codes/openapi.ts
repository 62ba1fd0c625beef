// The codes operations in the OpenAPI document: the same schemas that validate the requests
// (schemas.ts) and shape the answers (presenter.ts).
import { z } from 'zod';
import {
  idempotencyKeyHeader,
  jsonResponse,
  listOf,
  noContent,
  operation,
  pathParams,
  type OpenApiModule,
} from '../../http/openapi/common.ts';
import { httpUrlSchema } from '../../shared/url.ts';
import { staticContentSchemas } from './content-types.ts';
import { codeResourceSchema } from './presenter.ts';
import { createCodeSchema, listCodesSchema, updateCodeSchema } from './schemas.ts';

const TAG = 'Codes';

export const codeIdParams = pathParams({ id: { description: 'The code’s id.', example: 'qr_4fT9kQ2mX8pL' } });

/**
 * `content` is validated against the code's type after the body's shape, so the body schema
 * takes any value; the document shows what each type accepts instead.
 */
const contentForDocs = z
  .union([
    httpUrlSchema.meta({ title: 'url', description: 'The destination of a url code.' }),
    ...Object.entries(staticContentSchemas).map(([type, schema]) => schema.meta({ title: type })),
  ])
  .meta({
    id: 'CodeContent',
    description: 'For `url` codes the destination URL; for the static types an object of the type’s fields.',
  });

/** The body of POST /codes, with `content` shown per type; bulk items are the same. */
export const createCodeBody = createCodeSchema.extend({ content: contentForDocs }).meta({
  id: 'CreateCode',
  example: {
    type: 'url',
    content: 'https://example.com/spring',
    design: { style: 'branded', fg_color: '#1a73e8' },
    routing: { rules: [{ condition: 'country:DE', destination: 'https://example.de/fruehling' }] },
  },
});

const updateBody = updateCodeSchema.meta({
  id: 'UpdateCode',
  example: { destination: 'https://example.com/summer', design: { frame: 'banner', frame_text: 'Scan me' } },
});

const codeList = listOf(codeResourceSchema, 'CodeList');

export const codesOpenApi: OpenApiModule = {
  tag: {
    name: TAG,
    description:
      'QR codes: dynamic `url` codes, which redirect through their scan URL, and static codes (text, email, phone, ' +
      'sms, wifi, vcard, geo), which encode their content.',
  },
  paths: {
    '/codes': {
      post: operation({
        operationId: 'createCode',
        summary: 'Create a code',
        description:
          'Idempotency-Key is honoured: a retry with the same key and body answers the first result (with ' +
          '`Idempotent-Replayed: true`).',
        tag: TAG,
        scope: 'codes:write',
        requestParams: { header: idempotencyKeyHeader },
        requestBody: { required: true, content: { 'application/json': { schema: createCodeBody } } },
        responses: {
          '201': {
            ...jsonResponse(codeResourceSchema, 'The new code.'),
            headers: z.object({ Location: z.string().meta({ description: 'The code’s URL.' }) }),
          },
        },
        problems: [409, 422],
      }),
      get: operation({
        operationId: 'listCodes',
        summary: 'List codes',
        description:
          'One page of the account’s codes, filtered and sorted, newest first by default. `q` searches content.',
        tag: TAG,
        scope: 'codes:read',
        requestParams: { query: listCodesSchema },
        responses: { '200': jsonResponse(codeList, 'One page of codes.') },
        problems: [422],
      }),
    },
    '/codes/{id}': {
      get: operation({
        operationId: 'getCode',
        summary: 'Get a code',
        tag: TAG,
        scope: 'codes:read',
        requestParams: { path: codeIdParams },
        responses: { '200': jsonResponse(codeResourceSchema, 'The code.') },
        problems: [404],
      }),
      patch: operation({
        operationId: 'updateCode',
        summary: 'Update a code',
        description:
          'Changes content (or its alias `destination`), design and routing. In `design`, null puts a field back to ' +
          'its default. The type cannot change.',
        tag: TAG,
        scope: 'codes:write',
        requestParams: { path: codeIdParams },
        requestBody: { required: true, content: { 'application/json': { schema: updateBody } } },
        responses: { '200': jsonResponse(codeResourceSchema, 'The updated code.') },
        problems: [404, 422],
      }),
      delete: operation({
        operationId: 'deleteCode',
        summary: 'Delete a code',
        description: 'For good: its scan URL answers 404 afterwards. Its scans stay in the account’s analytics.',
        tag: TAG,
        scope: 'codes:write',
        requestParams: { path: codeIdParams },
        responses: { '204': noContent },
        problems: [404],
      }),
    },
  },
};
