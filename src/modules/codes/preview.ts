// A url code's social preview: the title, description and image that link-preview crawlers
// (Slack, WhatsApp, iMessage, ...) show when the scan URL is shared. The scan path answers them an
// Open Graph page (scans/preview-page.ts); people are redirected as without one.
import { z } from 'zod';
import { MAX_URL_LENGTH, isHttpUrl } from '../../shared/url.ts';

/** Past these, Facebook, X and LinkedIn cut the text anyway (X shows about 70 and 200 characters). */
export const MAX_PREVIEW_TITLE = 120;
export const MAX_PREVIEW_DESCRIPTION = 300;

const text = (max: number) =>
  z
    .string({ error: 'must be a string' })
    .trim()
    .min(1, 'must not be empty; leave the field out instead')
    .max(max, `must be at most ${max} characters`);

// https only: crawlers and the apps that show the card refuse or warn on plain http images.
const imageUrlSchema = text(MAX_URL_LENGTH)
  .refine((value) => isHttpUrl(value) && new URL(value).protocol === 'https:', 'must be an absolute https:// URL')
  .meta({
    description: 'The card’s image (https; 1200×630 suits most apps).',
    example: 'https://cdn.example.com/spring.png',
  });

export const previewSchema = z
  .strictObject({
    title: text(MAX_PREVIEW_TITLE).optional(),
    description: text(MAX_PREVIEW_DESCRIPTION).optional(),
    image_url: imageUrlSchema.optional(),
  })
  .refine((p) => p.title !== undefined || p.description !== undefined || p.image_url !== undefined, {
    message: 'give at least one of title, description, image_url; null removes the preview',
  })
  .meta({
    description:
      'Url codes: what link-preview crawlers (Slack, WhatsApp, Facebook, X, LinkedIn, Discord, ...) show when the ' +
      `scan URL is shared: title (1-${MAX_PREVIEW_TITLE} characters), description (1-${MAX_PREVIEW_DESCRIPTION}), ` +
      'image_url (https). People scanning the code are redirected as before. Replaced whole; null removes it.',
    example: {
      title: 'Spring sale',
      description: '20% off everything until May.',
      image_url: 'https://cdn.example.com/spring.png',
    },
  });

/** The fields given. */
export type Preview = z.output<typeof previewSchema>;

export const previewResourceSchema = z
  .object({
    title: z.string().nullable(),
    description: z.string().nullable(),
    image_url: z.string().nullable(),
  })
  .nullable()
  .meta({
    id: 'Preview',
    description: 'Url codes: the social preview link-preview crawlers are shown; null when the code has none.',
    example: {
      title: 'Spring sale',
      description: '20% off everything until May.',
      image_url: 'https://cdn.example.com/spring.png',
    },
  });

/** Every key present, null where unset, so clients read one shape. */
export function presentPreview(preview: Preview | null): z.output<typeof previewResourceSchema> {
  return (
    preview && {
      title: preview.title ?? null,
      description: preview.description ?? null,
      image_url: preview.image_url ?? null,
    }
  );
}
