import { pino, type Logger } from 'pino';
import type { Config } from './config.ts';

/** Structured JSON logs on stdout; one line per request with its request id. */
export function createLogger(config: Pick<Config, 'logLevel'>): Logger {
  return pino({
    level: config.logLevel,
    base: { service: 'qr-service' },
    timestamp: pino.stdTimeFunctions.isoTime,
    redact: { paths: ['req.headers.authorization', 'authorization'], censor: '[redacted]' },
  });
}
