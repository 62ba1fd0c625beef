// Input schemas for webhooks, for REST and GraphQL alike. The URL's SSRF policy depends on the
// configuration, so the service checks it after these (and reports its problems with theirs).
import { z } from 'zod';
import { httpUrlSchema } from '../../shared/url.ts';
import { DELIVERY_STATUSES, EVENT_TYPES } from './model.ts';

const oneOf = (values: readonly string[]) => ({ error: `must be one of ${values.join(', ')}` });

/** At most this many codes per endpoint filter. */
export const MAX_CODE_IDS = 100;

const eventsSchema = z
  .array(z.enum(EVENT_TYPES, oneOf(EVENT_TYPES)), { error: 'must be an array of event types' })
  .min(1, 'must name at least one event type')
  .transform((events) => [...new Set(events)]);

const codeIdsSchema = z
  .array(z.string().min(1, 'must not be empty').max(32, 'is not a code id'), { error: 'must be an array of code ids, or null for every code' })
  .min(1, 'must name at least one code, or be null for every code')
  .max(MAX_CODE_IDS, `must name at most ${MAX_CODE_IDS} codes`)
  .transform((ids) => [...new Set(ids)]);

const descriptionSchema = z.string().trim().max(500, 'must be at most 500 characters');

export const createWebhookSchema = z.strictObject({
  url: httpUrlSchema,
  events: eventsSchema,
  code_ids: codeIdsSchema.nullable().optional(),
  description: descriptionSchema.nullable().optional(),
});
export type CreateWebhookInput = z.output<typeof createWebhookSchema>;

export const updateWebhookSchema = z.strictObject({
  url: httpUrlSchema.optional(),
  events: eventsSchema.optional(),
  /** null lifts the filter: every code of the account. */
  code_ids: codeIdsSchema.nullable().optional(),
  description: descriptionSchema.nullable().optional(),
  /** true also resumes the deliveries paused while the endpoint was disabled. */
  enabled: z.boolean({ error: 'must be true or false' }).optional(),
});
export type UpdateWebhookInput = z.output<typeof updateWebhookSchema>;

export const MAX_PAGE_SIZE = 100;
export const DEFAULT_PAGE_SIZE = 20;

const limitSchema = z.coerce
  .number({ error: 'must be a number' })
  .int('must be a whole number')
  .min(1, 'must be at least 1')
  .max(MAX_PAGE_SIZE, `must be at most ${MAX_PAGE_SIZE}`)
  .default(DEFAULT_PAGE_SIZE);

export const listWebhooksSchema = z.strictObject({
  limit: limitSchema,
  cursor: z.string().max(200).optional(),
});

export const listDeliveriesSchema = z.strictObject({
  limit: limitSchema,
  cursor: z.string().max(200).optional(),
  status: z.enum(DELIVERY_STATUSES, oneOf(DELIVERY_STATUSES)).optional(),
});
