// The images operation in the OpenAPI document: its query is the schema the service validates
// with (imageQuerySchema).
import { z } from 'zod';
import { operation, type OpenApiModule } from '../../http/openapi/common.ts';
import { codeIdParams } from '../codes/openapi.ts';
import { MIN_PIXELS_PER_MODULE } from './scannable-size.ts';
import { imageQuerySchema } from './service.ts';

const TAG = 'Images';

// `size` describes itself in imageQuerySchema: the batch ZIP takes the same query.
const query = imageQuerySchema.extend({
  format: imageQuerySchema.shape.format.meta({
    description: 'svg (image/svg+xml), png (image/png) or pdf (application/pdf, vector).',
  }),
  margin: imageQuerySchema.shape.margin.meta({ description: 'Quiet zone in modules, instead of the design’s margin.' }),
});

const conditionalHeaders = z.object({
  'If-None-Match': z
    .string()
    .optional()
    .meta({
      description:
        'An ETag from an earlier answer (or a list of them, or *): when it still matches, the answer is 304 without ' +
        'a body.',
      example: '"pQ3x0kJc8sVf2mLq9wRt4yZa6bNd1eGh"',
    }),
});

const cacheHeaders = z.object({
  'Image-Width': z.int().meta({
    description:
      `The width the image is drawn at: \`size\`, or more when \`size\` is below the smallest that scans ` +
      `(${MIN_PIXELS_PER_MODULE} pixels per module across the code and its quiet zone).`,
    example: 512,
  }),
  ETag: z.string().meta({
    description:
      'Changes whenever anything that shapes the image changes (content, design, logo, format, size, margin).',
  }),
  'Cache-Control': z.string().meta({
    description:
      '`private, no-cache`: the image belongs to an account, and a cache must revalidate so a design change shows ' +
      'at once.',
    example: 'private, no-cache',
  }),
});

const binary = { schema: { type: 'string' as const, format: 'binary' } };

export const imagesOpenApi: OpenApiModule = {
  tag: {
    name: TAG,
    description: 'Images of codes, in the code’s design, as SVG, PNG or PDF, with ETags for revalidation.',
  },
  paths: {
    '/codes/{id}/image': {
      get: operation({
        operationId: 'getCodeImage',
        summary: 'Get a code’s image',
        description:
          'Renders the code in its design. The answer carries an ETag; send it back in If-None-Match to get a 304 ' +
          'while the image is unchanged. Unknown query parameters are a 422.',
        tag: TAG,
        scope: 'codes:read',
        requestParams: { path: codeIdParams, query, header: conditionalHeaders },
        responses: {
          '200': {
            description: 'The image, in the media type of `format`.',
            headers: cacheHeaders,
            content: {
              'image/svg+xml': { schema: z.string().meta({ description: 'An SVG document.' }) },
              'image/png': binary,
              'application/pdf': binary,
            },
          },
          '304': {
            description: 'Not modified: If-None-Match matched the current ETag. No body.',
            headers: cacheHeaders,
          },
        },
        problems: [404, 422],
      }),
    },
  },
};
