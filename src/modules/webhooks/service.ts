// Webhook endpoints of an account, their deliveries, and the live scan stream. Every function
// takes the caller's principal first and sees only its account: another account's webhook or
// delivery is a 404, exactly like an id that never existed.
import type { Knex } from 'knex';
import { inTransaction } from '../../db/transaction.ts';
import type { RecordAudit } from '../audit/index.ts';
import { DomainError, notFound, validationFailed, type FieldError } from '../../shared/errors.ts';
import { randomBase62 } from '../../shared/ids.ts';
import type { Principal } from '../../shared/principal.ts';
import type { OwnedCodeIds } from '../codes/index.ts';
import { decodeCursor, encodeCursor } from './cursor.ts';
import type { Deliverer } from './deliverer.ts';
import { newId } from '../../shared/ids.ts';
import type { LiveScans, ScanPayload } from './live.ts';
import { TEST_EVENT, type Delivery, type DeliveryDetail, type Webhook } from './model.ts';
import type { CreateWebhookInput, ListDeliveriesQuery, ListWebhooksQuery, UpdateWebhookInput } from './schemas.ts';
import { generateSecret } from './signature.ts';
import type { EndpointChanges, WebhooksStore } from './store.ts';
import { registrationProblem, urlProblems, type TargetPolicy } from './target.ts';

/** How long the previous secret keeps signing after a rotation. */
export const ROTATION_OVERLAP_MS = 24 * 3_600_000;

export interface WebhooksServiceDeps {
  db: Knex;
  store: WebhooksStore;
  deliverer: Deliverer;
  live: LiveScans;
  policy: TargetPolicy;
  /** The claim an attempt made by the API call itself holds (like a worker's). */
  leaseMs: number;
  /** Endpoints one account may have (WEBHOOK_ENDPOINTS_PER_ACCOUNT): every scan fans out to all. */
  maxEndpoints: number;
  /** Which code ids the account owns: the codes module's answer (only its store reads `codes`). */
  ownedCodeIds: OwnedCodeIds;
  /** Records the change in the audit log, in the change's transaction. */
  audit: RecordAudit;
}

export interface Page<T> {
  data: T[];
  nextCursor: string | null;
  cursorOf(item: T): string;
}

export interface WebhookWithSecret {
  webhook: Webhook;
  /** Shown this once. */
  secret: string;
}

function pageOf<T extends { createdAt: Date; id: string }>(rows: T[], limit: number): Page<T> {
  const data = rows.slice(0, limit);
  const last = data[data.length - 1];
  return { data, nextCursor: rows.length > limit && last ? encodeCursor(last) : null, cursorOf: encodeCursor };
}

