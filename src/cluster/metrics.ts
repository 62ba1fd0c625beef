// Metrics under WEB_CONCURRENCY: every worker counts its own requests, scans and pools; the
// primary sums them (prom-client's aggregation: counters, histograms and most gauges add up;
// event-loop lag is averaged; process start time is left out) and serves the sum. Summed rather
// than labelled per worker because the workers share one port: a scrape of /metrics there
// reaches one worker, chosen in turn, so a per-worker answer would flip between workers at
// every scrape. So METRICS_PORT is the primary's listener, and a worker asked for /metrics on
// the main port (METRICS_TOKEN) asks the primary for the sum too. The messages go over the
// cluster's IPC channel, each with an id its answer carries.
import cluster, { type Worker } from 'node:cluster';
import { AggregatorRegistry, type MetricObjectWithValues, type MetricValue, type Registry } from 'prom-client';
import type { Metrics } from '../shared/metrics.ts';

type Snapshot = MetricObjectWithValues<MetricValue<string>>[];

/** Primary -> worker: send your snapshot. */
const COLLECT = 'qr:metrics:collect';
/** Worker -> primary: the snapshot, or why there is none. */
const SNAPSHOT = 'qr:metrics:snapshot';
/** Worker -> primary: render every worker's metrics for my /metrics. */
const RENDER = 'qr:metrics:render';
/** Primary -> worker: the exposition, or why there is none. */
const RENDERED = 'qr:metrics:rendered';

interface Message {
  type: string;
  id: number;
  metrics?: Snapshot;
  text?: string;
  error?: string;
}

/**
 * A worker that has not answered by then fails the scrape (500): a sum without one worker's
 * counters would look to Prometheus like a counter reset, and its rate() like a burst.
 */
const ANSWER_TIMEOUT_MS = 3000;

const isMessage = (value: unknown): value is Message =>
  typeof value === 'object' &&
  value !== null &&
  typeof (value as Message).type === 'string' &&
  typeof (value as Message).id === 'number';

/** Sends over IPC; a channel that closed meanwhile (the worker is gone) is no error of ours. */
function send(to: { send: Worker['send'] } | NodeJS.Process, message: Message): void {
  to.send?.(message, undefined, undefined, () => {});
}

/** The primary's side: `render()` sums every live worker's metrics and `own` (the primary's). */
export function createClusterMetrics(own: Registry) {
  let nextId = 0;
  const pending = new Map<
    number,
    { worker: Worker; resolve: (snapshot: Snapshot | null) => void; reject: (err: Error) => void }
  >();
  // Asked once listening: a worker shares its metrics before it listens (main.ts), and one still
  // starting (a replacement) has counted nothing yet but could not answer in time.
  const answering = new Set<Worker>();
  cluster.on('listening', (worker) => answering.add(worker));

  cluster.on('message', (worker, message: unknown) => {
    if (!isMessage(message)) return;
    if (message.type === SNAPSHOT) {
      const request = pending.get(message.id);
      pending.delete(message.id);
      if (message.error !== undefined)
        request?.reject(new Error(`worker ${worker.id} could not read its metrics: ${message.error}`));
      else request?.resolve(message.metrics ?? []);
    } else if (message.type === RENDER) {
      render().then(
        (text) => send(worker, { type: RENDERED, id: message.id, text }),
        (err: Error) => send(worker, { type: RENDERED, id: message.id, error: err.message }),
      );
    }
  });
  // A worker that exits before it answers is left out, as it is from every later scrape.
  cluster.on('exit', (worker) => {
    answering.delete(worker);
    for (const [id, request] of pending) {
      if (request.worker !== worker) continue;
      pending.delete(id);
      request.resolve(null);
    }
  });

  function snapshotOf(worker: Worker): Promise<Snapshot | null> {
    const id = nextId++;
    return new Promise<Snapshot | null>((resolve, reject) => {
      const timer = setTimeout(() => {
        pending.delete(id);
        reject(
          new Error(`worker ${worker.id} (pid ${worker.process.pid}) sent no metrics within ${ANSWER_TIMEOUT_MS} ms`),
        );
      }, ANSWER_TIMEOUT_MS);
      const settle =
        <T>(fn: (value: T) => void) =>
        (value: T) => {
          clearTimeout(timer);
          fn(value);
        };
      pending.set(id, { worker, resolve: settle(resolve), reject: settle(reject) });
      send(worker, { type: COLLECT, id });
    });
  }

  async function render(): Promise<string> {
    const workers = [...answering].filter((worker) => worker.isConnected());
    const snapshots = await Promise.all(workers.map(snapshotOf));
    const all = [...snapshots.filter((snapshot) => snapshot !== null), await own.getMetricsAsJSON()];
    return AggregatorRegistry.aggregate(all).metrics();
  }

  return { render };
}

/** A worker's side: answers the primary's requests for its snapshot, and renders /metrics through the primary. */
export function shareMetricsWithPrimary(metrics: Metrics): void {
  let nextId = 0;
  const waiting = new Map<number, { resolve: (text: string) => void; reject: (err: Error) => void }>();

  process.on('message', (message: unknown) => {
    if (!isMessage(message)) return;
    if (message.type === COLLECT) {
      metrics.snapshot().then(
        (snapshot) => send(process, { type: SNAPSHOT, id: message.id, metrics: snapshot }),
        (err: Error) => send(process, { type: SNAPSHOT, id: message.id, error: err.message }),
      );
    } else if (message.type === RENDERED) {
      const request = waiting.get(message.id);
      waiting.delete(message.id);
      if (message.error !== undefined)
        request?.reject(new Error(`the cluster primary could not sum the metrics: ${message.error}`));
      else request?.resolve(message.text ?? '');
    }
  });

  metrics.renderThrough(() => {
    const id = nextId++;
    return new Promise<string>((resolve, reject) => {
      // The primary waits up to ANSWER_TIMEOUT_MS for the workers; this waits a little longer for it.
      const timer = setTimeout(() => {
        waiting.delete(id);
        reject(new Error('the cluster primary did not answer with the metrics'));
      }, ANSWER_TIMEOUT_MS + 1000);
      const settle =
        <T>(fn: (value: T) => void) =>
        (value: T) => {
          clearTimeout(timer);
          fn(value);
        };
      waiting.set(id, { resolve: settle(resolve), reject: settle(reject) });
      send(process, { type: RENDER, id });
    });
  });
}
