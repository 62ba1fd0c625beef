// SQL of the outbox: events and their deliveries, workers' claims, attempts, retention.
import type { Knex } from 'knex';
import { claimRows, scanInsertChunk } from '../../db/dialect.ts';
import { fromMillis, fromMillisOrNull, toMillis } from '../../db/rows.ts';
import type { Queryable } from '../../db/transaction.ts';
import type { AnyEventType, Attempt, Delivery, DeliveryDetail, DeliveryStatus, NewEvent, Webhook } from './model.ts';
import { afterPosition, webhookOf, type EndpointRow, type Position } from './endpoint-store.ts';

const DELIVERY_COLUMNS = [
  'd.id',
  'd.endpoint_id',
  'd.event_id',
  'e.type as event_type',
  'e.created_at as event_created_at',
  'd.status',
  'd.attempts',
  'd.next_attempt_at',
  'd.last_attempt_at',
  'd.last_response_status',
  'd.last_duration_ms',
  'd.last_error',
  'd.delivered_at',
  'd.created_at',
];

interface DeliveryRow {
  id: string;
  endpoint_id: string;
  event_id: string;
  event_type: string;
  event_created_at: number | string;
  status: string;
  attempts: number;
  next_attempt_at: number | string | null;
  last_attempt_at: number | string | null;
  last_response_status: number | null;
  last_duration_ms: number | null;
  last_error: string | null;
  delivered_at: number | string | null;
  created_at: number | string;
}

function deliveryOf(row: DeliveryRow): Delivery {
  return {
    id: row.id,
    endpointId: row.endpoint_id,
    eventId: row.event_id,
    eventType: row.event_type as AnyEventType,
    eventCreatedAt: fromMillis(row.event_created_at),
    status: row.status as DeliveryStatus,
    attempts: Number(row.attempts),
    nextAttemptAt: fromMillisOrNull(row.next_attempt_at),
    lastAttemptAt: fromMillisOrNull(row.last_attempt_at),
    lastResponseStatus: row.last_response_status,
    lastDurationMs: row.last_duration_ms,
    lastError: row.last_error,
    deliveredAt: fromMillisOrNull(row.delivered_at),
    createdAt: fromMillis(row.created_at),
  };
}

/** A delivery a worker holds, with what sending it needs. */
export interface ClaimedDelivery {
  delivery: Delivery;
  /** The claim's owner; the attempt is recorded only while the claim is still this one. */
  lockedBy: string;
  endpoint: Webhook;
  payload: string;
}

export interface NewDelivery {
  id: string;
  eventId: string;
  endpointId: string;
  createdAt: Date;
  /** Written already claimed (a test event sent by the API call itself), so no worker takes it. */
  claim?: { lockedBy: string; until: Date };
}

export interface AttemptRecord {
  deliveryId: string;
  lockedBy: string;
  attempt: Attempt;
  status: DeliveryStatus;
  nextAttemptAt: Date | null;
  deliveredAt: Date | null;
}

