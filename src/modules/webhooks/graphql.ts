// GraphQL types and operations for webhooks (the same service as REST) and the live scan
// stream, Subscription.scanCreated, served over graphql-yoga's server-sent events.
import type { DefaultConnectionArguments } from '@pothos/plugin-relay';
import { builder } from '../../graphql/builder.ts';
import { points } from '../../graphql/cost.ts';
import { enumOf } from '../../graphql/enums.ts';
import { connectionOf, forwardOnly, orNull } from '../../graphql/pages.ts';
import { guardedStream } from '../../graphql/guarded-stream.ts';
import { scoped } from '../../graphql/scoped.ts';
import { compact, snakeKeys } from '../../graphql/inputs.ts';
import { zodInputType } from '../../graphql/zod-inputs.ts';
import { parseInput } from '../../shared/validation.ts';
import { CITY_DESCRIPTION, REGION_DESCRIPTION } from '../scans/index.ts';
import type { ScanPayload } from './live.ts';
import { createWebhookSchema, listDeliveriesSchema, listWebhooksSchema, updateWebhookSchema } from './schemas.ts';
import type { Attempt, Delivery, DeliveryDetail, Webhook } from './model.ts';
import { deliveryStatusSchema, plannedNextAttempt, previousSecretExpiry, scanOutcomeSchema } from './presenter.ts';
import type { WebhooksService, WebhookWithSecret } from './service.ts';

// What this module's resolvers find in the context (graphql/context.ts explains the merging).
declare module '../../graphql/context.ts' {
  interface GraphQLServices {
    webhooks: WebhooksService;
  }
}

const EVENTS_HELP = 'scan.created, code.created, code.updated, code.deleted, codes.bulk_created';

const DeliveryStatus = enumOf('WebhookDeliveryStatus', deliveryStatusSchema);
const ScanOutcome = enumOf('ScanOutcome', scanOutcomeSchema);

const WebhookDeliveryAttemptRef = builder.objectRef<Attempt>('WebhookDeliveryAttempt').implement({
  fields: (t) => ({
    attempt: t.exposeInt('attempt'),
    startedAt: t.field({ type: 'DateTime', resolve: (a) => a.startedAt }),
    responseStatus: t.exposeInt('responseStatus', { nullable: true, description: 'Null when no answer came.' }),
    durationMs: t.exposeInt('durationMs'),
    error: t.exposeString('error', { nullable: true }),
  }),
});

const isDetail = (delivery: Delivery): delivery is DeliveryDetail => 'history' in delivery;

const WebhookDeliveryRef = builder.objectRef<Delivery>('WebhookDelivery').implement({
  description: 'One event sent to one endpoint: its state, retries and attempts.',
  fields: (t) => ({
    id: t.exposeID('id'),
    webhookId: t.exposeID('endpointId'),
    eventId: t.exposeID('eventId', { description: 'Sent as webhook-id; the same on every attempt.' }),
    eventType: t.exposeString('eventType'),
    eventCreatedAt: t.field({ type: 'DateTime', resolve: (d) => d.eventCreatedAt }),
    status: t.expose('status', {
      type: DeliveryStatus,
      description: 'pending, delivering, succeeded, failed or paused (endpoint disabled)',
    }),
    attempts: t.exposeInt('attempts'),
    nextAttemptAt: t.field({ type: 'DateTime', nullable: true, resolve: plannedNextAttempt }),
    lastAttemptAt: t.field({ type: 'DateTime', nullable: true, resolve: (d) => d.lastAttemptAt }),
    lastResponseStatus: t.exposeInt('lastResponseStatus', { nullable: true }),
    lastDurationMs: t.exposeInt('lastDurationMs', { nullable: true }),
    lastError: t.exposeString('lastError', { nullable: true }),
    deliveredAt: t.field({ type: 'DateTime', nullable: true, resolve: (d) => d.deliveredAt }),
    createdAt: t.field({ type: 'DateTime', resolve: (d) => d.createdAt }),
    eventData: t.field({
      type: 'JSON',
      description: "The event's data (one extra query per delivery in a list).",
      extensions: points(1),
      // Reachable from mutations too (retryWebhookDelivery): a write scope alone does not read events.
      resolve: scoped(
        'webhooks:read',
        async (d, _args, ctx) =>
          (isDetail(d) ? d : await ctx.services.webhooks.delivery(ctx.principal, d.endpointId, d.id)).data,
      ),
    }),
    attemptHistory: t.field({
      type: [WebhookDeliveryAttemptRef],
      description: 'Every attempt, oldest first (one extra query per delivery in a list).',
      extensions: points(1),
      resolve: scoped(
        'webhooks:read',
        async (d, _args, ctx) =>
          (isDetail(d) ? d : await ctx.services.webhooks.delivery(ctx.principal, d.endpointId, d.id)).history,
      ),
    }),
  }),
});

