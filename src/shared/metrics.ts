// Prometheus metrics of one service instance. Each instance has its own registry (never
// prom-client's global one), so that several apps in one process, as in the tests, each count
// their own. Counters are bumped where things happen; gauges are read when scraped. The
// process metrics belong to the process: collected once, into a registry every instance's
// exposition merges in (their collectors hold timers and a GC observer that never stop).
import type { Knex } from 'knex';
import {
  collectDefaultMetrics,
  Counter,
  Gauge,
  Histogram,
  Registry,
  type LabelValues,
  type MetricObjectWithValues,
  type MetricValue,
} from 'prom-client';

/**
 * Seconds. Finer than prom-client's default (which starts at 5 ms) at the low end: the scan
 * route answers in well under a millisecond, and its latency is what operators watch.
 */
const DURATION_BUCKETS = [
  0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10,
];

type RequestLabels = LabelValues<'method' | 'route' | 'status'>;

const DELIVERY_OUTCOMES = ['succeeded', 'retrying', 'failed'] as const;
/** How one webhook delivery attempt ended (the label of webhook_deliveries_total). */
export type DeliveryOutcome = (typeof DELIVERY_OUTCOMES)[number];

/** Counts one answer of a fixed route: its method, its status, and performance.now() at arrival. */
export type RouteObserver = (method: string, status: number, startedAt: number) => void;

/** The counts tarn (Knex's pool) keeps; `db.client.pool` is unset before first use and after destroy(). */
interface PoolCounts {
  numUsed(): number;
  numFree(): number;
  numPendingCreates(): number;
  numPendingAcquires(): number;
}

let processRegistry: Registry | undefined;

/** Process CPU, memory, event-loop lag, GC, handles: the usual Node dashboard panels. */
function processMetrics(): Registry {
  if (!processRegistry) {
    processRegistry = new Registry();
    collectDefaultMetrics({ register: processRegistry });
  }
  return processRegistry;
}

export function createMetrics() {
  const registry = new Registry();
  const registers = [registry];

  const labelNames = ['method', 'route', 'status'] as const;
  const requests = new Counter({
    name: 'http_requests_total',
    help: 'HTTP requests answered, by method, route template and status.',
    labelNames,
    registers,
  });
  const durations = new Histogram({
    name: 'http_request_duration_seconds',
    help:
      'Time from a request arriving to its handler finishing (a streamed body may still be on its way), by ' +
      'method, route template and status.',
    labelNames,
    buckets: DURATION_BUCKETS,
    registers,
  });
  const scansRecorded = new Counter({
    name: 'scans_recorded_total',
    help: 'Scans written to the database, counted when their batch commits.',
    registers,
  });
  const scanBatchRetries = new Counter({
    name: 'scan_batch_retries_total',
    help:
      'Scan batch writes that failed and will be retried (no scan is lost), by cause: conflict (deadlock, lock ' +
      'wait, a Galera certification conflict, SQLite busy) or other.',
    labelNames: ['cause'] as const,
    registers,
  });
  const scansJournaled = new Counter({
    name: 'scans_journaled_total',
    help:
      'Scans written to the scan journal before their answer (ok), or answered without it because the write ' +
      'failed (failed: a full or broken disk; those scans are lost if the process crashes before their batch commits).',
    labelNames: ['result'] as const,
    registers,
  });
  for (const result of ['ok', 'failed'] as const) scansJournaled.inc({ result }, 0);
  const webhookDeliveries = new Counter({
    name: 'webhook_deliveries_total',
    help:
      'Webhook delivery attempts recorded, by outcome: succeeded, retrying (failed, tried again later) or ' +
      'failed (the last attempt failed).',
    labelNames: ['outcome'],
    registers,
  });
  // Every outcome from the start, at 0: a ratio or an alert on `failed` has a series before the first failure.
  for (const outcome of DELIVERY_OUTCOMES) webhookDeliveries.inc({ outcome }, 0);

  const local = () => Registry.merge([processMetrics(), registry]);
  let exposition = () => local().metrics();

  function observe(labels: RequestLabels, startedAt: number): void {
    requests.inc(labels);
    durations.observe(labels, (performance.now() - startedAt) / 1000);
  }

  return {
    /** Prometheus text format, version 0.0.4. */
    contentType: registry.contentType,

    /** The exposition: every metric, gauges read now. */
    render: (): Promise<string> => exposition(),

    /** This process's metrics as data, gauges read now: what a cluster primary sums over its workers. */
    snapshot: (): Promise<MetricObjectWithValues<MetricValue<string>>[]> => local().getMetricsAsJSON(),

    /**
     * Has `render` answer with `source` instead: in a cluster worker, every worker's metrics summed
     * by the primary, so that a scrape of the shared port does not see whichever worker it reached.
     */
    renderThrough(source: () => Promise<string>): void {
      exposition = source;
    },

    /** Counts one answered request; `route` is a template such as /v1/codes/:id, never a raw path. */
    request(method: string, route: string, status: number, startedAt: number): void {
      observe({ method, route, status }, startedAt);
    },

    /**
     * The same for one route on a hot path: each method and status gets its label set once,
     * so that counting an answer allocates nothing of ours.
     */
    routeObserver(route: string): RouteObserver {
      const labelSets = new Map<string, Map<number, RequestLabels>>();
      return (method, status, startedAt) => {
        let byStatus = labelSets.get(method);
        if (!byStatus) labelSets.set(method, (byStatus = new Map()));
        let labels = byStatus.get(status);
        if (!labels) byStatus.set(status, (labels = { method, route, status }));
        observe(labels, startedAt);
      };
    },

    scansRecorded(count: number): void {
      scansRecorded.inc(count);
    },

    scansJournaled(count: number, ok: boolean): void {
      scansJournaled.inc({ result: ok ? 'ok' : 'failed' }, count);
    },

    scanBatchRetried(cause: 'conflict' | 'other'): void {
      scanBatchRetries.inc({ cause });
    },

    webhookDelivery(outcome: DeliveryOutcome): void {
      webhookDeliveries.inc({ outcome });
    },

    /** Registers the gauges that are read at scrape time. Call once, when the recorder and the pool exist. */
    watch({ scanBufferDepth, db }: { scanBufferDepth: () => number; db: Knex }): void {
      new Gauge({
        name: 'scan_buffer_depth',
        help:
          'Scans answered and waiting for their batch to be written (in memory, and in the scan journal unless ' +
          'SCAN_JOURNAL_DIR=off or its writes fail).',
        registers,
        collect() {
          this.set(scanBufferDepth());
        },
      });
      const pool = () => db.client.pool as PoolCounts | undefined;
      new Gauge({
        name: 'db_pool_connections',
        help: 'Database connections of the pool: used (lent to a query), free (idle) or pending_create (being opened).',
        labelNames: ['state'],
        registers,
        collect() {
          const counts = pool();
          this.set({ state: 'used' }, counts?.numUsed() ?? 0);
          this.set({ state: 'free' }, counts?.numFree() ?? 0);
          this.set({ state: 'pending_create' }, counts?.numPendingCreates() ?? 0);
        },
      });
      new Gauge({
        name: 'db_pool_pending_acquires',
        help: 'Queries waiting for a database connection: above zero, the pool is the bottleneck.',
        registers,
        collect() {
          this.set(pool()?.numPendingAcquires() ?? 0);
        },
      });
    },
  };
}

export type Metrics = ReturnType<typeof createMetrics>;
