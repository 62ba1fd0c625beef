// Input schemas for codes: the single place where code input is validated, for REST and
// GraphQL alike. TypeScript types are inferred from them.
import { z } from 'zod';
import { httpUrlSchema } from '../../shared/url.ts';
import { routingInputSchema } from '../routing/schemas.ts';

export const CODE_TYPES = ['url'] as const;
export const STYLES = ['square', 'dots', 'rounded', 'branded'] as const;
export const ERROR_CORRECTION_LEVELS = ['L', 'M', 'Q', 'H'] as const;

export type CodeType = (typeof CODE_TYPES)[number];
export type Style = (typeof STYLES)[number];
export type ErrorCorrection = (typeof ERROR_CORRECTION_LEVELS)[number];

const hexColor = z
  .string()
  .regex(/^#[0-9a-fA-F]{6}$/, 'must be a color in the form #rrggbb')
  .transform((value) => value.toLowerCase());

const designFields = {
  fg_color: hexColor,
  bg_color: hexColor,
  style: z.enum(STYLES, { error: `must be one of ${STYLES.join(', ')}` }),
  logo_url: httpUrlSchema,
  error_correction: z.enum(ERROR_CORRECTION_LEVELS, { error: `must be one of ${ERROR_CORRECTION_LEVELS.join(', ')}` }),
};

/** The design fields a client chose; the rest take defaults when presented. */
export const designInputSchema = z.strictObject({
  fg_color: designFields.fg_color.optional(),
  bg_color: designFields.bg_color.optional(),
  style: designFields.style.optional(),
  logo_url: designFields.logo_url.optional(),
  error_correction: designFields.error_correction.optional(),
});
export type DesignInput = z.output<typeof designInputSchema>;

/** In a PATCH, null puts a field back to its default. */
export const designPatchSchema = z.strictObject({
  fg_color: designFields.fg_color.nullable().optional(),
  bg_color: designFields.bg_color.nullable().optional(),
  style: designFields.style.nullable().optional(),
  logo_url: designFields.logo_url.nullable().optional(),
  error_correction: designFields.error_correction.nullable().optional(),
});
export type DesignPatch = z.output<typeof designPatchSchema>;

export const createCodeSchema = z.strictObject({
  type: z.enum(CODE_TYPES, { error: `must be one of ${CODE_TYPES.join(', ')}` }).default('url'),
  content: httpUrlSchema,
  design: designInputSchema.default({}),
  routing: routingInputSchema.default({}),
});
export type CreateCodeInput = z.output<typeof createCodeSchema>;

export const updateCodeSchema = z
  .strictObject({
    type: z.never({ error: 'cannot be changed; create a new code instead' }).optional(),
    content: httpUrlSchema.optional(),
    /** Another name for the content of a `url` code, as the spec calls it. */
    destination: httpUrlSchema.optional(),
    design: designPatchSchema.optional(),
    routing: routingInputSchema.optional(),
  })
  .refine((body) => body.content === undefined || body.destination === undefined, {
    path: ['destination'],
    message: 'give content or destination, not both',
  });
export type UpdateCodeInput = z.output<typeof updateCodeSchema>;

export const SORTS = ['created_at', '-created_at', 'updated_at', '-updated_at'] as const;
export type CodeSort = (typeof SORTS)[number];
export const MAX_PAGE_SIZE = 500;
export const DEFAULT_PAGE_SIZE = 50;

const isoInstant = z.iso
  .datetime({ offset: true, error: 'must be an ISO 8601 date-time such as 2026-01-31T00:00:00Z' })
  .transform((value) => new Date(value));

export const listCodesSchema = z.strictObject({
  limit: z.coerce
    .number({ error: 'must be a number' })
    .int('must be a whole number')
    .min(1, 'must be at least 1')
    .max(MAX_PAGE_SIZE, `must be at most ${MAX_PAGE_SIZE}`)
    .default(DEFAULT_PAGE_SIZE),
  cursor: z.string().max(500).optional(),
  type: z.enum(CODE_TYPES, { error: `must be one of ${CODE_TYPES.join(', ')}` }).optional(),
  q: z.string().min(1).max(200).optional(),
  created_after: isoInstant.optional(),
  created_before: isoInstant.optional(),
  sort: z.enum(SORTS, { error: `must be one of ${SORTS.join(', ')}` }).default('-created_at'),
});
export type ListCodesQuery = z.output<typeof listCodesSchema>;
