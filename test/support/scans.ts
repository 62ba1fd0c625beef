// Scans with chosen times and visitors, written through the app's real recorder (flags,
// raw rows, rollups), for analytics tests with known answers.
import { createDimensionRoller } from '../../src/modules/scans/dimension-deltas.ts';
import type { ScanEvent } from '../../src/modules/scans/model.ts';
import type { TestApp } from './app.ts';

export interface ScanSpec {
  at: string;
  /** Who scanned: same visitor, same hash within a UTC day. */
  visitor?: string;
  country?: string | null;
  device?: string | null;
  os?: string | null;
  browser?: string | null;
  referrer?: string | null;
  language?: string | null;
  ruleId?: string | null;
  bot?: boolean;
}

export async function accountIdOf(app: TestApp, key: string): Promise<string> {
  const principal = await app.services.accounts.authenticate(key);
  if (!principal) throw new Error('unknown key');
  return principal.accountId;
}

export function scanEvent(code: { id: string; slug?: string | null }, accountId: string, s: ScanSpec): ScanEvent {
  return {
    codeId: code.id,
    slug: code.slug ?? 'unknown',
    accountId,
    at: Date.parse(s.at),
    ruleId: s.ruleId ?? null,
    destination: 'https://example.com/',
    country: s.country === undefined ? 'US' : s.country,
    device: s.device === undefined ? 'mobile' : s.device,
    os: s.os === undefined ? 'iOS' : s.os,
    browser: s.browser === undefined ? 'Safari' : s.browser,
    referrerHost: s.referrer ?? null,
    language: s.language === undefined ? 'en' : s.language,
    isBot: s.bot ?? false,
    ip: `visitor-${s.visitor ?? 'v1'}`,
    userAgent: s.bot ? 'bot' : 'browser',
  };
}

/** Records the scans in order (the salt of each UTC day is created as the day is first seen). */
export async function recordScans(
  app: TestApp,
  key: string,
  code: { id: string; slug?: string | null },
  scans: ScanSpec[],
): Promise<void> {
  const accountId = await accountIdOf(app, key);
  for (const s of scans) app.services.scans.recorder.enqueue(scanEvent(code, accountId, s));
  await app.services.scans.recorder.flush();
}

/**
 * Rolls every queued breakdown count into scan_dimension_rollups (the live writer does so every
 * few batches), for tests that read that table itself.
 */
export async function rollQueuedBreakdowns(app: TestApp): Promise<void> {
  const roll = createDimensionRoller(app.testDb.db);
  while ((await roll()) > 0);
}
