// One attempt of a claimed delivery, whoever claimed it (a worker, or a test or retry call):
// sign, send, record the outcome, schedule the next try, and watch the endpoint's health.
import type { Logger } from 'pino';
import type { DeliveryOutcome } from '../../shared/metrics.ts';
import { activeSecrets } from './model.ts';
import { retryDelayMs } from './schedule.ts';
import type { AttemptResult } from './send.ts';
import { eventBody, signedHeaders } from './signature.ts';
import type { ClaimedDelivery, WebhooksStore } from './store.ts';

export type Send = (url: string, headers: Record<string, string>, body: string) => Promise<AttemptResult>;

/** What an attempt came to: retrying is a failure with another attempt scheduled. */

export interface DelivererDeps {
  store: WebhooksStore;
  send: Send;
  logger: Logger;
  /** WEBHOOK_RETRY_SCALE. */
  retryScale: number;
  /** WEBHOOK_DISABLE_AFTER_MS. */
  disableAfterMs: number;
  now?: () => Date;
  /** Told the outcome of every attempt recorded (for metrics). */
  onOutcome?: (outcome: DeliveryOutcome) => void;
}

const days = (ms: number) => {
  const d = ms / 86_400_000;
  return d >= 1 ? `${Number(d.toFixed(1))} days` : `${Math.round(ms / 1000)} s`;
};

export function createDeliverer({
  store,
  send,
  logger,
  retryScale,
  disableAfterMs,
  now = () => new Date(),
  onOutcome,
}: DelivererDeps) {
  /** Disables an endpoint whose every attempt has failed for WEBHOOK_DISABLE_AFTER_MS. */
  async function noteFailure(claimed: ClaimedDelivery, at: Date, error: string): Promise<void> {
    const since = await store.markFailing(claimed.endpoint.id, at);
    if (!since || at.getTime() - since.getTime() < disableAfterMs) return;
    const reason =
      `Disabled automatically on ${at.toISOString()}: every delivery attempt since ${since.toISOString()} failed ` +
      `(for ${days(at.getTime() - since.getTime())}; the last one: ${error}). Waiting deliveries are paused; ` +
      'PATCH the webhook with {"enabled": true} once the receiver works again to resume them.';
    await store.disableFailing(claimed.endpoint.id, reason.slice(0, 500), at);
    logger.warn(
      { webhook_id: claimed.endpoint.id, failing_since: since },
      'webhook endpoint disabled after failing for too long',
    );
  }

  return {
    /** Makes one attempt and records it; never throws for a failed attempt (that is data). */
    async attempt(claimed: ClaimedDelivery): Promise<void> {
      const { delivery, endpoint, lockedBy } = claimed;
      if (!endpoint.enabled) {
        await store.releasePaused(delivery.id, lockedBy);
        return;
      }
      const startedAt = now();
      const body = eventBody(delivery.eventType, delivery.eventCreatedAt, claimed.payload);
      const headers = signedHeaders(activeSecrets(endpoint, startedAt), delivery.eventId, startedAt, body);
      const result = await send(endpoint.url, headers, body);
      const attempt = delivery.attempts + 1;
      const delay = result.ok ? null : retryDelayMs(attempt, retryScale);
      const outcome: DeliveryOutcome = result.ok ? 'succeeded' : delay === null ? 'failed' : 'retrying';
      const finishedAt = now();
      const recorded = await store.recordAttempt({
        deliveryId: delivery.id,
        lockedBy,
        attempt: {
          attempt,
          worker: lockedBy,
          startedAt,
          responseStatus: result.status,
          durationMs: result.durationMs,
          error: result.error,
        },
        status: outcome === 'retrying' ? 'pending' : outcome,
        nextAttemptAt: delay === null ? null : new Date(finishedAt.getTime() + delay),
        deliveredAt: result.ok ? finishedAt : null,
      });
      // Our lease ran out and another worker took the delivery over (or the endpoint was deleted).
      if (!recorded) return;
      onOutcome?.(outcome);
      if (result.ok) {
        if (endpoint.failingSince) await store.markHealthy(endpoint.id);
      } else {
        await noteFailure(claimed, startedAt, result.error ?? 'failed');
      }
    },
  };
}

export type Deliverer = ReturnType<typeof createDeliverer>;
