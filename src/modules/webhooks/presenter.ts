// The public JSON of webhooks and their deliveries. The secret is never part of it: it is
// shown once, beside the webhook, when created or rotated.
import type { Delivery, DeliveryDetail, Webhook } from './model.ts';

const iso = (date: Date | null) => date?.toISOString() ?? null;

export function presentWebhook(webhook: Webhook) {
  return {
    id: webhook.id,
    object: 'webhook' as const,
    url: webhook.url,
    description: webhook.description,
    events: webhook.events,
    code_ids: webhook.codeIds,
    enabled: webhook.enabled,
    disabled_reason: webhook.disabledReason,
    disabled_at: iso(webhook.disabledAt),
    failing_since: iso(webhook.failingSince),
    previous_secret_expires_at: webhook.previousSecretExpiresAt && webhook.previousSecretExpiresAt > new Date() ? iso(webhook.previousSecretExpiresAt) : null,
    created_at: webhook.createdAt.toISOString(),
    updated_at: webhook.updatedAt.toISOString(),
  };
}

export function presentDelivery(delivery: Delivery) {
  const delivering = delivery.status === 'delivering';
  return {
    id: delivery.id,
    object: 'webhook_delivery' as const,
    webhook_id: delivery.endpointId,
    event: { id: delivery.eventId, type: delivery.eventType, created_at: delivery.eventCreatedAt.toISOString() },
    status: delivery.status,
    attempts: delivery.attempts,
    // While delivering, next_attempt_at holds the worker's lease, not a planned retry.
    next_attempt_at: delivering ? null : iso(delivery.nextAttemptAt),
    last_attempt_at: iso(delivery.lastAttemptAt),
    last_response_status: delivery.lastResponseStatus,
    last_duration_ms: delivery.lastDurationMs,
    last_error: delivery.lastError,
    delivered_at: iso(delivery.deliveredAt),
    created_at: delivery.createdAt.toISOString(),
  };
}

export function presentDeliveryDetail(delivery: DeliveryDetail) {
  return {
    ...presentDelivery(delivery),
    event: { id: delivery.eventId, type: delivery.eventType, created_at: delivery.eventCreatedAt.toISOString(), data: delivery.data },
    attempt_history: delivery.history.map((a) => ({
      attempt: a.attempt,
      started_at: a.startedAt.toISOString(),
      response_status: a.responseStatus,
      duration_ms: a.durationMs,
      error: a.error,
    })),
  };
}
