// One account's long analytics read does not hold another account's scans. An account overview
// answered from the raw scans (ANALYTICS_SOURCE=raw, which benchmarks and cross-checks use; the
// rollups answer every zone of today) reads and groups every scan of the window: on SQLite that
// read runs on a read thread (src/db/read-thread.ts), not on the thread that answers scans, and
// on MySQL it waits on the server. So while one overview is out, the scans of another account,
// each sent once the one before it was answered, keep being answered.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getTestApp, type TestApp } from '../support/app.ts';
import { createCode } from '../support/factories.ts';
import { accountIdOf } from '../support/scans.ts';

const DAY = 86_400_000;
/** Raw scans of the noisy account: 1,000 rows, doubled seven times. */
const SEEDED = 1_000 * 2 ** 7;

let app: TestApp;

beforeAll(async () => {
  // The read is made heavy on purpose (2-3 s on MariaDB on a quiet machine, several times that on
  // a loaded CI runner), so the statement timeout, whose 10 s default guards production reads and
  // is tested in analytics-timeout.test.ts, is off: this test is about what the read blocks.
  // The per-address scan limit (6,000 a minute by default) is off too: beside a read that lasts
  // several seconds the loop below sends scans from one address faster than 100 a second, and a
  // CI run on MariaDB saw its 6,001st scan refused with a 429.
  app = await getTestApp({
    RATE_LIMIT_PER_MINUTE: '0',
    SCAN_RATE_LIMIT_PER_MINUTE: '0',
    ANALYTICS_SOURCE: 'raw',
    ANALYTICS_STATEMENT_TIMEOUT_MS: '0',
  });
});
afterAll(() => app.close());

/** SEEDED scans of `code` over the last 30 days, written straight into the raw table. */
async function seedScans(code: { id: string }, accountId: string): Promise<void> {
  const db = app.testDb.db;
  const now = Date.now();
  const rows = Array.from({ length: 1_000 }, (_, i) => ({
    code_id: code.id,
    account_id: accountId,
    scanned_at: now - 1 - ((i * 2_591) % (30 * DAY)),
    country: ['US', 'IN', 'DE', 'FR'][i % 4],
    device: 'mobile',
    os: 'iOS',
    browser: 'Safari',
    visitor_hash: `v${i}`,
    is_bot: false,
    is_unique: true,
    is_account_unique: true,
  }));
  await db.batchInsert('scans', rows, 200);
  const columns = Object.keys(rows[0]!);
  for (let i = 0; i < 7; i++) {
    await db.raw(
      `INSERT INTO scans (${columns.join(', ')}) SELECT ${columns.join(', ')} FROM scans WHERE code_id = ?`,
      [code.id],
    );
  }
}

describe('analytics beside scans', () => {
  it("answers another account's scans while an overview from raw scans is read", async () => {
    const noisy = await app.newAccountKey('noisy');
    const quiet = await app.newAccountKey('quiet');
    const busy = await createCode(app, noisy, { content: 'https://example.com/busy' });
    await seedScans(busy, await accountIdOf(app, noisy));
    const code = await createCode(app, quiet, { content: 'https://example.com/quiet' });
    // Its first scan puts the code in the scan route's cache.
    expect((await fetch(code.scan_url, { redirect: 'manual' })).status).toBe(302);

    const from = new Date(Date.now() - 31 * DAY).toISOString().slice(0, 10);
    let out = true;
    const overview = app
      .request('GET', `/v1/analytics/overview?from=${from}&timezone=Asia/Kolkata`, { key: noisy })
      .finally(() => (out = false));
    let answeredMeanwhile = 0;
    while (out) {
      const scan = await fetch(code.scan_url, { redirect: 'manual' });
      expect(scan.status).toBe(302);
      if (out) answeredMeanwhile++;
    }
    const answer = await overview;
    expect(answer.status).toBe(200);
    expect(answer.body.total_scans).toBe(SEEDED);
    // Held behind the read, no scan is answered from its start to the overview's end: only those
    // answered while the request was on its way to the read (2 when the read ran on this thread;
    // over a thousand beside the read thread, on a loaded 2-core machine).
    expect(answeredMeanwhile).toBeGreaterThanOrEqual(20);
  });
});
