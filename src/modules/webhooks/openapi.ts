// The webhooks operations in the OpenAPI document, and the events this service sends (the
// document's `webhooks`): the same schemas that validate the requests (schemas.ts) and shape
// the answers and event bodies (presenter.ts).
import { z } from 'zod';
import type { ZodOpenApiPathsObject } from 'zod-openapi';
import { codeResourceSchema } from '../codes/index.ts';
import {
  jsonResponse,
  listOf,
  operation,
  pathParams,
  resourceOperations,
  type OpenApiModule,
} from '../../http/openapi/common.ts';
import { MAX_ATTEMPTS } from './schedule.ts';
import { TEST_EVENT, type AnyEventType } from './model.ts';
import {
  deliveryDetailSchema,
  deliveryResourceSchema,
  EVENT_DATA_SCHEMAS,
  webhookResourceSchema,
  webhookWithSecretSchema,
} from './presenter.ts';
import { createWebhookSchema, listDeliveriesSchema, listWebhooksSchema, updateWebhookSchema } from './schemas.ts';

const TAG = 'Webhooks';

const webhookId = { description: 'The webhook’s id.', example: 'wh_5kQ2mX8pL4fT9aB3dE7g' };
const webhookIdParams = pathParams({ id: webhookId });
const deliveryParams = pathParams({
  id: webhookId,
  deliveryId: { description: 'The delivery’s id.', example: 'dlv_8dK2pQ7wZ1xY4vB6nM0c' },
});

const webhooks = resourceOperations({
  tag: TAG,
  resource: webhookResourceSchema,
  idParams: webhookIdParams,
  read: 'webhooks:read',
  write: 'webhooks:write',
  create: {
    operationId: 'createWebhook',
    summary: 'Register a webhook endpoint',
    description:
      'The answer carries the endpoint’s signing secret, shown only this once. The URL must be https:// and must ' +
      'not point to a private, loopback or internal address (checked again at every attempt). `code_ids` must be ' +
      'codes of this account.',
    body: createWebhookSchema.meta({
      id: 'CreateWebhook',
      example: {
        url: 'https://crm.example.com/hooks/qr',
        events: ['scan.created', 'code.updated'],
        description: 'CRM sync',
      },
    }),
    location: z.object({
      Location: z.string().meta({ description: 'The webhook’s URL.', example: '/v1/webhooks/wh_5kQ2mX8pL4fT9aB3dE7g' }),
    }),
    answer: webhookWithSecretSchema,
    answered: 'The new endpoint, with its secret.',
    problems: [422],
  },
  list: {
    operationId: 'listWebhooks',
    summary: 'List webhook endpoints',
    description: 'One page of the account’s endpoints, newest first. Secrets are never shown here.',
    query: listWebhooksSchema,
    listId: 'WebhookList',
    answered: 'One page of endpoints.',
    problems: [422],
  },
  get: {
    operationId: 'getWebhook',
    summary: 'Get a webhook endpoint',
    description: 'With `disabled_reason` when it was disabled, and `failing_since` while its deliveries fail.',
    answered: 'The endpoint.',
    problems: [404],
  },
  update: {
    operationId: 'updateWebhook',
    summary: 'Update a webhook endpoint',
    description:
      'Changes url, events, code_ids (null: every code) and description. `enabled: false` disables the endpoint and ' +
      'pauses its waiting deliveries; `enabled: true` enables it again (also after it was disabled ' +
      'automatically) and resumes them.',
    body: updateWebhookSchema.meta({
      id: 'UpdateWebhook',
      example: { events: ['code.updated', 'code.deleted'], enabled: true },
    }),
    answered: 'The updated endpoint.',
    problems: [404, 422],
  },
  remove: {
    operationId: 'deleteWebhook',
    summary: 'Delete a webhook endpoint',
    description: 'With its delivery log; nothing more is sent to it.',
    problems: [404],
  },
});

const ATTEMPT_NOW =
  'The attempt is made during the call (it takes at most the delivery timeout, WEBHOOK_TIMEOUT_MS, 10 s by ' +
  'default), and the answer is the delivery afterwards: ' +
  ('200 whether or not the receiver accepted it; its `status`, `last_response_status` and `last_error` tell. A ' +
    'failed attempt continues the retry schedule.');

// ---------------------------------------------------------------------------------------------
// The events. Every one is a POST of `{ type, timestamp, data }` signed per Standard Webhooks.

