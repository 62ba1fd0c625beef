// config -> db -> services -> app -> listen; graceful shutdown on SIGTERM/SIGINT.
// With WEB_CONCURRENCY > 1 the first process becomes the cluster primary (cluster/primary.ts),
// and each worker it forks runs the rest of this file.
import cluster from 'node:cluster';
import { createServer, type Server } from 'node:http';
import { buildRequestListener } from './app.ts';
import { shareMetricsWithPrimary } from './cluster/metrics.ts';
import { runPrimary } from './cluster/primary.ts';
import { ConfigError, loadConfig, type Config } from './config.ts';
import { createDb } from './db/knex.ts';
import { migrateLatest } from './db/migrate.ts';
import { startMetricsServer } from './http/metrics.ts';
import { createLogger } from './logger.ts';
import { createServices } from './services.ts';
import { setupLink } from './cli/create-owner.ts';

async function main(): Promise<void> {
  let config: Config;
  try {
    config = loadConfig();
  } catch (err) {
    if (err instanceof ConfigError) {
      console.error(err.message);
      process.exit(1);
    }
    throw err;
  }
  const logger = createLogger(config);
  // Ours only: under another cluster primary (pm2's cluster mode) with WEB_CONCURRENCY=1 this is a plain process.
  const clusterWorker = config.webConcurrency > 1 && cluster.isWorker;
  if (config.webConcurrency > 1 && !clusterWorker) return runPrimary(config, logger);
  const db = createDb(config.databaseUrl);
  // In a cluster the primary migrated before forking: N workers must not race to.
  if (config.migrateOnStart && !clusterWorker) {
    const applied = await migrateLatest(db);
    if (applied.length > 0) logger.info({ applied }, 'migrations applied');
  }
  const services = await createServices(db, config, logger, { journalScans: true });
  // Several processes may run workers on one database: claims keep them from sending a delivery twice at once.
  if (config.webhookWorker) services.webhookWorker.start();
  // Raw-scan retention and deleted codes' purges: with REDIS_URL one instance of the fleet at a time.
  services.scanPurge.start();
  services.auditPurge.start();
  // In a cluster METRICS_PORT is the primary's, and every /metrics shows all workers, summed there.
  if (clusterWorker) shareMetricsWithPrimary(services.metrics);
  const metricsServer =
    config.metricsPort === null || clusterWorker
      ? null
      : await startMetricsServer({
          metrics: services.metrics,
          logger,
          port: config.metricsPort,
          host: config.metricsHost,
        });
  if (metricsServer)
    logger.info(
      { metrics_url: `http://${config.metricsHost}:${listeningPort(metricsServer)}/metrics` },
      'metrics listening',
    );
  // Scans a stopped process journaled but did not commit are written before this one answers
  // any; with the database down they wait in memory and in the journal, retried until it is back.
  await services.scans.recorder.flush();
  const server = createServer(buildRequestListener({ services, logger }));
  // While draining, every answer asks its client to reconnect, so keep-alive clients (a load
  // balancer's pool too) move to another instance before the listener closes.
  server.prependListener('request', (_req, res) => {
    if (services.draining) res.setHeader('Connection', 'close');
  });
  await new Promise<void>((resolve) => server.listen(config.port, config.host, resolve));

  let stopping = false;
  const shutdown = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    services.draining = true;
    if (config.shutdownDrainMs > 0) {
      logger.info(
        { signal, drain_ms: config.shutdownDrainMs },
        'draining: /readyz answers 503 while load balancers take this instance out',
      );
      await new Promise((resolve) => setTimeout(resolve, config.shutdownDrainMs));
    }
    logger.info({ signal }, 'shutting down: no new connections, finishing in-flight requests');
    // Past the timeout, open connections are cut so the process does exit.
    const servers = metricsServer ? [server, metricsServer] : [server];
    const force = setTimeout(() => servers.forEach((s) => s.closeAllConnections()), config.shutdownTimeoutMs);
    force.unref();
    await Promise.all(servers.map((s) => new Promise<void>((resolve) => s.close(() => resolve()))));
    // Every scan answered before the close is in the buffer; write it before the pool goes.
    // Then the webhook worker stops claiming and lets its attempts in flight finish.
    await services.close();
    await db.destroy();
    logger.info('stopped');
    process.exit(0);
  };
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  process.on('SIGINT', () => void shutdown('SIGINT'));
  // Only now: whoever waits for this line may stop the process at once, and a SIGTERM that came
  // before the handlers would end it on the spot, leaving its scan journal behind undrained.
  logger.info(
    { url: `http://${config.host}:${listeningPort(server)}`, database: config.databaseUrl.split(':')[0] },
    'listening',
  );
  // First run: no one can sign in yet, so a one-time link for the first owner goes to the log
  // (one process of a cluster writes it).
  if ((!clusterWorker || cluster.worker?.id === 1) && (await services.setup.needed())) {
    const { token, expiresAt } = await services.setup.issueToken();
    logger.warn(
      { setup_url: setupLink(config.publicBaseUrl, token), expires_at: expiresAt.toISOString() },
      'no user yet: open the setup link to create the first owner (it works once, for an hour)',
    );
  }
}

function listeningPort(server: Server): number {
  const address = server.address();
  return typeof address === 'object' && address ? address.port : 0;
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
