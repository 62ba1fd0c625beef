// POST /v1/codes/bulk: create up to 10,000 codes atomically, from JSON or CSV.
import type { Router } from '@koa/router';
import type { Middleware } from 'koa';
import { hasBody } from '../../http/body.ts';
import { principalOf, type AppState } from '../../http/context.ts';
import { scope } from '../../http/scopes.ts';
import { idempotent, type IdempotencyRunner } from '../../http/idempotent.ts';
import type { RouteEdge } from '../../http/route-edge.ts';
import { DomainError } from '../../shared/errors.ts';
import { parseInput } from '../../shared/validation.ts';
import { readCsvCodes, withCsvRows } from './csv.ts';
import { bulkResultJson } from './presenter.ts';
import { bulkBodySchema, type BulkService } from './service.ts';

const isCsv = (ctx: { is(...types: string[]): string | false | null }) => !!ctx.is('text/csv');

/** `text/csv` is read into `{ codes }` by ./csv.ts; anything else goes to the JSON parser. */
function bulkBody(limitBytes: number, json: Middleware<AppState>): Middleware<AppState> {
  return async (ctx, next) => {
    if (!isCsv(ctx)) {
      if (hasBody(ctx) && !ctx.is('application/json', '+json')) {
        throw new DomainError(
          'unsupported_media_type',
          `Send the body as JSON (Content-Type: application/json) or CSV (Content-Type: text/csv) (got ` +
            `'${ctx.get('Content-Type') || 'none'}').`,
        );
      }
      return json(ctx, next);
    }
    if (!hasBody(ctx)) throw new DomainError('bad_request', 'This request needs a CSV body.');
    if (Number(ctx.get('Content-Length')) > limitBytes) {
      throw new DomainError('payload_too_large', `The request body is larger than the limit of ${limitBytes} bytes.`);
    }
    const charset = ctx.request.charset;
    if (charset && !/^utf-?8$/i.test(charset)) {
      throw new DomainError('unsupported_media_type', `Send CSV as UTF-8 (got charset '${charset}').`);
    }
    const encoding = ctx.get('Content-Encoding');
    if (encoding && encoding !== 'identity') {
      throw new DomainError('unsupported_media_type', `Send CSV uncompressed (got Content-Encoding '${encoding}').`);
    }
    ctx.request.body = await readCsvCodes(ctx.req, limitBytes);
    await next();
  };
}

export interface BulkRouteDeps extends RouteEdge {
  bulk: BulkService;
  idempotency: IdempotencyRunner;
  /** BULK_BODY_LIMIT, for CSV bodies (JSON ones go through bulkJson). */
  bulkBodyLimit: number;
}

export function registerBulkRoutes(
  router: Router<AppState>,
  { auth, bulkJson, publicBaseUrl, bulk, idempotency, bulkBodyLimit }: BulkRouteDeps,
): void {
  // POST /v1/codes/bulk: create up to 10,000 codes atomically (Idempotency-Key honoured).
  // With CSV, error paths name rows: `row <n>.<column>`, the header being row 1.
  router.post(
    '/codes/bulk',
    auth,
    scope('codes:write'),
    bulkBody(bulkBodyLimit, bulkJson),
    idempotent(idempotency),
    async (ctx) => {
      // The envelope is checked here; its items one by one by the service, each one's problems under its index.
      const result = await bulk
        .create(principalOf(ctx), parseInput(bulkBodySchema, ctx.request.body))
        .catch((err: unknown) => {
          throw isCsv(ctx) ? withCsvRows(err) : err;
        });
      ctx.status = 201;
      ctx.type = 'application/json';
      ctx.body = await bulkResultJson(result, publicBaseUrl);
    },
  );
}