export function createDeliveryStore(db: Knex) {
  const store = {
    /**
     * Outbox rows in multi-row INSERTs, inside the transaction of the change they record. Chunked
     * like scans (one statement per table per batch on MySQL; on SQLite, whose inserts run on the
     * event loop, small chunks with a pause between them so waiting redirects get through).
     */
    async insertOutbox(events: NewEvent[], deliveries: NewDelivery[], q: Queryable = db): Promise<void> {
      const chunk = scanInsertChunk(db);
      const pause = () => new Promise((resolve) => setImmediate(resolve));
      for (let i = 0; i < events.length; i += chunk) {
        if (i > 0) await pause();
        await q('webhook_events').insert(
          events.slice(i, i + chunk).map((e) => ({
            id: e.id,
            account_id: e.accountId,
            type: e.type,
            payload: e.payload,
            created_at: toMillis(e.createdAt),
          })),
        );
      }
      for (let i = 0; i < deliveries.length; i += chunk) {
        await pause();
        await q('webhook_deliveries').insert(
          deliveries.slice(i, i + chunk).map((d) => ({
            id: d.id,
            event_id: d.eventId,
            endpoint_id: d.endpointId,
            status: d.claim ? 'delivering' : 'pending',
            attempts: 0,
            next_attempt_at: toMillis(d.claim?.until ?? d.createdAt),
            locked_by: d.claim?.lockedBy ?? null,
            created_at: toMillis(d.createdAt),
          })),
        );
      }
    },

    /**
     * Claims up to `limit` due deliveries for a worker: first delivering ones whose lease ran
     * out (their worker died), then pending ones whose time has come. The lease is
     * next_attempt_at. One status per query, so (status, next_attempt_at) serves the order and
     * the scan stops after `limit` rows instead of sorting (and locking) every due row.
     */
    async claimDue(lockedBy: string, now: Date, leaseMs: number, limit: number): Promise<ClaimedDelivery[]> {
      const mark = { status: 'delivering', locked_by: lockedBy, next_attempt_at: toMillis(now) + leaseMs };
      const due = (status: DeliveryStatus) => (q: Knex.QueryBuilder) =>
        q.where('status', status).andWhere('next_attempt_at', '<=', toMillis(now)).orderBy('next_attempt_at', 'asc');
      const ids = await claimRows(db, 'webhook_deliveries', due('delivering'), limit, mark);
      if (ids.length < limit)
        ids.push(...(await claimRows(db, 'webhook_deliveries', due('pending'), limit - ids.length, mark)));
      return store.loadClaimed(ids, lockedBy);
    },

    /**
     * Claims one delivery for an attempt made now (a test or a manual retry), whatever its
     * schedule; false while a worker holds it.
     */
    async claimOne(deliveryId: string, lockedBy: string, now: Date, leaseMs: number): Promise<boolean> {
      const updated = await db('webhook_deliveries')
        .where('id', deliveryId)
        .andWhere((w) => w.whereNot('status', 'delivering').orWhere('next_attempt_at', '<=', toMillis(now)))
        .update({ status: 'delivering', locked_by: lockedBy, next_attempt_at: toMillis(now) + leaseMs });
      return updated > 0;
    },

    async loadClaimed(ids: string[], lockedBy: string): Promise<ClaimedDelivery[]> {
      if (ids.length === 0) return [];
      const rows: (DeliveryRow & { payload: string })[] = await db('webhook_deliveries as d')
        .join('webhook_events as e', 'e.id', 'd.event_id')
        .whereIn('d.id', ids)
        .andWhere('d.locked_by', lockedBy)
        .select([...DELIVERY_COLUMNS, 'e.payload']);
      const endpointIds = [...new Set(rows.map((row) => row.endpoint_id))];
      const endpoints = new Map(
        ((await db('webhook_endpoints').whereIn('id', endpointIds)) as EndpointRow[]).map((row) => [
          row.id,
          webhookOf(row),
        ]),
      );
      return rows
        .filter((row) => endpoints.has(row.endpoint_id))
        .map((row) => ({
          delivery: deliveryOf(row),
          lockedBy,
          endpoint: endpoints.get(row.endpoint_id)!,
          payload: row.payload,
        }));
    },

    /**
     * Records an attempt and the delivery's new state, if the claim is still ours (a worker
     * whose lease ran out must not overwrite its successor's). False when it was not.
     */
    async recordAttempt(record: AttemptRecord): Promise<boolean> {
      return db.transaction(async (trx) => {
        const a = record.attempt;
        const updated = await trx('webhook_deliveries')
          .where({ id: record.deliveryId, locked_by: record.lockedBy, status: 'delivering' })
          .update({
            status: record.status,
            attempts: a.attempt,
            next_attempt_at: record.nextAttemptAt && toMillis(record.nextAttemptAt),
            locked_by: null,
            last_attempt_at: toMillis(a.startedAt),
            last_response_status: a.responseStatus,
            last_duration_ms: a.durationMs,
            last_error: a.error?.slice(0, 500) ?? null,
            delivered_at: record.deliveredAt && toMillis(record.deliveredAt),
          });
        if (updated === 0) return false;
        await trx('webhook_attempts').insert({
          delivery_id: record.deliveryId,
          attempt: a.attempt,
          worker: a.worker.slice(0, 100),
          started_at: toMillis(a.startedAt),
          response_status: a.responseStatus,
          duration_ms: a.durationMs,
          error: a.error?.slice(0, 500) ?? null,
        });
        return true;
      });
    },

    /** Hands a claimed delivery back untried (its endpoint was disabled meanwhile). */
    async releasePaused(deliveryId: string, lockedBy: string): Promise<void> {
      await db('webhook_deliveries')
        .where({ id: deliveryId, locked_by: lockedBy })
        .update({ status: 'paused', locked_by: null, next_attempt_at: null });
    },

    /** Pauses an endpoint's waiting deliveries (it was disabled); ones in flight finish first. */
    async pauseDeliveries(endpointId: string, q: Queryable = db): Promise<void> {
      await q('webhook_deliveries')
        .where({ endpoint_id: endpointId, status: 'pending' })
        .update({ status: 'paused', next_attempt_at: null });
    },

    /** Makes an endpoint's paused deliveries due now (it was enabled again). */
    async resumeDeliveries(endpointId: string, now: Date, q: Queryable = db): Promise<void> {
      await q('webhook_deliveries')
        .where({ endpoint_id: endpointId, status: 'paused' })
        .update({ status: 'pending', next_attempt_at: toMillis(now) });
    },

    /** One page of an endpoint's deliveries, newest first. */
    async listDeliveries(
      endpointId: string,
      status: DeliveryStatus | undefined,
      after: Position | null,
      limit: number,
    ): Promise<Delivery[]> {
      const builder = db('webhook_deliveries as d')
        .join('webhook_events as e', 'e.id', 'd.event_id')
        .where('d.endpoint_id', endpointId);
      if (status) builder.andWhere('d.status', status);
      const rows: DeliveryRow[] = await afterPosition(builder, after, 'd.created_at', 'd.id')
        .orderBy([
          { column: 'd.created_at', order: 'desc' },
          { column: 'd.id', order: 'desc' },
        ])
        .limit(limit)
        .select(DELIVERY_COLUMNS);
      return rows.map(deliveryOf);
    },

    /** A delivery of the endpoint with its event's data and every attempt, or null. */
    async findDelivery(endpointId: string, deliveryId: string): Promise<DeliveryDetail | null> {
      const row: (DeliveryRow & { payload: string }) | undefined = await db('webhook_deliveries as d')
        .join('webhook_events as e', 'e.id', 'd.event_id')
        .where({ 'd.endpoint_id': endpointId, 'd.id': deliveryId })
        .first([...DELIVERY_COLUMNS, 'e.payload']);
      if (!row) return null;
      const attempts: {
        attempt: number;
        worker: string;
        started_at: number | string;
        response_status: number | null;
        duration_ms: number;
        error: string | null;
      }[] = await db('webhook_attempts')
        .where('delivery_id', deliveryId)
        .orderBy('attempt', 'asc')
        .orderBy('id', 'asc');
      return {
        ...deliveryOf(row),
        data: JSON.parse(row.payload),
        history: attempts.map((a) => ({
          attempt: a.attempt,
          worker: a.worker,
          startedAt: fromMillis(a.started_at),
          responseStatus: a.response_status,
          durationMs: a.duration_ms,
          error: a.error,
        })),
      };
    },

    /**
     * Deletes up to `limit` events older than the cutoff whose deliveries are all finished (or
     * that have none left), with their deliveries and attempts. Returns how many went.
     */
    async purgeFinished(cutoff: Date, limit: number): Promise<number> {
      const rows: { id: string }[] = await db('webhook_events as e')
        .where('e.created_at', '<', toMillis(cutoff))
        .whereNotExists((sub) =>
          sub
            .select(db.raw('1'))
            .from('webhook_deliveries as d')
            .whereRaw('d.event_id = e.id')
            .whereIn('d.status', ['pending', 'delivering', 'paused']),
        )
        .orderBy('e.created_at', 'asc')
        .limit(limit)
        .select('e.id');
      if (rows.length === 0) return 0;
      return db('webhook_events')
        .whereIn(
          'id',
          rows.map((row) => row.id),
        )
        .delete();
    },
  };
  return store;
}
