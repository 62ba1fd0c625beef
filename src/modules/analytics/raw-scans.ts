// The individual scan records of one code, for export: keyset pages as JSON, or every record
// as CSV, read page by page so memory stays flat however many scans there are.
import { fromMillis } from '../../db/rows.ts';
import { notFound, validationFailed } from '../../shared/errors.ts';
import type { Principal } from '../../shared/principal.ts';
import type { AccountGate } from '../../shared/account-gate.ts';
import { decodeCursor, encodeCursor } from '../codes/index.ts';
import type { CodesStore } from '../codes/index.ts';
import type { ScansStore, StoredScan } from '../scans/index.ts';
import type { ScanRecord } from './presenter.ts';
import { rawScansNotKept } from './raw-horizon.ts';
import type { RawScansQuery } from './schemas.ts';

const CURSOR_SORT = 'scanned_at';
/** Rows per read while streaming CSV. */
const EXPORT_PAGE = 2000;

function present(s: StoredScan): ScanRecord {
  return {
    id: `scan_${s.id}`,
    scanned_at: fromMillis(s.scanned_at).toISOString(),
    rule_id: s.rule_id,
    country: s.country,
    region: s.region,
    city: s.city,
    device: s.device,
    os: s.os,
    browser: s.browser,
    referrer_host: s.referrer_host,
    language: s.language,
    is_bot: Boolean(s.is_bot),
    is_unique: Boolean(s.is_unique),
    outcome: s.outcome,
  };
}

const positionOf = (s: StoredScan) => ({ at: Number(s.scanned_at), id: Number(s.id) });

/** `rawAvailableSince`: the earliest instant raw scans are kept from (ISO 8601), null when all are. */
export type RawScansResult = { rawAvailableSince: string | null } & (
  | { format: 'json'; data: ScanRecord[]; nextCursor: string | null }
  | { format: 'csv'; records: AsyncIterable<ScanRecord[]> }
);

export interface RawScansDeps {
  codes: CodesStore;
  scans: ScansStore;
  /** The earliest instant raw scans are kept from (SCAN_RAW_RETENTION_DAYS); null: all are. */
  rawAvailableSince?: () => number | null;
  /** SCAN_RAW_ROWS=keep (the default); false: no raw rows are stored, and the export is refused (409). */
  rawRowsKept?: boolean;
  /** The account's turns at expensive calls: an export reads its pages in them. */
  gate: AccountGate;
}

export function createRawScansService({
  codes,
  scans,
  rawAvailableSince = () => null,
  rawRowsKept = true,
  gate,
}: RawScansDeps) {
  return {
    /**
     * A page of records (JSON) or all records in the range (CSV); 404 for another account's code,
     * 409 on a server that keeps no raw rows (rows from before SCAN_RAW_ROWS=none would be a part only).
     */
    async list(principal: Principal, codeId: string, q: RawScansQuery): Promise<RawScansResult> {
      if (!rawRowsKept)
        throw rawScansNotKept(
          'the raw export lists them',
          "the rollups answer a code's series, totals and breakdowns (GET /v1/codes/{id}/scans)",
        );
      const range = { from: q.from ? Date.parse(q.from) : null, to: q.to ? Date.parse(q.to) : null };
      const since = rawAvailableSince();
      const kept = since === null ? null : new Date(since).toISOString();
      // An export that starts before the retention horizon would silently lack the deleted scans.
      if (kept !== null && range.from !== null && range.from < since!) {
        throw validationFailed([
          { path: 'from', message: `raw scans are kept from ${kept} on (raw_available_since); start at or after it` },
        ]);
      }
      let after: { at: number; id: number } | null = null;
      if (q.cursor) {
        const position = decodeCursor(q.cursor, CURSOR_SORT);
        after = { at: position.key, id: Number(position.id) };
        if (!Number.isSafeInteger(after.id))
          throw validationFailed([{ path: 'cursor', message: 'is not a cursor returned by this list' }]);
      }
      if (!(await codes.findById(principal.accountId, codeId))) throw notFound('code', codeId);

      const { accountId } = principal;
      if (q.format === 'csv') {
        // The first page is read before the answer starts, so that a refusal is still a 429; the
        // later ones wait their turn among the account's expensive calls, one page at a time.
        const first = await gate.run(accountId, () => scans.pageForCode(codeId, range, after, EXPORT_PAGE));
        async function* pages(): AsyncIterable<ScanRecord[]> {
          for (let rows = first; rows.length > 0;) {
            yield rows.map(present);
            const position = positionOf(rows[rows.length - 1]!);
            rows = await gate.wait(accountId, () => scans.pageForCode(codeId, range, position, EXPORT_PAGE));
          }
        }
        return { format: 'csv', records: pages(), rawAvailableSince: kept };
      }

      const rows = await gate.run(accountId, () => scans.pageForCode(codeId, range, after, q.limit + 1));
      const data = rows.slice(0, q.limit);
      const last = data[data.length - 1];
      const nextCursor =
        rows.length > q.limit && last
          ? encodeCursor({ sort: CURSOR_SORT, key: positionOf(last).at, id: String(positionOf(last).id) })
          : null;
      return { format: 'json', data: data.map(present), nextCursor, rawAvailableSince: kept };
    },
  };
}

export type RawScansService = ReturnType<typeof createRawScansService>;