export const WebhookRef = builder.objectRef<Webhook>('Webhook').implement({
  description: 'An endpoint that receives signed events. Its secret is shown only when created or rotated.',
  fields: (t) => ({
    id: t.exposeID('id'),
    url: t.exposeString('url'),
    description: t.exposeString('description', { nullable: true }),
    events: t.exposeStringList('events'),
    codeIds: t.exposeIDList('codeIds', {
      nullable: true,
      description: 'Only events about these codes; null for every code.',
    }),
    enabled: t.exposeBoolean('enabled'),
    disabledReason: t.exposeString('disabledReason', { nullable: true }),
    disabledAt: t.field({ type: 'DateTime', nullable: true, resolve: (w) => w.disabledAt }),
    failingSince: t.field({ type: 'DateTime', nullable: true, resolve: (w) => w.failingSince }),
    previousSecretExpiresAt: t.field({
      type: 'DateTime',
      nullable: true,
      description: 'While set, the previous secret signs beside the current one.',
      resolve: previousSecretExpiry,
    }),
    createdAt: t.field({ type: 'DateTime', resolve: (w) => w.createdAt }),
    updatedAt: t.field({ type: 'DateTime', resolve: (w) => w.updatedAt }),
    deliveries: t.connection({
      type: WebhookDeliveryRef,
      description: 'Newest first. Forward pagination only.',
      // One query per webhook it is asked of.
      extensions: points(1),
      args: {
        status: t.arg({
          type: DeliveryStatus,
          required: false,
          description: 'pending, delivering, succeeded, failed or paused',
        }),
      },
      // Reachable from mutations too (createWebhook, updateWebhook): a write scope alone does not read deliveries.
      resolve: scoped('webhooks:read', async (webhook, args, ctx) => {
        forwardOnly(args);
        const page = await ctx.services.webhooks.deliveries(
          ctx.principal,
          webhook.id,
          parseInput(
            listDeliveriesSchema,
            compact({ limit: args.first ?? undefined, cursor: args.after ?? undefined, status: args.status }),
          ),
        );
        return connectionOf(page, args.after);
      }),
    }),
  }),
});

const WebhookWithSecretRef = builder.objectRef<WebhookWithSecret>('WebhookWithSecret').implement({
  fields: (t) => ({
    webhook: t.field({ type: WebhookRef, resolve: (r) => r.webhook }),
    secret: t.exposeString('secret', { description: 'whsec_…: shown this once; verify signatures with it.' }),
  }),
});

const ScanCreatedRef = builder.objectRef<ScanPayload>('ScanCreatedEvent').implement({
  description: 'A scan, as the scan.created webhook carries it.',
  fields: (t) => ({
    codeId: t.exposeID('code_id'),
    scanUrl: t.exposeString('scan_url'),
    destination: t.exposeString('destination', {
      nullable: true,
      description: 'Null when the scan got the paused or expired page, or the unlock page (locked).',
    }),
    outcome: t.expose('outcome', {
      type: ScanOutcome,
      description:
        'redirect, paused, expired or limit_reached; locked for a locked view (the unlock page, not a scan).',
    }),
    unlocked: t.exposeBoolean('unlocked', {
      description: 'The code asks for a password and this scan had given it (the form, or the remembered unlock).',
    }),
    ruleId: t.exposeID('rule_id', { nullable: true }),
    country: t.exposeString('country', { nullable: true }),
    region: t.exposeString('region', { nullable: true, description: REGION_DESCRIPTION }),
    city: t.exposeString('city', { nullable: true, description: CITY_DESCRIPTION }),
    device: t.exposeString('device', { nullable: true }),
    os: t.exposeString('os', { nullable: true }),
    browser: t.exposeString('browser', { nullable: true }),
    referrerHost: t.exposeString('referrer_host', { nullable: true }),
    language: t.exposeString('language', { nullable: true }),
    isBot: t.exposeBoolean('is_bot'),
    scannedAt: t.field({ type: 'DateTime', resolve: (s) => new Date(s.scanned_at) }),
  }),
});

// Code ids are IDs here, as everywhere in the schema; the zod side takes them as strings.
const CreateWebhookInput = zodInputType('CreateWebhookInput', createWebhookSchema, {
  types: { codeIds: ['ID'] },
  descriptions: {
    url: 'https:// (http:// only in development or with ALLOW_PRIVATE_NETWORK_TARGETS).',
    events: EVENTS_HELP,
    codeIds: 'Only events about these codes.',
  },
});

const UpdateWebhookInput = zodInputType('UpdateWebhookInput', updateWebhookSchema, {
  description: 'Omitted fields stay; codeIds: null lifts the filter, description: null clears it.',
  types: { codeIds: ['ID'] },
  descriptions: { events: EVENTS_HELP, enabled: 'true also resumes deliveries paused while disabled.' },
  zodDescriptions: false,
});

const DeleteWebhookPayload = builder.objectRef<{ deletedId: string }>('DeleteWebhookPayload').implement({
  fields: (t) => ({ deletedId: t.exposeID('deletedId') }),
});

/** Where an explicit null in updateWebhook means "clear"; elsewhere absent and null both mean "leave as is". */
const NULL_CLEARS_ON_UPDATE = ['codeIds', 'description'];

