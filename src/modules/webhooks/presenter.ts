// The public JSON of webhooks and their deliveries, and the bodies of the events this service
// sends. The zod schemas are the contract (they feed the OpenAPI document); the presenters'
// return types are inferred from them, so the two cannot drift apart. The secret is never part
// of a webhook's JSON: it is shown once, beside the webhook, when created or rotated.
import { z } from 'zod';
import { citySchema, regionSchema } from '../scans/index.ts';
import { codeResourceSchema } from '../codes/index.ts';
import { CODE_TYPES } from '../codes/index.ts';
import type { ScanPayload } from './live.ts';
import {
  DELIVERY_STATUSES,
  EVENT_TYPES,
  TEST_EVENT,
  type Delivery,
  type DeliveryDetail,
  type Webhook,
} from './model.ts';
import { SCAN_EVENT_OUTCOMES } from '../scans/index.ts';

const iso = (date: Date | null) => date?.toISOString() ?? null;
const instant = z.iso.datetime();

export const webhookResourceSchema = z
  .object({
    id: z.string().meta({ example: 'wh_5kQ2mX8pL4fT9aB3dE7g' }),
    object: z.literal('webhook'),
    url: z.string().meta({ description: 'Where events are POSTed.', example: 'https://crm.example.com/hooks/qr' }),
    description: z.string().nullable().meta({ example: 'CRM sync' }),
    events: z
      .array(z.enum(EVENT_TYPES))
      .meta({ description: 'The event types this endpoint receives.', example: ['scan.created', 'code.updated'] }),
    code_ids: z
      .array(z.string())
      .nullable()
      .meta({ description: 'Only events about these codes; null for every code of the account.' }),
    enabled: z.boolean().meta({
      description:
        'False once disabled, through the API or automatically after failing for too long; nothing is sent ' +
        'meanwhile.',
    }),
    disabled_reason: z.string().nullable().meta({ description: 'Why the endpoint was disabled; null while enabled.' }),
    disabled_at: instant.nullable(),
    failing_since: instant
      .nullable()
      .meta({ description: 'The first failed attempt since the last success; null while the endpoint is healthy.' }),
    previous_secret_expires_at: instant.nullable().meta({
      description:
        'After a secret rotation, until when the previous secret still signs beside the new one; null otherwise.',
    }),
    created_at: instant,
    updated_at: instant,
  })
  .meta({ id: 'Webhook', description: 'An endpoint that receives signed events.' });
export type WebhookJson = z.output<typeof webhookResourceSchema>;

export const webhookWithSecretSchema = webhookResourceSchema
  .extend({
    secret: z.string().meta({
      description:
        'The signing secret (Standard Webhooks: `whsec_` and base64). Shown only in this answer; store it now.',
      example: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw/9xpAyxSCTk=',
    }),
  })
  .meta({
    id: 'WebhookWithSecret',
    description: 'A webhook with its signing secret, shown once: when it is created and when its secret is rotated.',
  });

export const deliveryEventTypeSchema = z.enum([...EVENT_TYPES, TEST_EVENT]).meta({ id: 'WebhookEventType' });

/** Where a delivery stands (GraphQL's WebhookDeliveryStatus too). */
export const deliveryStatusSchema = z.enum(DELIVERY_STATUSES).meta({
  description:
    '`pending`: waiting for its first attempt or a retry; `delivering`: an attempt is under way; `succeeded`: a 2xx ' +
    'answer; `failed`: every attempt failed; `paused`: the endpoint is disabled.',
});

export const deliveryResourceSchema = z
  .object({
    id: z.string().meta({ example: 'dlv_8dK2pQ7wZ1xY4vB6nM0c' }),
    object: z.literal('webhook_delivery'),
    webhook_id: z.string().meta({ example: 'wh_5kQ2mX8pL4fT9aB3dE7g' }),
    event: z.object({
      id: z
        .string()
        .meta({ description: 'Also the `webhook-id` header of every attempt.', example: 'evt_3fT9kQ2mX8pL4aB7dE5g' }),
      type: deliveryEventTypeSchema,
      created_at: instant,
    }),
    status: deliveryStatusSchema,
    attempts: z.int().meta({ description: 'Attempts made so far.' }),
    next_attempt_at: instant
      .nullable()
      .meta({ description: 'When the next attempt is due; null when none is planned.' }),
    last_attempt_at: instant.nullable(),
    last_response_status: z
      .int()
      .nullable()
      .meta({ description: 'The receiver’s status at the last attempt; null when no answer came.' }),
    last_duration_ms: z.int().nullable(),
    last_error: z
      .string()
      .nullable()
      .meta({ description: 'Why the last attempt failed; null after a success.', example: 'HTTP 503' }),
    delivered_at: instant.nullable(),
    created_at: instant,
  })
  .meta({ id: 'WebhookDelivery', description: 'One event’s delivery to one endpoint.' });
