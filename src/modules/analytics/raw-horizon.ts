// Where raw scan rows answer from, and the refusal of an answer that needs them where they are
// missing. With raw-scan retention (SCAN_RAW_RETENTION_DAYS) they answer from a horizon on, and a
// range starting earlier is refused with 422 naming `from`. A server that keeps none
// (SCAN_RAW_ROWS=none, rollups only) has no such instant: every answer that needs them is
// refused with 409 /problems/raw-scans-not-kept, naming the setting, and the horizon the answers
// state is the instant of the answer.
import { DomainError, validationFailed } from '../../shared/errors.ts';

/** The refusal of an answer that needs raw scan rows (`why`) on a server that keeps none; `otherwise`: what answers. */
export function rawScansNotKept(why: string, otherwise: string): DomainError {
  return new DomainError(
    'raw_scans_not_kept',
    `raw scan rows are not kept on this server (SCAN_RAW_ROWS=none: rollups only), and ${why}; ${otherwise}`,
  );
}

export interface RawHorizon {
  /** The earliest instant raw scans answer for (null: all are kept), as answers state it. */
  since(): number | null;
  /** Whether raw scans answer for a range starting at `from` (null: unbounded). */
  covers(from: number | null): boolean;
  /** The refusal of an answer that needs raw scans (`why`), saying what to ask instead (`otherwise`). */
  refusal(why: string, otherwise: string): DomainError;
}

/**
 * `kept`: SCAN_RAW_ROWS=keep; `retained`: the retention horizon (null: all kept).
 */
export function rawHorizon(kept: boolean, retained: () => number | null, now: () => number): RawHorizon {
  if (!kept)
    return {
      since: now,
      covers: () => false,
      refusal: rawScansNotKept,
    };
  return {
    since: retained,
    covers(from) {
      const since = retained();
      return since === null || (from !== null && from >= since);
    },
    refusal(why, otherwise) {
      const start = new Date(retained()!).toISOString();
      return validationFailed([
        {
          path: 'from',
          message: `raw scans are kept from ${start} on, and ${why}; start at ${start} or later, or ${otherwise}`,
        },
      ]);
    },
  };
}
