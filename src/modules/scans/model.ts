// What the scans module shares with the modules above it (webhooks' outbox reads committed scan
// events) and with its own parts (the recorder, the batch commit, the writer thread).
import type { ScanEventOutcome } from './lifecycle-answer.ts';

/** What the scan path hands over. ip and userAgent live only until the flush hashes them. */
export interface ScanEvent {
  /**
   * Given by the scan route before it answers (scan-ids.ts): a scan replayed from the journal
   * after its batch had committed is skipped by id. Absent for scans that are not journaled.
   */
  id?: string;
  codeId: string;
  /** The slug scanned, so consumers (webhooks) can name the scan URL without a lookup. */
  slug: string;
  /** The account's own domain it was scanned on; absent or null for the service's. */
  domain?: string | null;
  accountId: string;
  at: number;
  ruleId: string | null;
  /** Null when the scan got a page: the paused or expired page, or the code's hosted page. */
  destination: string | null;
  /** What the scan was answered; absent means a redirect to the code's destination. `locked`: not a scan. */
  outcome?: ScanEventOutcome;
  /** The code asked for a password and the visitor had given it (the form, or the unlock cookie). */
  unlocked?: boolean;
  country: string | null;
  /** "US/California", from GEOIP_CITY_DB; null without it (client-info.ts, Place). */
  region?: string | null;
  /** "US/California/San Jose", from GEOIP_CITY_DB; null without it. */
  city?: string | null;
  device: string | null;
  os: string | null;
  browser: string | null;
  referrerHost: string | null;
  language: string | null;
  isBot: boolean;
  ip: string | null;
  userAgent: string | undefined;
}