const signatureHeaders = z.object({
  'webhook-id': z.string().meta({
    description: 'The event’s id: the same on every attempt and replay of the event, so receivers deduplicate by it.',
    example: 'evt_3fT9kQ2mX8pL4aB7dE5g',
  }),
  'webhook-timestamp': z
    .string()
    .regex(/^\d+$/)
    .meta({
      description:
        'When this attempt was signed, in seconds since the epoch. Refuse timestamps far from now (Standard ' +
        'Webhooks suggests 5 minutes) against replays.',
      example: '1767225600',
    }),
  'webhook-signature': z.string().meta({
    description:
      '`v1,` and the base64 HMAC-SHA256 of `{webhook-id}.{webhook-timestamp}.{body}` under the secret’s bytes (the ' +
      'base64 after `whsec_`). Several space-separated signatures during a secret rotation: accept the request ' +
      'when any matches. Any Standard Webhooks (or Svix) library verifies it.',
    example: 'v1,K5oZfzN95Z9UVu1EsfQmfVNQhnkZ2pj9o9NDN/H/pI4=',
  }),
});

interface EventDoc {
  summary: string;
  description: string;
  name: string;
}

const EVENTS: Record<AnyEventType, EventDoc> = {
  'code.created': {
    name: 'CodeCreated',
    summary: 'A code was created',
    description:
      '`data` is the code as GET /codes/{id} answers it. Codes created by a bulk call send `codes.bulk_created` ' +
      'instead.',
  },
  'code.updated': {
    name: 'CodeUpdated',
    summary: 'A code was changed',
    description: '`data` is the code after the change, as GET /codes/{id} answers it.',
  },
  'code.deleted': {
    name: 'CodeDeleted',
    summary: 'A code was deleted',
    description: '`data` is the code as it was before the deletion.',
  },
  'codes.bulk_created': {
    name: 'CodesBulkCreated',
    summary: 'A bulk call created codes',
    description:
      'One event per bulk call, not one per code: `data` lists the codes’ ids, types and scan URLs (GET /codes/{id} ' +
      'has each whole code).',
  },
  'scan.created': {
    name: 'ScanCreated',
    summary: 'A code was scanned',
    description:
      'One event per recorded scan, sent once the scan batch is written (usually within a second). Bot scans are ' +
      'sent too, with `is_bot: true`.',
  },
  [TEST_EVENT]: {
    name: 'WebhookTest',
    summary: 'A test event, sent on request',
    description: 'Sent only by POST /webhooks/{id}/test, to that endpoint, whatever event types it subscribes to.',
  },
};

const DELIVERY_RULES =
  `Delivery is at least once: an event may arrive more than once (deduplicate by ` +
  `\`webhook-id\`) and events are not ordered (use \`timestamp\` and the data). Only a 2xx answer within the time ` +
  `limit (WEBHOOK_TIMEOUT_MS, 10 s by default) counts as delivered; redirects are not followed. Any other answer, ` +
  `a timeout or a connection failure is retried: ${MAX_ATTEMPTS} attempts in all, after 5 s, 5 min, 30 min, 2 h, 5 ` +
  `h, 10 h and 10 h (each ±20%), about 27.5 hours. An endpoint whose every attempt has failed for ` +
  `WEBHOOK_DISABLE_AFTER_MS (5 days by default) is disabled, and its waiting deliveries wait until it is enabled ` +
  `again.`;

/**
 * A reference to the response component of a schema. The code events carry a code exactly as
 * the codes operations answer it; used as is in a request body, zod-openapi would render it
 * for input too and rename the answers' component `CodeOutput`. So the event refers to it.
 */
function responseComponent(schema: z.ZodType) {
  const id = z.globalRegistry.get(schema)?.id;
  if (!id) throw new Error('responseComponent needs a schema with a .meta({ id })');
  return z.unknown().meta({ override: { $ref: `#/components/schemas/${id}` } });
}

