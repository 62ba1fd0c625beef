// The images operation in the OpenAPI document: its query is the schema the service validates
// with (imageQuerySchema).
import { z } from 'zod';
import {
  jsonResponse,
  listOf,
  noContent,
  operation,
  pathParams,
  type OpenApiModule,
} from '../../http/openapi/common.ts';
import { codeIdParams } from '../codes/openapi.ts';
import { MIN_PIXELS_PER_MODULE } from './scannable-size.ts';
import { imageQuerySchema } from './service.ts';
import { MAX_STORED_SIDE, MAX_UPLOAD_BYTES, MAX_UPLOAD_PIXELS } from './upload-decode.ts';
import { imageResourceSchema } from './upload-presenter.ts';
import { listImagesSchema } from './uploads.ts';

const TAG = 'Images';
const UPLOADS_TAG = 'Uploaded images';

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

const imageIdParams = pathParams({ id: { description: 'The image’s id.', example: 'img_8kD2mQ9xT4pL0aZc7VbN' } });

const uploadBody = z
  .object({
    file: z.string().meta({
      format: 'binary',
      description:
        'A PNG, JPEG, WebP or SVG image, judged by its bytes (not its name or declared type); at most ' +
        `${MAX_UPLOAD_BYTES} bytes and, for PNG, JPEG and WebP, ${MAX_UPLOAD_PIXELS} pixels (width x height).`,
    }),
  })
  .meta({ id: 'ImageUpload' });

const uploadPaths = {
  '/images': {
    post: operation({
      operationId: 'uploadImage',
      summary: 'Upload an image',
      description:
        'One file in the form field `file` (multipart/form-data). It is re-encoded to PNG (no metadata is kept), ' +
        `scaled down to at most ${MAX_STORED_SIDE} px a side; an SVG is drawn at ${MAX_STORED_SIDE} px on its ` +
        'longer side, and one with a script, an event handler, a foreignObject, a DTD or a reference outside ' +
        'itself is refused. Use it as a code’s `design.logo_image_id` or a business card’s `page.photo_image_id`.',
      tag: UPLOADS_TAG,
      scope: 'codes:write',
      requestBody: { required: true, content: { 'multipart/form-data': { schema: uploadBody } } },
      responses: {
        '201': {
          ...jsonResponse(imageResourceSchema, 'The stored image.'),
          headers: z.object({
            Location: z.string().meta({ example: '/v1/images/img_8kD2mQ9xT4pL0aZc7VbN' }),
          }),
        },
      },
      problems: [422],
    }),
    get: operation({
      operationId: 'listImages',
      summary: 'List images',
      description: 'The workspace’s uploaded images, newest first.',
      tag: UPLOADS_TAG,
      scope: 'codes:read',
      requestParams: { query: listImagesSchema },
      responses: { '200': jsonResponse(listOf(imageResourceSchema, 'ImageList'), 'One page of images.') },
      problems: [422],
    }),
  },
  '/images/{id}': {
    get: operation({
      operationId: 'getImage',
      summary: 'Get an image',
      tag: UPLOADS_TAG,
      scope: 'codes:read',
      requestParams: { path: imageIdParams },
      responses: { '200': jsonResponse(imageResourceSchema, 'The image’s metadata.') },
      problems: [404],
    }),
    delete: operation({
      operationId: 'deleteImage',
      summary: 'Delete an image',
      description:
        'A 409 while a code of the workspace uses it as its logo or photo. Codes that used it as a logo before ' +
        'keep being drawn with it (the logo is stored with them).',
      tag: UPLOADS_TAG,
      scope: 'codes:write',
      requestParams: { path: imageIdParams },
      responses: { '204': noContent },
      problems: [404, 409],
    }),
  },
  '/images/{id}/content': {
    get: operation({
      operationId: 'getImageContent',
      summary: 'Get an image’s PNG',
      tag: UPLOADS_TAG,
      scope: 'codes:read',
      requestParams: { path: imageIdParams },
      responses: { '200': { description: 'The stored PNG.', content: { 'image/png': binary } } },
      problems: [404],
    }),
  },
};

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

export const uploadedImagesOpenApi: OpenApiModule = {
  tag: {
    name: UPLOADS_TAG,
    description:
      'Images the workspace uploads, kept to be used again: a code’s logo (`design.logo_image_id`) and a business ' +
      'card’s photo (`page.photo_image_id`). Another workspace’s image is a 404, and a 422 where a code names it.',
  },
  paths: uploadPaths,
};