export function createWebhooksService({
  db,
  store,
  deliverer,
  live,
  policy,
  leaseMs,
  maxEndpoints,
  ownedCodeIds,
  audit,
}: WebhooksServiceDeps) {
  /** The audit entry of an endpoint change; never a secret. */
  const webhookChange = (
    action: 'webhook.created' | 'webhook.updated' | 'webhook.deleted' | 'webhook.secret_rotated',
    id: string,
    summary: Record<string, unknown>,
  ) => ({ action, objectType: 'webhook' as const, objectId: id, summary });
  /** What an endpoint is, for the log: where it sends what. */
  const described = (w: Webhook) => ({
    url: w.url,
    description: w.description,
    events: w.events,
    code_ids: w.codeIds,
    enabled: w.enabled,
  });

  /** The URL's SSRF and scheme problems, as field errors on `url`. */
  async function urlErrors(url: string): Promise<FieldError[]> {
    const problems = urlProblems(url, policy);
    if (problems.length === 0) {
      const resolved = await registrationProblem(url, policy);
      if (resolved) problems.push(resolved);
    }
    return problems.map((message) => ({ path: 'url', message }));
  }

  /** code_ids that are not the account's codes, by index. */
  async function codeIdErrors(accountId: string, ids: string[] | null | undefined): Promise<FieldError[]> {
    if (!ids) return [];
    const owned = await ownedCodeIds(accountId, ids);
    return ids.flatMap((id, index) =>
      owned.has(id) ? [] : [{ path: `code_ids.${index}`, message: `no code with id '${id}'` }],
    );
  }

  /**
   * The checks of a parsed body that need I/O (the URL's address policy, the codes' owner), every problem in one 422.
   */
  async function check(principal: Principal, body: CreateWebhookInput | UpdateWebhookInput): Promise<void> {
    const errors = [
      ...(body.url === undefined ? [] : await urlErrors(body.url)),
      ...(await codeIdErrors(principal.accountId, body.code_ids)),
    ];
    if (errors.length > 0) throw validationFailed(errors);
  }

  async function find(principal: Principal, id: string): Promise<Webhook> {
    const webhook = await store.findEndpoint(principal.accountId, id);
    if (!webhook) throw notFound('webhook', id);
    return webhook;
  }

  function requireEnabled(webhook: Webhook): void {
    if (!webhook.enabled) {
      throw new DomainError(
        'conflict',
        `Webhook '${webhook.id}' is disabled${webhook.disabledReason ? ` (${webhook.disabledReason})` : ''}. Enable ` +
          `it with PATCH {"enabled": true} first.`,
      );
    }
  }

  /** Attempts a delivery the caller holds, and answers it as it stands afterwards. */
  async function attemptNow(webhook: Webhook, deliveryId: string, lockedBy: string): Promise<DeliveryDetail> {
    const [claimed] = await store.loadClaimed([deliveryId], lockedBy);
    if (claimed) await deliverer.attempt(claimed);
    const detail = await store.findDelivery(webhook.id, deliveryId);
    if (!detail) throw notFound('delivery', deliveryId);
    return detail;
  }

  const apiClaim = () => `api:${randomBase62(12)}`;

  return {
    /** Registers an endpoint; the answer carries its signing secret, shown this once. */
    async create(principal: Principal, body: CreateWebhookInput): Promise<WebhookWithSecret> {
      await check(principal, body);
      // Checked before the insert, not with it: two creates at the same instant may both pass, so
      // an account can end one or two over the cap, never more than its concurrent requests.
      const existing = await store.countEndpoints(principal.accountId);
      if (existing >= maxEndpoints) {
        throw new DomainError(
          'validation_failed',
          `An account may have at most ${maxEndpoints} webhook endpoints (WEBHOOK_ENDPOINTS_PER_ACCOUNT); this one ` +
            `has ${existing}. Delete one, or point several event types at one endpoint.`,
        );
      }
      const now = new Date();
      const webhook: Webhook = {
        id: newId('wh'),
        accountId: principal.accountId,
        url: body.url,
        description: body.description ?? null,
        events: body.events,
        codeIds: body.code_ids ?? null,
        secret: generateSecret(),
        previousSecret: null,
        previousSecretExpiresAt: null,
        enabled: true,
        disabledReason: null,
        disabledAt: null,
        failingSince: null,
        createdAt: now,
        updatedAt: now,
      };
      await inTransaction(db, async (trx) => {
        await store.insertEndpoint(webhook, trx);
        await audit(principal, webhookChange('webhook.created', webhook.id, described(webhook)), trx);
      });
      return { webhook, secret: webhook.secret };
    },

    /** The caller's webhook, or a 404. */
    get: find,

    /** One page of the caller's webhooks, newest first. */
    async list(principal: Principal, params: ListWebhooksQuery): Promise<Page<Webhook>> {
      const after = params.cursor ? decodeCursor(params.cursor) : null;
      return pageOf(await store.listEndpoints(principal.accountId, after, params.limit + 1), params.limit);
    },

    /**
     * Partial update. `enabled: false` pauses the waiting deliveries; `enabled: true` clears
     * the disabled reason and makes the paused deliveries due again.
     */
    async update(principal: Principal, id: string, patch: UpdateWebhookInput): Promise<Webhook> {
      const current = await find(principal, id);
      await check(principal, patch);
      const now = new Date();
      const changes: EndpointChanges = {
        updatedAt: now,
        url: patch.url,
        events: patch.events,
        codeIds: patch.code_ids,
        description: patch.description,
      };
      const disabling = patch.enabled === false && current.enabled;
      const enabling = patch.enabled === true && !current.enabled;
      if (disabling)
        Object.assign(changes, { enabled: false, disabledReason: 'Disabled through the API.', disabledAt: now });
      if (enabling)
        Object.assign(changes, { enabled: true, disabledReason: null, disabledAt: null, failingSince: null });
      await inTransaction(db, async (trx) => {
        if (!(await store.updateEndpoint(principal.accountId, id, changes, trx))) throw notFound('webhook', id);
        if (disabling) await store.pauseDeliveries(id, trx);
        if (enabling) await store.resumeDeliveries(id, now, trx);
        const after = described((await store.findEndpoint(principal.accountId, id, trx)) ?? current);
        const before = described(current);
        const diff = Object.fromEntries(
          Object.entries(after)
            .filter(([field, value]) => JSON.stringify(value) !== JSON.stringify(before[field as keyof typeof before]))
            .map(([field, value]) => [field, { old: before[field as keyof typeof before], new: value }]),
        );
        await audit(principal, webhookChange('webhook.updated', id, { changes: diff }), trx);
      });
      return find(principal, id);
    },

    /** Deletes the endpoint and its delivery log; nothing more is sent to it. */
    async remove(principal: Principal, id: string): Promise<void> {
      const current = await find(principal, id);
      const deleted = await inTransaction(db, async (trx) => {
        if (!(await store.deleteEndpoint(principal.accountId, id, trx))) return false;
        await audit(principal, webhookChange('webhook.deleted', id, described(current)), trx);
        return true;
      });
      if (!deleted) throw notFound('webhook', id);
    },

    /**
     * A new signing secret. The previous one keeps signing beside it for 24 hours (each request
     * carries both signatures), so receivers can switch without losing a delivery.
     */
    async rotateSecret(principal: Principal, id: string): Promise<WebhookWithSecret> {
      const current = await find(principal, id);
      const now = new Date();
      const secret = generateSecret();
      const previousSecretExpiresAt = new Date(now.getTime() + ROTATION_OVERLAP_MS);
      await inTransaction(db, async (trx) => {
        await store.updateEndpoint(
          principal.accountId,
          id,
          { updatedAt: now, secret, previousSecret: current.secret, previousSecretExpiresAt },
          trx,
        );
        const summary = { url: current.url, previous_secret_expires_at: previousSecretExpiresAt };
        await audit(principal, webhookChange('webhook.secret_rotated', id, summary), trx);
      });
      return { webhook: await find(principal, id), secret };
    },

    /** Sends a webhook.test event to this endpoint now and answers the delivery after the attempt. */
    async test(principal: Principal, id: string): Promise<DeliveryDetail> {
      const webhook = await find(principal, id);
      requireEnabled(webhook);
      const now = new Date();
      const lockedBy = apiClaim();
      const eventId = newId('evt');
      const deliveryId = newId('dlv');
      const data = { webhook_id: webhook.id, message: 'A test event, sent on request. No action is needed.' };
      await inTransaction(db, (trx) =>
        store.insertOutbox(
          [
            {
              id: eventId,
              accountId: principal.accountId,
              type: TEST_EVENT,
              payload: JSON.stringify(data),
              createdAt: now,
            },
          ],
          [
            {
              id: deliveryId,
              eventId,
              endpointId: webhook.id,
              createdAt: now,
              claim: { lockedBy, until: new Date(now.getTime() + leaseMs) },
            },
          ],
          trx,
        ),
      );
      return attemptNow(webhook, deliveryId, lockedBy);
    },

    /** One page of an endpoint's deliveries, newest first, optionally of one status. */
    async deliveries(principal: Principal, id: string, params: ListDeliveriesQuery): Promise<Page<Delivery>> {
      const webhook = await find(principal, id);
      const after = params.cursor ? decodeCursor(params.cursor) : null;
      return pageOf(await store.listDeliveries(webhook.id, params.status, after, params.limit + 1), params.limit);
    },

    /** One delivery with its event's data and every attempt. */
    async delivery(principal: Principal, id: string, deliveryId: string): Promise<DeliveryDetail> {
      const webhook = await find(principal, id);
      const detail = await store.findDelivery(webhook.id, deliveryId);
      if (!detail) throw notFound('delivery', deliveryId);
      return detail;
    },

    /**
     * Sends a delivery again now, whatever its state (a failed one, a delivered one to replay,
     * a pending one early), with the same webhook-id. A failure continues its retry schedule.
     */
    async retry(principal: Principal, id: string, deliveryId: string): Promise<DeliveryDetail> {
      const webhook = await find(principal, id);
      requireEnabled(webhook);
      if (!(await store.findDelivery(webhook.id, deliveryId))) throw notFound('delivery', deliveryId);
      const lockedBy = apiClaim();
      if (!(await store.claimOne(deliveryId, lockedBy, new Date(), leaseMs))) {
        throw new DomainError(
          'conflict',
          `Delivery '${deliveryId}' is being sent right now; look at it again in a moment.`,
        );
      }
      return attemptNow(webhook, deliveryId, lockedBy);
    },

    /**
     * The caller's scans as they are recorded (all its codes, or one). Another account's code
     * id is a 404, and the stream is per account, so it can never carry another account's scans.
     */
    async subscribeScans(principal: Principal, codeId: string | null): Promise<AsyncIterableIterator<ScanPayload>> {
      if (codeId !== null && !(await ownedCodeIds(principal.accountId, [codeId])).has(codeId))
        throw notFound('code', codeId);
      return live.subscribe(principal.accountId, codeId === null ? undefined : (scan) => scan.code_id === codeId);
    },
  };
}

export type WebhooksService = ReturnType<typeof createWebhooksService>;
