import cluster from 'node:cluster';
import { pino, type Logger } from 'pino';
import type { Config } from './config.ts';

/** Structured JSON logs on stdout; one line per request with its request id. */
export function createLogger(config: Pick<Config, 'logLevel'>): Logger {
  return pino({
    level: config.logLevel,
    // Under WEB_CONCURRENCY the workers' lines interleave on one stdout: each says whose it is.
    base: cluster.isWorker ? { service: 'qr-service', pid: process.pid } : { service: 'qr-service' },
    timestamp: pino.stdTimeFunctions.isoTime,
    redact: { paths: ['req.headers.authorization', 'authorization'], censor: '[redacted]' },
  });
}
