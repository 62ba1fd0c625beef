// Input schemas for codes: the single place where code input is validated, for REST and
// GraphQL alike. TypeScript types are inferred from them.
import { z } from 'zod';
import { httpUrlSchema } from '../../shared/url.ts';
import { validationFailed } from '../../shared/errors.ts';
import { zodIssuesToFieldErrors } from '../../shared/validation.ts';
import { routingInputSchema, type RoutingInput } from '../routing/index.ts';
import { codeTagsSchema, tagFilterSchema } from '../tags/index.ts';
import { freeText, line, STATIC_TYPES, staticContentSchemas, type StaticType } from './content-types.ts';
import {
  expiryProblems,
  lifecycleFields,
  staticLifecycleProblems,
  statusFilterSchema,
  type LifecycleInput,
} from './lifecycle.ts';
import { codeDomainSchema } from './domain-field.ts';
import { appLinksSchema, type AppLinksInput } from './app-links.ts';
import { passwordSchema } from './password.ts';
import { previewSchema, type Preview } from './preview.ts';
import { pageSchema, type Page } from './page.ts';
import { utmSchema, type Utm } from './utm.ts';
import { CUSTOM_SLUG, isReservedPath } from './slug.ts';

/** `url` codes are dynamic (the image encodes the scan URL); the others encode their content. */
export const CODE_TYPES = ['url', ...STATIC_TYPES] as const;
export const STYLES = ['square', 'dots', 'rounded', 'branded'] as const;
export const EYE_STYLES = ['square', 'rounded', 'circle'] as const;
export const FRAMES = ['none', 'banner'] as const;
export const ERROR_CORRECTION_LEVELS = ['L', 'M', 'Q', 'H'] as const;

export type CodeType = (typeof CODE_TYPES)[number];
export type Style = (typeof STYLES)[number];
export type ErrorCorrection = (typeof ERROR_CORRECTION_LEVELS)[number];

/** A url code's content is its destination; a static code's content is a structured object. */
export type CodeContent = string | Record<string, unknown>;

const oneOf = (values: readonly string[]) => ({ error: `must be one of ${values.join(', ')}` });

