// WEB_CONCURRENCY > 1: this process is the cluster primary and answers no request itself. It
// migrates once (so N workers do not race to), forks the workers, each of which runs main.ts's
// whole service with its own caches, pools and scan writer thread on the one port (node:cluster:
// the primary holds the socket and hands each new connection to the next worker in turn),
// replaces a worker that dies with a backoff, serves METRICS_PORT with every worker's metrics
// summed, and on SIGTERM/SIGINT has every worker drain (stop accepting, answer what is in
// flight, write its buffered scans) before it exits itself.
import cluster, { type Worker } from 'node:cluster';
import type { Server } from 'node:http';
import type { Logger } from 'pino';
import { Counter, Gauge, Registry } from 'prom-client';
import type { Config } from '../config.ts';
import { createDb } from '../db/knex.ts';
import { migrateLatest } from '../db/migrate.ts';
import { startMetricsServer } from '../http/metrics.ts';
import { createMetrics } from '../shared/metrics.ts';
import { createClusterMetrics } from './metrics.ts';
import { createRestartBackoff } from './restarts.ts';

export async function runPrimary(config: Config, logger: Logger): Promise<void> {
  if (config.migrateOnStart) {
    const db = createDb(config.databaseUrl);
    try {
      const applied = await migrateLatest(db);
      if (applied.length > 0) logger.info({ applied }, 'migrations applied');
    } finally {
      await db.destroy();
    }
  }
  if (config.redisUrl === null) {
    logger.warn(
      { workers: config.webConcurrency },
      'WEB_CONCURRENCY without REDIS_URL: each worker counts the per-key rate limits on its own (a key may make up ' +
        'to N times its limit), ' +
        ('and a scanCreated subscription sees only the scans of the worker it is connected to; set REDIS_URL to ' +
          'share both'),
    );
  }

  /** Live workers and when each was forked. */
  const live = new Map<Worker, number>();
  const listening = new Set<Worker>();
  const restartTimers = new Set<NodeJS.Timeout>();
  const backoff = createRestartBackoff();
  let everyWorkerUp = false;
  let stopping = false;
  let exitCode = 0;
  let allExited = () => {};

  const own = new Registry();
  const restarts = new Counter({
    name: 'cluster_worker_restarts_total',
    help: 'Workers that died outside a shutdown and were replaced.',
    registers: [own],
  });
  new Gauge({
    name: 'cluster_workers',
    help: 'Worker processes alive (WEB_CONCURRENCY is the number wanted).',
    registers: [own],
    collect() {
      this.set(live.size);
    },
  });
  const clusterMetrics = createClusterMetrics(own);
  let metricsServer: Server | null = null;
  if (config.metricsPort !== null) {
    // The one listener for the whole cluster: its render() asks every worker.
    const metrics = createMetrics();
    metrics.renderThrough(clusterMetrics.render);
    metricsServer = await startMetricsServer({ metrics, logger, port: config.metricsPort, host: config.metricsHost });
    const address = metricsServer.address();
    const port = typeof address === 'object' && address ? address.port : config.metricsPort;
    logger.info(
      { metrics_url: `http://${config.metricsHost}:${port}/metrics` },
      'metrics listening (every worker, summed)',
    );
  }

  // Structured clone rather than JSON over the IPC channel: metric values may be NaN or Infinity.
  cluster.setupPrimary({ serialization: 'advanced' });
  const fork = () => live.set(cluster.fork(), Date.now());

  cluster.on('listening', (worker, address) => {
    if (listening.has(worker)) return;
    listening.add(worker);
    if (everyWorkerUp) {
      logger.info({ worker_id: worker.id, pid: worker.process.pid }, 'replacement worker listening');
    } else if (listening.size === config.webConcurrency) {
      everyWorkerUp = true;
      const pids = [...listening].map((w) => w.process.pid);
      logger.info(
        { url: `http://${config.host}:${address.port}`, workers: config.webConcurrency, pids },
        'every worker listening',
      );
    }
  });

  cluster.on('exit', (worker, code, signal) => {
    const forkedAt = live.get(worker) ?? Date.now();
    live.delete(worker);
    listening.delete(worker);
    const died = { worker_id: worker.id, pid: worker.process.pid, code, signal };
    if (stopping) {
      // A worker still starting has no handler yet: SIGTERM ends it at once, with nothing to drain.
      if (code !== 0 && signal !== 'SIGTERM') {
        exitCode = 1;
        logger.error(died, 'worker failed while shutting down');
      }
      if (live.size === 0) allExited();
      return;
    }
    if (!everyWorkerUp) {
      // As a single process that cannot start exits non-zero: the cause is in the worker's log above.
      logger.error(died, 'a worker exited before every worker was listening: stopping');
      exitCode = 1;
      void stop('startup failure');
      return;
    }
    const uptimeMs = Date.now() - forkedAt;
    const delayMs = backoff.next(uptimeMs);
    restarts.inc();
    logger[code === 0 ? 'warn' : 'error'](
      { ...died, uptime_ms: uptimeMs, restart_in_ms: delayMs },
      'worker exited; starting a replacement',
    );
    const timer = setTimeout(() => {
      restartTimers.delete(timer);
      fork();
    }, delayMs);
    restartTimers.add(timer);
  });

  async function stop(reason: string): Promise<void> {
    if (stopping) return;
    stopping = true;
    restartTimers.forEach(clearTimeout);
    logger.info(
      { reason, workers: live.size },
      'shutting down: every worker stops accepting, answers its requests in flight and writes its scans',
    );
    const exited = new Promise<void>((resolve) => {
      allExited = resolve;
      if (live.size === 0) resolve();
    });
    // Each worker's own SIGTERM handler drains it (main.ts). Not worker.kill(): that closes the
    // IPC channel first, and a worker whose channel closes exits at once, scans unwritten.
    for (const worker of live.keys()) worker.process.kill('SIGTERM');
    const metricsClosed = metricsServer
      ? new Promise<void>((resolve) => metricsServer!.close(() => resolve()))
      : Promise.resolve();
    metricsServer?.closeAllConnections();
    await Promise.all([exited, metricsClosed]);
    logger.info({ exit_code: exitCode }, 'stopped');
    process.exit(exitCode);
  }
  process.on('SIGTERM', () => void stop('SIGTERM'));
  process.on('SIGINT', () => void stop('SIGINT'));

  logger.info({ workers: config.webConcurrency }, 'starting the workers');
  for (let i = 0; i < config.webConcurrency; i++) fork();
}
