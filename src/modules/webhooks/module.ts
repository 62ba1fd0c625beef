// Wires webhooks together: store, live stream, outbox writer, deliverer, worker and service.
import type { Knex } from 'knex';
import type { Logger } from 'pino';
import type { Config } from '../../config.ts';
import type { DeliveryOutcome } from '../../shared/metrics.ts';
import type { OwnedCodeIds } from '../codes/index.ts';
import { createDeliverer } from './deliverer.ts';
import { createLiveScans } from './live.ts';
import { createOutbox } from './outbox.ts';
import { sendWebhook } from './send.ts';
import type { RecordAudit } from '../audit/index.ts';
import { createWebhooksService } from './service.ts';
import { createWebhooksStore } from './store.ts';
import type { Resolve, TargetPolicy } from './target.ts';
import { createDeliveryWorker } from './worker.ts';

/** A claim outlives the attempt's timeout by this much, for recording it. */
const LEASE_MARGIN_MS = 5000;

export type WebhooksConfig = Pick<
  Config,
  | 'nodeEnv'
  | 'publicBaseUrl'
  | 'allowPrivateNetworkTargets'
  | 'redisUrl'
  | 'webhookPollIntervalMs'
  | 'webhookConcurrency'
  | 'webhookTimeoutMs'
  | 'webhookRetryScale'
  | 'webhookDisableAfterMs'
  | 'webhookRetentionDays'
  | 'webhookEndpointsPerAccount'
>;

export interface WebhooksDeps {
  db: Knex;
  config: WebhooksConfig;
  logger: Logger;
  resolve?: Resolve;
  /** Which code ids an account owns (codes/store.ts createOwnedCodeIds): endpoints limited to codes name them. */
  ownedCodeIds: OwnedCodeIds;
  /** Records endpoint changes in the audit log, in the change's transaction. */
  audit: RecordAudit;
  /** Told the outcome of every delivery attempt recorded (for metrics). */
  onDeliveryOutcome?: (outcome: DeliveryOutcome) => void;
}

export function createWebhooks({ db, config, logger, resolve, ownedCodeIds, onDeliveryOutcome, audit }: WebhooksDeps) {
  const store = createWebhooksStore(db);
  const live = createLiveScans({ redisUrl: config.redisUrl, logger });
  const policy: TargetPolicy = {
    allowPrivateNetwork: config.allowPrivateNetworkTargets,
    allowHttp: config.allowPrivateNetworkTargets || config.nodeEnv === 'development',
    resolve,
  };
  const leaseMs = config.webhookTimeoutMs + LEASE_MARGIN_MS;
  const deliverer = createDeliverer({
    store,
    logger,
    retryScale: config.webhookRetryScale,
    disableAfterMs: config.webhookDisableAfterMs,
    onOutcome: onDeliveryOutcome,
    send: (url, headers, body) => sendWebhook(url, headers, body, { timeoutMs: config.webhookTimeoutMs, policy }),
  });
  const worker = createDeliveryWorker({
    store,
    deliverer,
    logger,
    concurrency: config.webhookConcurrency,
    pollIntervalMs: config.webhookPollIntervalMs,
    leaseMs,
    retentionDays: config.webhookRetentionDays,
  });
  const outbox = createOutbox({ store, live, publicBaseUrl: config.publicBaseUrl, afterCommit: () => worker.wake() });
  const service = createWebhooksService({
    db,
    store,
    deliverer,
    live,
    policy,
    leaseMs,
    maxEndpoints: config.webhookEndpointsPerAccount,
    ownedCodeIds,
    audit,
  });
  return {
    service,
    outbox,
    worker,
    /** Stops the worker (letting attempts in flight finish) and leaves Redis. */
    async close(): Promise<void> {
      await worker.stop();
      await live.close();
    },
  };
}

export type Webhooks = ReturnType<typeof createWebhooks>;
