// The public JSON of a UTM template. The zod schema is the contract (it feeds the OpenAPI document).
import { z } from 'zod';
import { UTM_FIELDS, type UtmField } from '../codes/index.ts';
import type { UtmTemplate } from './store.ts';

export const utmTemplateResourceSchema = z
  .object({
    id: z.string().meta({ example: 'utm_8kD2mQ9xT4pL0aZc7VbN' }),
    object: z.literal('utm_template'),
    name: z.string().meta({ example: 'Print posters' }),
    ...(Object.fromEntries(UTM_FIELDS.map((f) => [f, z.string().nullable()])) as Record<
      UtmField,
      z.ZodNullable<z.ZodString>
    >),
    created_at: z.iso.datetime(),
    updated_at: z.iso.datetime(),
  })
  .meta({ id: 'UtmTemplate' });
export type UtmTemplateJson = z.output<typeof utmTemplateResourceSchema>;

export function presentUtmTemplate(template: UtmTemplate): UtmTemplateJson {
  return {
    id: template.id,
    object: 'utm_template',
    name: template.name,
    ...(Object.fromEntries(UTM_FIELDS.map((f) => [f, template.utm[f] ?? null])) as Record<UtmField, string | null>),
    created_at: template.createdAt.toISOString(),
    updated_at: template.updatedAt.toISOString(),
  };
}