const hexColor = z
  .string()
  .regex(/^#[0-9a-fA-F]{6}$/, 'must be a color in the form #rrggbb')
  .transform((value) => value.toLowerCase());

// The design's enums, exported so GraphQL derives its enum types from the same values.
export const codeTypeSchema = z.enum(CODE_TYPES, oneOf(CODE_TYPES));
export const styleSchema = z.enum(STYLES, oneOf(STYLES));
export const errorCorrectionSchema = z.enum(ERROR_CORRECTION_LEVELS, oneOf(ERROR_CORRECTION_LEVELS));
export const eyeStyleSchema = z.enum(EYE_STYLES, oneOf(EYE_STYLES));
export const gradientTypeSchema = z.enum(['linear', 'radial'], oneOf(['linear', 'radial']));
export const frameSchema = z.enum(FRAMES, oneOf(FRAMES));

const designFields = {
  fg_color: hexColor,
  bg_color: hexColor,
  style: styleSchema,
  logo_url: httpUrlSchema,
  logo_image_id: z
    .string({ error: 'must be a string' })
    .max(64, 'is not an image of this workspace')
    .meta({
      description:
        'An image the workspace uploaded (`POST /v1/images`) to draw as the logo, in place of `logo_url` (give one ' +
        'or the other). In an update, setting one of the two removes the other.',
      example: 'img_8kD2mQ9xT4pL0aZc7VbN',
    }),
  error_correction: errorCorrectionSchema,
  eye_style: eyeStyleSchema,
  eye_color: hexColor,
  gradient: z.strictObject({
    type: gradientTypeSchema,
    from: hexColor,
    to: hexColor,
    angle: z.number().min(0).max(360).default(0),
  }),
  frame: frameSchema,
  frame_text: z.string().trim().min(1, 'must not be empty').max(30, 'must be at most 30 characters'),
  margin: z
    .number()
    .int('must be a whole number of modules')
    .min(2, 'must be at least 2 modules')
    .max(16, 'must be at most 16 modules'),
  allow_light_on_dark: z.boolean({ error: 'must be true or false' }).meta({
    description:
      'Accepts modules lighter than the background (light on dark). Refused without it: zbar, the readers built on ' +
      'it and many phone cameras do not read such codes. A code that has them carries a `light_on_dark` warning.',
  }),
};
type DesignField = keyof typeof designFields;

const optionalFields = Object.fromEntries(Object.entries(designFields).map(([k, s]) => [k, s.optional()])) as {
  [K in DesignField]: z.ZodOptional<(typeof designFields)[K]>;
};
const nullableFields = Object.fromEntries(
  Object.entries(designFields).map(([k, s]) => [k, s.nullable().optional()]),
) as {
  [K in DesignField]: z.ZodOptional<z.ZodNullable<(typeof designFields)[K]>>;
};

/** The design fields a client chose; the rest take defaults when presented. */
export const designInputSchema = z.strictObject(optionalFields);
export type DesignInput = z.output<typeof designInputSchema>;

/** In a PATCH, null puts a field back to its default. */
export const designPatchSchema = z.strictObject(nullableFields);
export type DesignPatch = z.output<typeof designPatchSchema>;

/** What `content` must be for a type: an http(s) URL for `url`, the type's object otherwise. */
function contentSchemaFor(type: CodeType): z.ZodType<CodeContent> {
  return (type === 'url' ? httpUrlSchema : staticContentSchemas[type as StaticType]) as z.ZodType<CodeContent>;
}

/** `{ content }` checked against a type, built once per type (bulk parses thousands). */
const contentFieldSchemas = new Map<CodeType, z.ZodType<{ content: CodeContent }>>();
export function contentFieldSchema(type: CodeType): z.ZodType<{ content: CodeContent }> {
  let schema = contentFieldSchemas.get(type);
  if (!schema) {
    schema = z.object({ content: contentSchemaFor(type) });
    contentFieldSchemas.set(type, schema);
  }
  return schema;
}

const MAX_NAME_LENGTH = 200;
const MAX_NOTES_LENGTH = 10_000;

/** What people call a code and what they note about it; null clears either on update. */
const labelFields = {
  name: line(MAX_NAME_LENGTH)
    .nullable()
    .optional()
    .meta({
      description:
        `A title for people (not unique, trimmed, 1-${MAX_NAME_LENGTH} characters); found by \`q\` like ` +
        `the content.`,
      example: 'Spring poster, Berlin',
    }),
  notes: freeText(MAX_NOTES_LENGTH)
    .nullable()
    .optional()
    .meta({
      description: `Free text, up to ${MAX_NOTES_LENGTH} characters.`,
      example: 'Printed 2,000 copies; replace after the campaign.',
    }),
};

/** A slug chosen by the caller (url codes), instead of a random one. */
const customSlugSchema = z
  .string({ error: 'must be a string' })
  .regex(CUSTOM_SLUG, 'must be 3-64 characters of A-Z, a-z, 0-9, _ and -')
  .refine((slug) => !isReservedPath(slug), 'is one of the paths the service answers itself; choose another')
  .meta({
    description:
      'The scan URL’s path, 3-64 characters of `A-Z a-z 0-9 _ -`, case-sensitive like random slugs (`Spring` and ' +
      '`spring` are two slugs). Url codes only; without it a random 7-character slug is drawn. A slug is never ' +
      'used twice: one that was ever taken, even by a deleted code, is a 409.',
    example: 'spring-sale',
  });

const forwardQuerySchema = z.boolean({ error: 'must be true or false' }).meta({
  description:
    'Url codes: a scan’s query string is appended to the destination it goes to (UTM passthrough), after the ' +
    'destination’s own query, which keeps its value for a parameter both set. Default false.',
  example: true,
});

/** The create body; `content` is checked against the type by parseCreateCode. */
export const createCodeSchema = z.strictObject({
  type: codeTypeSchema.default('url'),
  content: z.unknown(),
  slug: customSlugSchema.optional(),
  domain: codeDomainSchema.optional(),
  forward_query: forwardQuerySchema.optional(),
  password: passwordSchema.nullable().optional(),
  app_links: appLinksSchema.nullable().optional(),
  utm: utmSchema.nullable().optional(),
  preview: previewSchema.nullable().optional(),
  page: pageSchema.nullable().optional(),
  utm_template_id: z
    .string({ error: 'must be a string' })
    .max(64, 'is not a UTM template of the account')
    .optional()
    .meta({
      description:
        'Url codes: a UTM template of the account (`/utm-templates`) whose fields the code starts from: they are ' +
        'copied into `utm`, and fields given in `utm` win. Later changes to the template do not reach the code.',
      example: 'utm_8kD2mQ9xT4pL0aZc7VbN',
    }),
  ...labelFields,
  tags: codeTagsSchema.optional(),
  ...lifecycleFields,
  design: designInputSchema.default({}),
  routing: routingInputSchema.optional(),
});

export interface CreateCodeInput extends LifecycleInput {
  type: CodeType;
  content: CodeContent;
  slug?: string;
  /** A hostname as given (the service checks it); null or absent: the service's own domain. */
  domain?: string | null;
  forward_query?: boolean;
  /** Null or absent: no password. */
  password?: string | null;
  /** Null or absent: none. */
  app_links?: AppLinksInput | null;
  /** Null or absent: none. */
  utm?: Utm | null;
  /** Null or absent: none. */
  preview?: Preview | null;
  /** Null or absent: the scan redirects (no hosted page). */
  page?: Page | null;
  /** The account's UTM template the code's `utm` starts from (copied by the service). */
  utm_template_id?: string;
  name?: string | null;
  notes?: string | null;
  /** Tag names, duplicates (ignoring case) collapsed. */
  tags?: string[];
  design: DesignInput;
  routing: RoutingInput;
}

/**
 * Parses a create body, reporting every problem at once: the body's fields and the content
 * checked against its type (the given type, or `url` when that is missing or invalid).
 */
export function parseCreateCode(input: unknown): CreateCodeInput {
  const body = createCodeSchema.safeParse(input);
  const raw = (typeof input === 'object' && input !== null ? input : {}) as Record<string, unknown>;
  const type: CodeType = body.success
    ? body.data.type
    : (CODE_TYPES as readonly unknown[]).includes(raw.type)
      ? (raw.type as CodeType)
      : 'url';
  const content = contentFieldSchema(type).safeParse({ content: raw.content });
  const errors = [
    ...(body.success ? [] : zodIssuesToFieldErrors(body.error.issues)),
    ...(content.success ? [] : zodIssuesToFieldErrors(content.error.issues)),
  ];
  for (const field of [
    'routing',
    'slug',
    'domain',
    'forward_query',
    'password',
    'app_links',
    'utm',
    'preview',
    'page',
    'utm_template_id',
  ]) {
    if (type !== 'url' && raw[field] !== undefined)
      errors.push({ path: field, message: `applies to url codes only; a ${type} code encodes its content directly` });
  }
  errors.push(...staticLifecycleProblems(type, raw), ...(body.success ? expiryProblems(body.data.expires_at) : []));
  if (!body.success || !content.success || errors.length > 0) throw validationFailed(errors);
  return { ...body.data, content: content.data.content, routing: body.data.routing ?? {} };
}

export const updateCodeSchema = z
  .strictObject({
    type: z.never({ error: 'cannot be changed; create a new code instead' }).optional(),
    /** Checked against the code's type by the service. */
    content: z.unknown().optional(),
    /** Another name for the content of a `url` code, as the spec calls it. */
    destination: httpUrlSchema.optional(),
    slug: customSlugSchema.optional().meta({
      description:
        'A new slug for a url code. Its scan URL and image change; the old slug is retired for good (it answers ' +
        '404 and never serves another code), so printed copies of the old image stop working.',
    }),
    domain: codeDomainSchema.optional(),
    forward_query: forwardQuerySchema.optional(),
    password: passwordSchema.nullable().optional(),
    app_links: appLinksSchema.nullable().optional(),
    utm: utmSchema.nullable().optional(),
    preview: previewSchema.nullable().optional(),
    page: pageSchema.nullable().optional(),
    ...labelFields,
    tags: codeTagsSchema.optional(),
    ...lifecycleFields,
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
  type: codeTypeSchema.optional(),
  q: z
    .string()
    .min(1)
    .max(200)
    .optional()
    .meta({ description: 'Codes whose content or name contains this text, in any case (accents count).' }),
  tag: tagFilterSchema.optional().meta({
    description:
      'Codes carrying a tag of this name (case ignored); repeat `tag` for codes carrying any of several. A name ' +
      'the account has no tag for matches nothing.',
  }),
  // Comma-separated is the form the document promises (OpenAPI's default would be status=a&status=b);
  // repeating the name still works, for clients that serialise arrays that way.
  status: statusFilterSchema.optional().meta({ param: { style: 'form', explode: false } }),
  created_after: isoInstant.optional(),
  created_before: isoInstant.optional(),
  sort: z.enum(SORTS, { error: `must be one of ${SORTS.join(', ')}` }).default('-created_at'),
});
export type ListCodesQuery = z.output<typeof listCodesSchema>;
