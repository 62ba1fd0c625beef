// The public JSON of an uploaded image. The zod schema is the contract (it feeds the OpenAPI document).
import { z } from 'zod';
import type { UploadedImage } from './upload-store.ts';

export const imageResourceSchema = z
  .object({
    id: z.string().meta({ example: 'img_8kD2mQ9xT4pL0aZc7VbN' }),
    object: z.literal('image'),
    name: z.string().nullable().meta({ description: 'The file name it was uploaded with.', example: 'logo.svg' }),
    content_type: z.literal('image/png').meta({ description: 'What is stored: every upload is re-encoded to PNG.' }),
    source_type: z
      .enum(['image/png', 'image/jpeg', 'image/webp', 'image/svg+xml'])
      .meta({ description: 'What the upload was, judged from its bytes.' }),
    width: z.number().int().meta({ description: 'Of the stored PNG, in pixels (at most 1024).', example: 512 }),
    height: z.number().int().meta({ example: 512 }),
    bytes: z.number().int().meta({ description: 'Size of the stored PNG.', example: 20480 }),
    sha256: z.string().meta({ description: 'SHA-256 of the stored PNG, hex.' }),
    content_url: z.string().meta({
      description: 'Where the PNG is read (needs codes:read).',
      example: '/v1/images/img_8kD2mQ9xT4pL0aZc7VbN/content',
    }),
    created_at: z.iso.datetime(),
  })
  .meta({ id: 'Image' });
export type ImageJson = z.output<typeof imageResourceSchema>;

export function presentImage(image: UploadedImage): ImageJson {
  return {
    id: image.id,
    object: 'image',
    name: image.name,
    content_type: 'image/png',
    source_type: image.sourceType,
    width: image.width,
    height: image.height,
    bytes: image.bytes,
    sha256: image.sha256,
    content_url: `/v1/images/${image.id}/content`,
    created_at: image.createdAt.toISOString(),
  };
}
