// Input schemas for UTM templates, for REST and GraphQL alike: a name and the five UTM fields
// (each as a code's `utm` takes it, codes/utm.ts).
import { z } from 'zod';
import { UTM_FIELDS, utmValueSchema, type UtmField } from '../codes/index.ts';

const MAX_NAME_LENGTH = 100;

const nameSchema = z
  .string({ error: 'must be a string' })
  .trim()
  .min(1, 'must not be empty')
  .max(MAX_NAME_LENGTH, `must be at most ${MAX_NAME_LENGTH} characters`)
  .meta({ description: `What people call the template, 1-${MAX_NAME_LENGTH} characters.`, example: 'Print posters' });

const fieldsOf = <S extends z.ZodType>(schema: S) =>
  Object.fromEntries(UTM_FIELDS.map((f) => [f, schema])) as Record<UtmField, S>;

export const createUtmTemplateSchema = z
  .strictObject({ name: nameSchema, ...fieldsOf(utmValueSchema.optional()) })
  .refine((body) => UTM_FIELDS.some((f) => body[f] !== undefined), {
    path: ['utm_source'],
    message: 'give at least one utm_ field',
  });
export type CreateUtmTemplateInput = z.output<typeof createUtmTemplateSchema>;

/** On update, null removes a field; at least one must remain (the service checks it). */
export const updateUtmTemplateSchema = z.strictObject({
  name: nameSchema.optional(),
  ...fieldsOf(utmValueSchema.nullable().optional()),
});
export type UpdateUtmTemplateInput = z.output<typeof updateUtmTemplateSchema>;
