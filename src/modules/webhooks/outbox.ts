// The outbox writer. Events are written in the transaction of the change that caused them (a
// code's create, update or delete, a bulk call, a scan batch), so they commit together or not
// at all, and a crash can lose neither. Fan-out happens here too: one delivery row per enabled
// endpoint that wants the event; an event nobody wants is not written (nor its payload built).
// Nothing here touches the network: after the commit it only wakes the local worker and feeds
// the live stream.
import type { Knex } from 'knex';
import { presentCode } from '../codes/index.ts';
import { scanUrl } from '../codes/index.ts';
import type { CodeEvent } from '../codes/index.ts';
import type { WriteScanEvents } from '../scans/index.ts';
import type { ScanEvent } from '../scans/index.ts';
import { newId } from '../../shared/ids.ts';
import type { LiveScans, ScanPayload } from './live.ts';
import { wants, type EventType, type NewEvent } from './model.ts';
import type { NewDelivery, WebhooksStore } from './store.ts';

/** What writing outbox rows needs of the webhooks store. */
type OutboxStore = Pick<WebhooksStore, 'enabledEndpointsOf' | 'insertOutbox'>;

export interface OutboxDeps {
  store: OutboxStore;
  live: LiveScans;
  publicBaseUrl: string;
  /** Runs after a transaction with outbox rows committed (wakes the local worker). */
  afterCommit: () => void;
}

interface Occurrence {
  accountId: string;
  type: EventType;
  /** The codes the event is about, for endpoints limited to some codes. */
  codeIds: string[];
  /** The event's `data`, built only when some endpoint wants the event. */
  data: () => unknown;
  at: Date;
}

/** The `data` of scan.created, also what Subscription.scanCreated sends. */
export function scanPayload(event: ScanEvent, publicBaseUrl: string): ScanPayload {
  return {
    code_id: event.codeId,
    scan_url: scanUrl(publicBaseUrl, event.slug, event.domain),
    destination: event.destination,
    outcome: event.outcome ?? 'redirect',
    unlocked: event.unlocked ?? false,
    rule_id: event.ruleId,
    country: event.country,
    region: event.region ?? null,
    city: event.city ?? null,
    device: event.device,
    os: event.os,
    browser: event.browser,
    referrer_host: event.referrerHost,
    language: event.language,
    is_bot: event.isBot,
    scanned_at: new Date(event.at).toISOString(),
  };
}

function groupBy<T>(items: T[], keyOf: (item: T) => string): Map<string, T[]> {
  const groups = new Map<string, T[]>();
  for (const item of items) {
    const group = groups.get(keyOf(item));
    if (group) group.push(item);
    else groups.set(keyOf(item), [item]);
  }
  return groups;
}

/** Runs fn once the transaction has committed; never after a rollback. */
function afterCommitOf(trx: Knex.Transaction, fn: () => void): void {
  void trx.executionPromise?.then(fn, () => undefined);
}

/** Writes each occurrence some endpoint wants, with its deliveries. True when anything was written. */
async function writeOccurrences(
  store: OutboxStore,
  occurrences: Occurrence[],
  trx: Knex.Transaction,
): Promise<boolean> {
  const accountIds = [...new Set(occurrences.map((o) => o.accountId))];
  const endpoints = await store.enabledEndpointsOf(accountIds, trx);
  if (endpoints.length === 0) return false;
  const byAccount = groupBy(endpoints, (endpoint) => endpoint.accountId);
  const now = new Date();
  const events: NewEvent[] = [];
  const deliveries: NewDelivery[] = [];
  for (const o of occurrences) {
    const targets = (byAccount.get(o.accountId) ?? []).filter((endpoint) => wants(endpoint, o.type, o.codeIds));
    if (targets.length === 0) continue;
    const eventId = newId('evt');
    events.push({
      id: eventId,
      accountId: o.accountId,
      type: o.type,
      payload: JSON.stringify(o.data()),
      createdAt: o.at,
    });
    for (const endpoint of targets)
      deliveries.push({ id: newId('dlv'), eventId, endpointId: endpoint.id, createdAt: now });
  }
  if (events.length === 0) return false;
  await store.insertOutbox(events, deliveries, trx);
  return true;
}

/**
 * scan.created for every scan of a batch that an endpoint wants, in the batch's transaction (one
 * SELECT, then multi-row INSERTs). True when it wrote any. It runs wherever the batch is
 * committed, the scan writer thread included, so it touches neither the live stream nor the
 * delivery worker: the recorder calls `scansCommitted` for that once the batch committed.
 */
/** The scan batch commit's outbox writer (scans declare what they need: WriteScanEvents). */
export function createScanOutbox({
  store,
  publicBaseUrl,
}: Pick<OutboxDeps, 'store' | 'publicBaseUrl'>): WriteScanEvents {
  return function writeScanEvents(scans, trx) {
    return writeOccurrences(
      store,
      scans.map((scan) => ({
        accountId: scan.accountId,
        type: 'scan.created',
        codeIds: [scan.codeId],
        data: () => scanPayload(scan, publicBaseUrl),
        at: new Date(scan.at),
      })),
      trx,
    );
  };
}

export function createOutbox({ store, live, publicBaseUrl, afterCommit }: OutboxDeps) {
  return {
    /** The codes and bulk services' hook: records a change inside its own transaction. */
    async codeEvent(event: CodeEvent, trx: Knex.Transaction): Promise<void> {
      const at = new Date();
      const occurrence: Occurrence =
        event.type === 'codes.bulk_created'
          ? {
              accountId: event.accountId,
              type: event.type,
              codeIds: event.codes.map((code) => code.id),
              // Up to 10,000 codes: their ids and scan URLs, not each whole code (GET has those).
              data: () => ({
                object: 'batch',
                batch_id: event.batchId,
                count: event.codes.length,
                codes: event.codes.map((code) => ({
                  id: code.id,
                  type: code.type,
                  scan_url: code.slug ? scanUrl(publicBaseUrl, code.slug, code.domain) : null,
                })),
              }),
              at,
            }
          : {
              accountId: event.code.accountId,
              type: event.type,
              codeIds: [event.code.id],
              data: () => presentCode(event.code, publicBaseUrl),
              at,
            };
      if (await writeOccurrences(store, [occurrence], trx)) afterCommitOf(trx, afterCommit);
    },

    /**
     * After a scan batch committed: its scans go to the live stream (only built for accounts
     * someone may be listening to), and the delivery worker wakes when the batch queued webhooks.
     */
    scansCommitted(scans: ScanEvent[], webhooksQueued: boolean): void {
      for (const [accountId, ofAccount] of groupBy(scans, (scan) => scan.accountId)) {
        if (live.mayHaveListeners(accountId))
          live.publish(
            accountId,
            ofAccount.map((scan) => scanPayload(scan, publicBaseUrl)),
          );
      }
      if (webhooksQueued) afterCommit();
    },
  };
}

export type Outbox = ReturnType<typeof createOutbox>;
