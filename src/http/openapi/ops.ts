// The operations that need no credential: health checks at the root and this document itself.
// Koa answers them, so they carry the edge's headers; no credential is charged, so no rate limit.
import { z } from 'zod';
import { PROBLEM_CONTENT_TYPE } from '../problem.ts';
import { jsonResponse, problemSchema, ROOT_SERVER, type OpenApiModule } from './common.ts';
import { edgeHeaders } from './headers.ts';

const TAG = 'Operations';
const edge = z.object(edgeHeaders);

export const opsOpenApi: OpenApiModule = {
  tag: { name: TAG, description: 'Health checks for orchestrators and this API description. No credential needed.' },
  paths: {
    '/healthz': {
      servers: ROOT_SERVER,
      get: {
        operationId: 'getHealth',
        summary: 'Liveness: the process is up, and its release',
        tags: [TAG],
        security: [],
        responses: {
          '200': {
            ...jsonResponse(
              z.object({
                status: z.literal('ok'),
                version: z.string().meta({
                  description: 'The release this instance runs (the package version; CHANGELOG.md lists each).',
                  example: '0.1.0',
                }),
              }),
              'The process is up.',
            ),
            headers: edge,
          },
        },
      },
    },
    '/readyz': {
      servers: ROOT_SERVER,
      get: {
        operationId: 'getReadiness',
        summary: 'Readiness: the database answers',
        tags: [TAG],
        security: [],
        responses: {
          '200': {
            ...jsonResponse(
              z.object({
                status: z.literal('ready'),
                scan_journal_error: z
                  .string()
                  .optional()
                  .describe(
                    'Present while the scan journal cannot write (a full disk): scans are still answered and ' +
                      'recorded, but a crash of this instance would lose those not yet written to the database.',
                  ),
              }),
              'The database answers.',
            ),
            headers: edge,
          },
          '503': {
            description: 'The database is not reachable.',
            content: { [PROBLEM_CONTENT_TYPE]: { schema: problemSchema } },
            headers: edge,
          },
        },
      },
    },
    '/openapi.json': {
      get: {
        operationId: 'getOpenApiDocument',
        summary: 'This OpenAPI 3.1 document',
        tags: [TAG],
        security: [],
        responses: {
          '200': {
            ...jsonResponse(
              z.object({ openapi: z.string() }).catchall(z.unknown()).meta({ description: 'An OpenAPI 3.1 document.' }),
              'The document of this version.',
            ),
            headers: z.object({
              ...edgeHeaders,
              'Cache-Control': z
                .literal('no-cache')
                .meta({ description: 'Revalidate: the document changes with the server.' }),
            }),
          },
        },
      },
    },
  },
};