builder.queryFields((t) => ({
  webhooks: t.connection({
    type: WebhookRef,
    description: "The caller's webhook endpoints, newest first. Forward pagination only.",
    // Without arguments of its own the connection's args need naming for the scope wrapper.
    resolve: scoped('webhooks:read', async (_root, args: DefaultConnectionArguments, ctx) => {
      forwardOnly(args);
      const page = await ctx.services.webhooks.list(
        ctx.principal,
        parseInput(listWebhooksSchema, compact({ limit: args.first ?? undefined, cursor: args.after ?? undefined })),
      );
      return connectionOf(page, args.after);
    }),
  }),
  webhook: t.field({
    type: WebhookRef,
    nullable: true,
    args: { id: t.arg.id({ required: true }) },
    resolve: scoped('webhooks:read', (_root, { id }, ctx) =>
      orNull(ctx.services.webhooks.get(ctx.principal, String(id))),
    ),
  }),
  webhookDelivery: t.field({
    type: WebhookDeliveryRef,
    nullable: true,
    args: { webhookId: t.arg.id({ required: true }), deliveryId: t.arg.id({ required: true }) },
    resolve: scoped('webhooks:read', (_root, { webhookId, deliveryId }, ctx) =>
      orNull(ctx.services.webhooks.delivery(ctx.principal, String(webhookId), String(deliveryId))),
    ),
  }),
}));

builder.mutationFields((t) => ({
  createWebhook: t.field({
    type: WebhookWithSecretRef,
    description: 'Registers an endpoint; the answer carries its signing secret, shown this once.',
    args: { input: t.arg({ type: CreateWebhookInput, required: true }) },
    resolve: scoped('webhooks:write', (_root, { input }, ctx) =>
      ctx.services.webhooks.create(ctx.principal, parseInput(createWebhookSchema, snakeKeys(input))),
    ),
  }),
  updateWebhook: t.field({
    type: WebhookRef,
    args: { id: t.arg.id({ required: true }), input: t.arg({ type: UpdateWebhookInput, required: true }) },
    resolve: scoped('webhooks:write', (_root, { id, input }, ctx) =>
      ctx.services.webhooks.update(
        ctx.principal,
        String(id),
        parseInput(updateWebhookSchema, snakeKeys(input, NULL_CLEARS_ON_UPDATE)),
      ),
    ),
  }),
  deleteWebhook: t.field({
    type: DeleteWebhookPayload,
    args: { id: t.arg.id({ required: true }) },
    resolve: scoped('webhooks:write', async (_root, { id }, ctx) => {
      await ctx.services.webhooks.remove(ctx.principal, String(id));
      return { deletedId: String(id) };
    }),
  }),
  rotateWebhookSecret: t.field({
    type: WebhookWithSecretRef,
    description: 'A new secret; the previous one keeps signing beside it for 24 hours.',
    args: { id: t.arg.id({ required: true }) },
    resolve: scoped('webhooks:write', (_root, { id }, ctx) =>
      ctx.services.webhooks.rotateSecret(ctx.principal, String(id)),
    ),
  }),
  testWebhook: t.field({
    type: WebhookDeliveryRef,
    description: 'Sends a webhook.test event now; answers the delivery after the attempt.',
    args: { id: t.arg.id({ required: true }) },
    resolve: scoped('webhooks:write', (_root, { id }, ctx) => ctx.services.webhooks.test(ctx.principal, String(id))),
  }),
  retryWebhookDelivery: t.field({
    type: WebhookDeliveryRef,
    description: 'Sends a delivery again now, with the same webhook-id.',
    args: { webhookId: t.arg.id({ required: true }), deliveryId: t.arg.id({ required: true }) },
    resolve: scoped('webhooks:write', (_root, { webhookId, deliveryId }, ctx) =>
      ctx.services.webhooks.retry(ctx.principal, String(webhookId), String(deliveryId)),
    ),
  }),
}));

// The schema's only subscription root; other modules add fields with builder.subscriptionFields.
builder.subscriptionType({});

builder.subscriptionFields((t) => ({
  scanCreated: t.field({
    type: ScanCreatedRef,
    description:
      "The caller's scans as they are recorded (within about SCAN_FLUSH_INTERVAL_MS), of every code or of one. Over " +
      'server-sent events: send Accept: text/event-stream.',
    args: { codeId: t.arg.id({ required: false }) },
    subscribe: scoped('analytics:read', async (_root, { codeId }, ctx) =>
      guardedStream(await ctx.services.webhooks.subscribeScans(ctx.principal, codeId == null ? null : String(codeId)), {
        recheckMs: Math.max(100, ctx.services.config.apiKeyCacheTtlMs),
        maxMs: ctx.services.config.graphqlStreamMaxMs,
        stillAllowed: async () => {
          const now = await ctx.reauthenticate();
          return now !== null && now.accountId === ctx.principal.accountId && now.scopes.has('analytics:read');
        },
      }),
    ),
    resolve: (scan: ScanPayload) => scan,
  }),
}));