export type DeliveryJson = z.output<typeof deliveryResourceSchema>;

export const attemptResourceSchema = z
  .object({
    attempt: z.int().meta({ description: '1 for the first attempt.' }),
    started_at: instant,
    response_status: z
      .int()
      .nullable()
      .meta({ description: 'Null when no answer came (timeout, connection failure, refused target).' }),
    duration_ms: z.int(),
    error: z.string().nullable().meta({ description: 'Null for a 2xx answer.', example: 'no answer within 10 s' }),
  })
  .meta({ id: 'WebhookDeliveryAttempt' });

export const deliveryDetailSchema = deliveryResourceSchema
  .extend({
    event: deliveryResourceSchema.shape.event.extend({
      data: z.unknown().meta({
        description: 'The event’s `data`, exactly as sent (see the webhooks of this document for each type’s).',
      }),
    }),
    attempt_history: z.array(attemptResourceSchema).meta({ description: 'Every attempt, oldest first.' }),
  })
  .meta({ id: 'WebhookDeliveryDetail', description: 'A delivery with its event’s data and every attempt.' });
export type DeliveryDetailJson = z.output<typeof deliveryDetailSchema>;

/**
 * Until when the previous secret still signs after a rotation; null once the overlap is over (both transports show
 * this).
 */
export const previousSecretExpiry = (webhook: Webhook): Date | null =>
  webhook.previousSecretExpiresAt && webhook.previousSecretExpiresAt > new Date()
    ? webhook.previousSecretExpiresAt
    : null;

/**
 * When the next attempt is due; null while delivering, when next_attempt_at holds the worker's lease, not a planned
 * retry.
 */
export const plannedNextAttempt = (delivery: Delivery): Date | null =>
  delivery.status === 'delivering' ? null : delivery.nextAttemptAt;

export function presentWebhook(webhook: Webhook): WebhookJson {
  return {
    id: webhook.id,
    object: 'webhook',
    url: webhook.url,
    description: webhook.description,
    events: webhook.events,
    code_ids: webhook.codeIds,
    enabled: webhook.enabled,
    disabled_reason: webhook.disabledReason,
    disabled_at: iso(webhook.disabledAt),
    failing_since: iso(webhook.failingSince),
    previous_secret_expires_at: iso(previousSecretExpiry(webhook)),
    created_at: webhook.createdAt.toISOString(),
    updated_at: webhook.updatedAt.toISOString(),
  };
}

export function presentDelivery(delivery: Delivery): DeliveryJson {
  return {
    id: delivery.id,
    object: 'webhook_delivery',
    webhook_id: delivery.endpointId,
    event: { id: delivery.eventId, type: delivery.eventType, created_at: delivery.eventCreatedAt.toISOString() },
    status: delivery.status,
    attempts: delivery.attempts,
    next_attempt_at: iso(plannedNextAttempt(delivery)),
    last_attempt_at: iso(delivery.lastAttemptAt),
    last_response_status: delivery.lastResponseStatus,
    last_duration_ms: delivery.lastDurationMs,
    last_error: delivery.lastError,
    delivered_at: iso(delivery.deliveredAt),
    created_at: delivery.createdAt.toISOString(),
  };
}

export function presentDeliveryDetail(delivery: DeliveryDetail): DeliveryDetailJson {
  return {
    ...presentDelivery(delivery),
    event: {
      id: delivery.eventId,
      type: delivery.eventType,
      created_at: delivery.eventCreatedAt.toISOString(),
      data: delivery.data,
    },
    attempt_history: delivery.history.map((a) => ({
      attempt: a.attempt,
      started_at: a.startedAt.toISOString(),
      response_status: a.responseStatus,
      duration_ms: a.durationMs,
      error: a.error,
    })),
  };
}

// ---------------------------------------------------------------------------------------------
// The events: what a receiver gets in the body of each POST, `{ type, timestamp, data }`
// (signature.ts eventBody). The `data` of each type is what outbox.ts and service.ts write.

