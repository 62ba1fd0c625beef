// Input schemas for tags, and the `tags` field of a code (names, created on the fly). The tags
// module sits left of codes: codes import these schemas, tags import nothing of codes.
import { z } from 'zod';

export const MAX_TAG_NAME_LENGTH = 50;
export const MAX_TAGS_PER_CODE = 20;
/** What one request may list before duplicates collapse; keeps a hostile array from costing work. */
const MAX_TAG_NAMES_GIVEN = 200;
/** CSV cells carry several tags separated by this, so no name may contain it. */
export const CSV_TAG_SEPARATOR = '|';

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u001f\u007f]/;

/** The key that makes names equal ignoring case: `Print` and `print` are one tag. */
export const tagKey = (name: string) => name.normalize('NFC').toLowerCase();

export const tagNameSchema = z
  .string({ error: 'must be a string' })
  .trim()
  .min(1, 'must not be empty')
  .max(MAX_TAG_NAME_LENGTH, `must be at most ${MAX_TAG_NAME_LENGTH} characters`)
  .refine((v) => !LONE_SURROGATE.test(v), 'must be valid Unicode text')
  .refine((v) => !CONTROL.test(v), 'must not contain control characters')
  .refine((v) => !v.includes(CSV_TAG_SEPARATOR), `must not contain '${CSV_TAG_SEPARATOR}' (it separates tags in CSV)`)
  .meta({
    description: `1-${MAX_TAG_NAME_LENGTH} characters after trimming, unique in the account ignoring case; no \`|\`.`,
    example: 'print',
  });

const colorSchema = z
  .string({ error: 'must be a string' })
  .regex(/^#[0-9a-fA-F]{6}$/, 'must be a color in the form #rrggbb')
  .transform((value) => value.toLowerCase())
  .nullable()
  .meta({ description: 'A colour for the tag’s label, `#rrggbb`, or null.', example: '#e8710a' });

export const createTagSchema = z.strictObject({ name: tagNameSchema, color: colorSchema.optional() });
export type CreateTagInput = z.output<typeof createTagSchema>;

export const updateTagSchema = z.strictObject({ name: tagNameSchema.optional(), color: colorSchema.optional() });
export type UpdateTagInput = z.output<typeof updateTagSchema>;

export const MAX_TAG_PAGE_SIZE = 500;

export const listTagsSchema = z.strictObject({
  limit: z.coerce
    .number({ error: 'must be a number' })
    .int('must be a whole number')
    .min(1, 'must be at least 1')
    .max(MAX_TAG_PAGE_SIZE, `must be at most ${MAX_TAG_PAGE_SIZE}`)
    .default(100),
  cursor: z.string().max(500).optional().meta({ description: 'The `next_cursor` of the previous page.' }),
});
export type ListTagsQuery = z.output<typeof listTagsSchema>;

/** Names with duplicates (ignoring case) dropped, the first spelling kept. */
export function distinctNames(names: readonly string[]): string[] {
  const seen = new Map<string, string>();
  for (const name of names) if (!seen.has(tagKey(name))) seen.set(tagKey(name), name);
  return [...seen.values()];
}

/**
 * A code's `tags`: names of the account's tags, a missing one created on the fly. Duplicates
 * (ignoring case) collapse before the cap of 20 is checked; `[]` means no tags.
 */
export const codeTagsSchema = z
  .array(tagNameSchema, { error: 'must be an array of tag names' })
  .max(MAX_TAG_NAMES_GIVEN, `must list at most ${MAX_TAGS_PER_CODE} tags`)
  .transform((names, ctx) => {
    const distinct = distinctNames(names);
    if (distinct.length > MAX_TAGS_PER_CODE) {
      ctx.addIssue({
        code: 'custom',
        message: `must list at most ${MAX_TAGS_PER_CODE} tags (a code has 0-${MAX_TAGS_PER_CODE})`,
        input: names,
      });
      return z.NEVER;
    }
    return distinct;
  })
  .meta({
    description:
      `Tag names (0-${MAX_TAGS_PER_CODE}). A name the account has no tag for creates that tag; an ` +
      `existing tag matches ignoring case. Duplicates collapse. On update the list replaces the code’s tags; ` +
      `\`[]\` removes them all.`,
    example: ['print', 'spring-2026'],
  });

/** The `tag` filter of a list or overview: one name or several (any of them matches). */
export const tagFilterSchema = z
  .union(
    [
      z
        .string()
        .min(1)
        .max(MAX_TAG_NAME_LENGTH * 4),
      z
        .array(
          z
            .string()
            .min(1)
            .max(MAX_TAG_NAME_LENGTH * 4),
        )
        .max(MAX_TAGS_PER_CODE * 5),
    ],
    {
      error: `must be a tag name (at most ${MAX_TAG_NAME_LENGTH} characters)`,
    },
  )
  .transform((v) => (Array.isArray(v) ? v : [v]).map((name) => name.trim()));
