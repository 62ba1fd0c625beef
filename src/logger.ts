import cluster from 'node:cluster';
import { pino, type Logger, type LoggerOptions } from 'pino';
import type { Config } from './config.ts';

function options(level: string): LoggerOptions {
  return {
    level,
    // Under WEB_CONCURRENCY the workers' lines interleave on one stdout: each says whose it is.
    base: cluster.isWorker ? { service: 'qr-service', pid: process.pid } : { service: 'qr-service' },
    timestamp: pino.stdTimeFunctions.isoTime,
    redact: { paths: ['req.headers.authorization', 'authorization'], censor: '[redacted]' },
  };
}

/** Structured JSON logs on stdout; one line per request with its request id. */
export function createLogger(config: Pick<Config, 'logLevel'>): Logger {
  return pino(options(config.logLevel));
}

/**
 * The CLI's log: warnings and worse, on stderr, so that stdout holds only what a command prints
 * for scripts (the key of `keys create`; a fresh install's first key also writes OAUTH_KEYS_FILE
 * and warns about it).
 */
export function createCliLogger(): Logger {
  return pino(options('warn'), pino.destination(2));
}