function eventWebhooks(): ZodOpenApiPathsObject {
  const webhooks: ZodOpenApiPathsObject = {};
  for (const [type, doc] of Object.entries(EVENTS) as [AnyEventType, EventDoc][]) {
    const body = z
      .object({
        type: z.literal(type),
        timestamp: z.iso.datetime().meta({ description: 'When the event happened (the same on every attempt).' }),
        data:
          EVENT_DATA_SCHEMAS[type] === codeResourceSchema
            ? responseComponent(codeResourceSchema)
            : EVENT_DATA_SCHEMAS[type],
      })
      .meta({ id: `${doc.name}Event`, description: `The body of a \`${type}\` request.` });
    webhooks[type] = {
      post: {
        operationId: `${doc.name.charAt(0).toLowerCase()}${doc.name.slice(1)}Event`,
        summary: `${doc.summary} (${type})`,
        description: `${doc.description}\n\n${DELIVERY_RULES}`,
        tags: [TAG],
        security: [],
        requestParams: { header: signatureHeaders },
        requestBody: { required: true, content: { 'application/json': { schema: body } } },
        responses: {
          '2XX': { description: 'Delivered. The answer’s body is ignored.' },
          default: {
            description:
              'Not delivered (as are a redirect, a timeout and a connection failure): retried on the schedule above.',
          },
        },
      },
    };
  }
  return webhooks;
}

export const webhooksOpenApi: OpenApiModule = {
  tag: {
    name: TAG,
    description:
      'Endpoints that receive signed events (Standard Webhooks) when codes change or are scanned, and the log of ' +
      'every delivery; the events themselves are under Webhooks in this document.',
  },
  paths: {
    '/webhooks': webhooks.collection,
    '/webhooks/{id}': webhooks.item,
    '/webhooks/{id}/rotate-secret': {
      post: operation({
        operationId: 'rotateWebhookSecret',
        summary: 'Rotate a webhook’s signing secret',
        description:
          'A new secret, shown only in this answer. The previous one keeps signing beside it for 24 hours (each ' +
          'request carries both signatures in `webhook-signature`), so the receiver can switch without missing a ' +
          'delivery. No request body.',
        tag: TAG,
        scope: 'webhooks:write',
        requestParams: { path: webhookIdParams },
        responses: { '200': jsonResponse(webhookWithSecretSchema, 'The endpoint with its new secret.') },
        problems: [404],
      }),
    },
    '/webhooks/{id}/test': {
      post: operation({
        operationId: 'testWebhook',
        summary: 'Send a test event',
        description:
          `Sends a \`${TEST_EVENT}\` event to this endpoint now, whatever event types it subscribes to. ` +
          `${ATTEMPT_NOW} A disabled endpoint answers 409. No request body.`,
        tag: TAG,
        scope: 'webhooks:write',
        requestParams: { path: webhookIdParams },
        responses: { '200': jsonResponse(deliveryDetailSchema, 'The test delivery after its attempt.') },
        problems: [404, 409],
      }),
    },
    '/webhooks/{id}/deliveries': {
      get: operation({
        operationId: 'listWebhookDeliveries',
        summary: 'List an endpoint’s deliveries',
        description:
          'One page of the endpoint’s deliveries, newest first, optionally of one `status`. Finished deliveries are ' +
          'kept for WEBHOOK_RETENTION_DAYS (30 by default).',
        tag: TAG,
        scope: 'webhooks:read',
        requestParams: { path: webhookIdParams, query: listDeliveriesSchema },
        responses: {
          '200': jsonResponse(listOf(deliveryResourceSchema, 'WebhookDeliveryList'), 'One page of deliveries.'),
        },
        problems: [404, 422],
      }),
    },
    '/webhooks/{id}/deliveries/{deliveryId}': {
      get: operation({
        operationId: 'getWebhookDelivery',
        summary: 'Get a delivery',
        description: 'With the event’s data as sent and every attempt. A delivery of another endpoint is a 404.',
        tag: TAG,
        scope: 'webhooks:read',
        requestParams: { path: deliveryParams },
        responses: { '200': jsonResponse(deliveryDetailSchema, 'The delivery.') },
        problems: [404],
      }),
    },
    '/webhooks/{id}/deliveries/{deliveryId}/retry': {
      post: operation({
        operationId: 'retryWebhookDelivery',
        summary: 'Send a delivery again now',
        description:
          `Whatever its state: a failed one, a delivered one (a replay), or a pending one early; with ` +
          `the same \`webhook-id\`, so a receiver that deduplicates ignores a replay. ${ATTEMPT_NOW} 409 when the ` +
          `endpoint is disabled or the delivery is being sent right now. No request body.`,
        tag: TAG,
        scope: 'webhooks:write',
        requestParams: { path: deliveryParams },
        responses: { '200': jsonResponse(deliveryDetailSchema, 'The delivery after the attempt.') },
        problems: [404, 409],
      }),
    },
  },
  webhooks: eventWebhooks(),
};
