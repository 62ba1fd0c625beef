// REST routes for the audit log. Handlers only translate HTTP to service calls and back.
import { Readable } from 'node:stream';
import type { Router } from '@koa/router';
import { stringify } from 'csv-stringify';
import { principalOf, type AppState } from '../../http/context.ts';
import type { RouteEdge } from '../../http/route-edge.ts';
import { scope } from '../../http/scopes.ts';
import { defuseFormula } from '../../shared/spreadsheet.ts';
import { parseInput } from '../../shared/validation.ts';
import { AUDIT_CSV_COLUMNS, auditCsvRow, presentAuditEntry } from './presenter.ts';
import { listAuditSchema } from './schemas.ts';
import type { AuditService } from './service.ts';

export function registerAuditRoutes(router: Router<AppState>, { auth, audit }: RouteEdge & { audit: AuditService }) {
  // GET /v1/audit-log: the account's changes newest first, filtered; JSON pages or all of them as CSV
  router.get('/audit-log', auth, scope('audit:read'), async (ctx) => {
    const principal = principalOf(ctx);
    const query = parseInput(listAuditSchema, ctx.query);
    if (query.format === 'json') {
      const page = await audit.list(principal, query);
      ctx.body = { object: 'list', data: page.data.map(presentAuditEntry), next_cursor: page.nextCursor };
      return;
    }
    // The raw scans' export convention: an attachment, streamed a page at a time, formulas defused.
    const pages = audit.export(principal, query);
    ctx.attachment('audit-log.csv');
    ctx.type = 'text/csv; charset=utf-8';
    ctx.set('Cache-Control', 'private, no-store');
    const csv = stringify({ header: true, columns: [...AUDIT_CSV_COLUMNS], cast: { string: defuseFormula } });
    ctx.body = Readable.from(
      (async function* () {
        for await (const page of pages) yield* page.map(auditCsvRow);
      })(),
    ).pipe(csv);
  });
}