/** What a scan was answered (GraphQL's ScanOutcome too). */
export const scanOutcomeSchema = z.enum(SCAN_EVENT_OUTCOMES).meta({
  description:
    'redirect: to the code’s destination (or a rule’s); paused, expired, limit_reached: the code was, and the ' +
    'scan went to its fallback destination or got the page; locked: a password-protected code’s unlock page was ' +
    'shown (a locked view: not a scan, not in scan analytics; the scan follows once the password is given).',
});

const UNLOCKED_DESCRIPTION =
  'True when the code asks for a password and this scan had given it (on the unlock page, or earlier: the unlock ' +
  'is remembered in a cookie); false otherwise.';

/** The `data` of scan.created (outbox.ts scanPayload, also Subscription.scanCreated). */
export const scanEventDataSchema = z
  .object({
    code_id: z.string().meta({ example: 'qr_4fT9kQ2mX8pL' }),
    scan_url: z.string().meta({ example: 'https://qr.example.com/aB3dE5f' }),
    destination: z
      .string()
      .nullable()
      .meta({
        description:
          'Where the visitor was sent; null when the code was paused, expired or out of scans and had no fallback ' +
          'destination (the visitor got a page saying so), and for a locked view (the unlock page).',
        example: 'https://example.de/fruehling',
      }),
    outcome: scanOutcomeSchema,
    unlocked: z.boolean().meta({ description: UNLOCKED_DESCRIPTION }),
    rule_id: z
      .string()
      .nullable()
      .meta({ description: 'The routing rule that chose the destination; null for the default destination.' }),
    country: z.string().nullable().meta({ description: 'ISO 3166-1 alpha-2, when known.', example: 'DE' }),
    region: regionSchema,
    city: citySchema,
    device: z.string().nullable().meta({ example: 'mobile' }),
    os: z.string().nullable().meta({ example: 'iOS' }),
    browser: z.string().nullable().meta({ example: 'Safari' }),
    referrer_host: z.string().nullable().meta({ example: 'news.example.org' }),
    language: z.string().nullable().meta({ description: 'The preferred language’s primary subtag.', example: 'de' }),
    is_bot: z.boolean(),
    scanned_at: instant,
  })
  .meta({ id: 'ScanEventData', description: 'One scan; no address and no raw User-Agent are ever kept or sent.' });

/** The `data` of codes.bulk_created (outbox.ts): the batch's codes, ids and scan URLs only. */
export const bulkCreatedEventDataSchema = z
  .object({
    object: z.literal('batch'),
    batch_id: z.string().meta({ example: 'batch_7hJ3kL9mN2pQ4rS6tV8w' }),
    count: z.int().meta({ description: 'How many codes the call created (up to 10,000).' }),
    codes: z.array(
      z.object({
        id: z.string(),
        type: z.enum(CODE_TYPES),
        scan_url: z.string().nullable().meta({ description: 'Null for static codes.' }),
      }),
    ),
  })
  .meta({
    id: 'BulkCreatedEventData',
    description: 'The codes of one bulk call; GET /codes/{id} has each whole code.',
  });

/** The `data` of webhook.test (service.ts test). */
export const testEventDataSchema = z
  .object({
    webhook_id: z.string().meta({ example: 'wh_5kQ2mX8pL4fT9aB3dE7g' }),
    message: z.string().meta({ example: 'A test event, sent on request. No action is needed.' }),
  })
  .meta({ id: 'TestEventData' });

/** The data schema of each event type; the code events carry the code as GET /codes/{id} shows it. */
export const EVENT_DATA_SCHEMAS = {
  'code.created': codeResourceSchema,
  'code.updated': codeResourceSchema,
  'code.deleted': codeResourceSchema,
  'codes.bulk_created': bulkCreatedEventDataSchema,
  'scan.created': scanEventDataSchema,
  [TEST_EVENT]: testEventDataSchema,
} as const satisfies Record<z.output<typeof deliveryEventTypeSchema>, z.ZodType>;

// The scan payload is built in outbox.ts against live.ts's ScanPayload: fail to compile if the
// two ever disagree, so the documented payload cannot drift from the one sent.
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const scanPayloadMatches: Same<z.output<typeof scanEventDataSchema>, ScanPayload> = true;
void scanPayloadMatches;
