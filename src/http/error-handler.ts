// Outermost middleware: every failure leaves as problem+json; unknown errors are logged and
// answered with a generic 500 that reveals nothing of the internals.
import type { Middleware } from 'koa';
import { databaseRefusal } from '../db/dialect.ts';
import { DomainError, kindForStatus, type ErrorKind } from '../shared/errors.ts';
import type { AppState } from './context.ts';
import { drainUnreadBody, type DrainBound } from './drain.ts';
import { PROBLEM_CONTENT_TYPE, problemFor, type Problem } from './problem.ts';

/** Errors thrown by libraries (co-body, @koa/router, http-errors) carry a status and `expose`. */
interface HttpLikeError {
  status?: number;
  statusCode?: number;
  expose?: boolean;
  type?: string;
  limit?: number;
  message?: string;
}

function libraryErrorDetail(err: HttpLikeError, status: number): string {
  if (err instanceof SyntaxError || /invalid JSON/i.test(err.message ?? '')) {
    return `The request body is not valid JSON (an object or array): ${err.message}`;
  }
  switch (err.type) {
    case 'entity.too.large':
      return `The request body is larger than the limit of ${err.limit} bytes.`;
    case 'encoding.unsupported':
      return err.message ?? 'Unsupported content encoding.';
    case 'request.aborted':
      return 'The request was aborted by the client.';
  }
  return err.expose && err.message ? err.message : problemFor(kindForStatus(status), '').title;
}

function toProblem(err: unknown): { problem: Problem; known: boolean } {
  if (err instanceof DomainError) {
    return {
      problem: problemFor(err.kind, err.message, err.fieldErrors ? { errors: err.fieldErrors } : {}),
      known: true,
    };
  }
  const httpErr = (err ?? {}) as HttpLikeError;
  const status = httpErr.status ?? httpErr.statusCode;
  if (typeof status === 'number' && status >= 400 && status < 500) {
    const kind: ErrorKind = kindForStatus(status);
    return { problem: { ...problemFor(kind, libraryErrorDetail(httpErr, status)), status }, known: true };
  }
  return { problem: problemFor('internal', 'An unexpected error occurred. It has been logged.'), known: false };
}

/** `drain`: how much of a body the answer did not need is read before the connection closes (drain.ts). */
export function errorHandler(drain: DrainBound): Middleware<AppState> {
  return async (ctx, next) => {
    try {
      await next();
    } catch (thrown) {
      const err = databaseRefusal(thrown) ?? thrown;
      const { problem, known } = toProblem(err);
      if (known) ctx.state.log?.debug({ err, status: problem.status }, 'request failed');
      else ctx.state.log?.error({ err }, 'unhandled error');
      if (problem.status === 401) ctx.set('WWW-Authenticate', 'Bearer realm="qr-service"');
      if (err instanceof DomainError && err.retryAfterSeconds !== undefined)
        ctx.set('Retry-After', String(err.retryAfterSeconds));
      await drainUnreadBody(ctx.req, drain);
      ctx.status = problem.status;
      ctx.type = PROBLEM_CONTENT_TYPE;
      ctx.body = { ...problem, instance: ctx.path, request_id: ctx.state.requestId };
    }
  };
}
