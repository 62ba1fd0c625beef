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
  .array(z.string().min(1, 'must not be empty').max(32, 'is not a code id'), {
    error: 'must be an array of code ids, or null for every code',
  })
  .min(1, 'must name at least one code, or be null for every code')
  .max(MAX_CODE_IDS, `must name at most ${MAX_CODE_IDS} codes`)
  .transform((ids) => [...new Set(ids)]);

const descriptionSchema = z.string().trim().max(500, 'must be at most 500 characters');

const urlDoc = {
  description:
    'Where to POST events: https:// (http:// only in development or with ALLOW_PRIVATE_NETWORK_TARGETS), never a ' +
    'private or internal address.',
  example: 'https://crm.example.com/hooks/qr',
};
const eventsDoc = {
  description: 'The event types to receive; duplicates are dropped.',
  example: ['scan.created', 'code.updated'],
};
const codeIdsDoc = {
  description:
    `Only events about these codes of the account (at most ${MAX_CODE_IDS}); null or omitted for every ` + `code.`,
};

export const createWebhookSchema = z.strictObject({
  url: httpUrlSchema.meta(urlDoc),
  events: eventsSchema.meta(eventsDoc),
  code_ids: codeIdsSchema.nullable().optional().meta(codeIdsDoc),
  description: descriptionSchema.nullable().optional().meta({ example: 'CRM sync' }),
});
export type CreateWebhookInput = z.output<typeof createWebhookSchema>;

export const updateWebhookSchema = z.strictObject({
  url: httpUrlSchema.optional().meta(urlDoc),
  events: eventsSchema.optional().meta(eventsDoc),
  /** null lifts the filter: every code of the account. */
  code_ids: codeIdsSchema
    .nullable()
    .optional()
    .meta({
      description:
        `Only events about these codes (at most ${MAX_CODE_IDS}); null lifts the filter: every code of ` +
        `the account.`,
    }),
  description: descriptionSchema.nullable().optional(),
  /** true also resumes the deliveries paused while the endpoint was disabled. */
  enabled: z.boolean({ error: 'must be true or false' }).optional().meta({
    description:
      '`false` disables the endpoint and pauses its waiting deliveries; `true` enables it again and resumes them.',
  }),
});
export type UpdateWebhookInput = z.output<typeof updateWebhookSchema>;

export const MAX_PAGE_SIZE = 100;
export const DEFAULT_PAGE_SIZE = 20;

const limitSchema = z.coerce
  .number({ error: 'must be a number' })
  .int('must be a whole number')
  .min(1, 'must be at least 1')
  .max(MAX_PAGE_SIZE, `must be at most ${MAX_PAGE_SIZE}`)
  .default(DEFAULT_PAGE_SIZE)
  .meta({ description: `Items per page, 1 to ${MAX_PAGE_SIZE}.` });

const cursorSchema = z.string().max(200).optional().meta({ description: 'The `next_cursor` of the previous page.' });

export const listWebhooksSchema = z.strictObject({
  limit: limitSchema,
  cursor: cursorSchema,
});
export type ListWebhooksQuery = z.output<typeof listWebhooksSchema>;

export const listDeliveriesSchema = z.strictObject({
  limit: limitSchema,
  cursor: cursorSchema,
  status: z
    .enum(DELIVERY_STATUSES, oneOf(DELIVERY_STATUSES))
    .optional()
    .meta({ description: 'Only deliveries in this state.' }),
});
export type ListDeliveriesQuery = z.output<typeof listDeliveriesSchema>;
