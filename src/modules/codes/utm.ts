// A url code's UTM fields: merged into the destination at scan time by forward_query's rules
// (scans/forward-query.ts): a parameter the destination sets itself keeps the destination's
// value, and the code's fields count as the destination's own for a scan's forwarded query.
import { z } from 'zod';

export const UTM_FIELDS = ['utm_source', 'utm_medium', 'utm_campaign', 'utm_term', 'utm_content'] as const;
export type UtmField = (typeof UTM_FIELDS)[number];

const MAX_UTM_LENGTH = 200;

export const utmValueSchema = z
  .string({ error: 'must be a string' })
  .trim()
  .min(1, 'must not be empty; leave the field out instead')
  .max(MAX_UTM_LENGTH, `must be at most ${MAX_UTM_LENGTH} characters`);

export const utmSchema = z
  .strictObject(
    Object.fromEntries(UTM_FIELDS.map((f) => [f, utmValueSchema.optional()])) as Record<
      UtmField,
      z.ZodOptional<typeof utmValueSchema>
    >,
  )
  .refine((utm) => UTM_FIELDS.some((f) => utm[f] !== undefined), {
    message: 'give at least one utm_ field; null removes them',
  })
  .meta({
    description:
      'Url codes: UTM parameters added to the destination a scan goes to (a rule’s destination too, not an app ' +
      'target). A parameter the destination already has keeps the destination’s value; with forward_query, the ' +
      'scan’s own parameters come after these and do not replace them. Replaced whole; null removes them.',
    example: { utm_source: 'poster', utm_medium: 'print', utm_campaign: 'spring-2026' },
  });
/** The fields given, each 1-200 characters. */
export type Utm = Partial<Record<UtmField, string>>;

/** The fields as a query string in a fixed order (`utm_source=poster&utm_medium=print`), or null for none. */
export function utmQuery(utm: Utm | null): string | null {
  if (!utm) return null;
  const params = new URLSearchParams();
  for (const field of UTM_FIELDS) if (utm[field] !== undefined) params.append(field, utm[field]);
  const query = params.toString();
  return query === '' ? null : query;
}
