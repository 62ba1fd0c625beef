// Liveness and readiness for orchestrators; unauthenticated and cheap.
import { Router } from '@koa/router';
import { DomainError } from '../shared/errors.ts';
import { SERVICE_VERSION } from '../shared/version.ts';
import type { AppState } from './context.ts';

/** What the readiness check asks of the running service. */
export interface Readiness {
  /** True once shutdown has begun: a load balancer should send nothing new. */
  readonly draining: boolean;
  pingDatabase(): Promise<void>;
  /** The scan journal's write error while its writes fail, else null. */
  scanJournalFailing(): string | null;
}

export function createOpsRouter(services: Readiness): Router<AppState> {
  const router = new Router<AppState>();

  // GET /healthz: the process is up, and which release it runs
  router.get('/healthz', (ctx) => {
    ctx.body = { status: 'ok', version: SERVICE_VERSION };
  });

  // GET /readyz: the database answers, and the process is not shutting down
  router.get('/readyz', async (ctx) => {
    if (services.draining) throw new DomainError('unavailable', 'This instance is shutting down.');
    try {
      await services.pingDatabase();
    } catch (err) {
      ctx.state.log.warn({ err }, 'readiness check failed');
      throw new DomainError('unavailable', 'The database is not reachable.');
    }
    // Still ready: scans are answered and recorded without the journal (availability before
    // bookkeeping), but the operator is told their crash safety is gone (docs/operations.md).
    const journalError = services.scanJournalFailing();
    ctx.body = journalError ? { status: 'ready', scan_journal_error: journalError } : { status: 'ready' };
  });

  return router;
}
