// GET /v1/codes/:id/scans/raw: keyset pages of scan records, and CSV streamed page by page.
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { parse } from 'csv-parse/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inTransaction } from '../../src/db/transaction.ts';
import { createScanBatchWriter } from '../../src/modules/scans/batch-writer.ts';
import { createRollupStore } from '../../src/modules/scans/rollup-store.ts';
import { createScansStore, type ScanRow } from '../../src/modules/scans/store.ts';
import { defuseFormula } from '../../src/shared/spreadsheet.ts';
import { getTestApp, type TestApp } from '../support/app.ts';
import { createCode } from '../support/factories.ts';
import { accountIdOf, recordScans } from '../support/scans.ts';

let app: TestApp;
let key: string;
let small: { id: string };

beforeAll(async () => {
  app = await getTestApp();
  key = await app.newAccountKey();
  small = await createCode(app, key);
  // 250 scans, two per second, with one referrer that a spreadsheet would run as a formula.
  await recordScans(
    app,
    key,
    small,
    Array.from({ length: 250 }, (_, i) => ({
      at: new Date(Date.parse('2026-04-01T00:00:00Z') + Math.floor(i / 2) * 1000).toISOString(),
      visitor: `v${i % 7}`,
      referrer: i === 0 ? '=HYPERLINK("x")' : null,
    })),
  );
});
afterAll(() => app.close());

/** A full garbage collection (V8's gc(), exposed at run time for the one test that weighs the heap). */
function collectGarbage(): void {
  setFlagsFromString('--expose-gc');
  (runInNewContext('gc') as () => void)();
}

describe('JSON pages', () => {
  it('walks every record once, in time order, with next_cursor', async () => {
    const seen: any[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const res: any = await app.request(
        'GET',
        `/v1/codes/${small.id}/scans/raw?limit=100${cursor ? `&cursor=${cursor}` : ''}`,
        { key },
      );
      expect(res.status).toBe(200);
      expect(res.body.object).toBe('list');
      seen.push(...res.body.data);
      cursor = res.body.next_cursor;
      pages += 1;
    } while (cursor);
    expect(pages).toBe(3);
    expect(new Set(seen.map((s) => s.id)).size).toBe(250);
    expect(seen.map((s) => s.scanned_at)).toEqual([...seen.map((s) => s.scanned_at)].sort());
    expect(seen[0]).toEqual({
      id: expect.stringMatching(/^scan_\d+$/),
      scanned_at: '2026-04-01T00:00:00.000Z',
      rule_id: null,
      country: 'US',
      device: 'mobile',
      os: 'iOS',
      browser: 'Safari',
      referrer_host: '=HYPERLINK("x")',
      language: 'en',
      is_bot: false,
      is_unique: true,
      outcome: 'redirect',
      region: null,
      city: null,
    });
    expect(seen.filter((s) => s.is_unique)).toHaveLength(7);
  });

  it('filters by from and to', async () => {
    const res = await app.request(
      'GET',
      `/v1/codes/${small.id}/scans/raw?from=2026-04-01T00:00:10Z&to=2026-04-01T00:00:20Z&limit=1000`,
      { key },
    );
    expect(res.body.data).toHaveLength(20);
  });

  it.each([
    ['cursor=nonsense', 'cursor'],
    ['limit=0', 'limit'],
    ['limit=1001', 'limit'],
    ['format=xml', 'format'],
    ['from=yesterday', 'from'],
  ])('refuses %s with a 422', async (query, path) => {
    const res = await app.request('GET', `/v1/codes/${small.id}/scans/raw?${query}`, { key });
    expect(res.status).toBe(422);
    expect(res.body.errors.map((e: any) => e.path)).toContain(path);
  });

  it("answers 404 for another account's code, in JSON and CSV", async () => {
    const other = await app.newAccountKey();
    expect((await app.request('GET', `/v1/codes/${small.id}/scans/raw`, { key: other })).status).toBe(404);
    expect((await app.request('GET', `/v1/codes/${small.id}/scans/raw?format=csv`, { key: other })).status).toBe(404);
    expect((await app.request('GET', `/v1/codes/${small.id}/scans`, { key: other })).status).toBe(404);
    const overview = await app.request('GET', '/v1/analytics/overview?from=2026-04-01&to=2026-04-02', { key: other });
    expect(overview.body).toMatchObject({ total_scans: 0, unique_scans: 0, active_codes: 0, top_codes: [] });
  });
});

describe('CSV export', () => {
  it('writes a header and defuses formula-like cells', async () => {
    const res = await app.request('GET', `/v1/codes/${small.id}/scans/raw?format=csv`, { key });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    expect(res.headers.get('content-disposition')).toContain(`scans-${small.id}.csv`);
    const lines = res.text.trim().split('\n');
    expect(lines[0]).toBe(
      'id,scanned_at,rule_id,country,device,os,browser,referrer_host,language,is_bot,is_unique,outcome,region,city',
    );
    expect(lines).toHaveLength(251);
    expect(lines[1]).toContain(`"'=HYPERLINK(""x"")"`);
    expect(lines[1]).toMatch(/,false,true,redirect,,$/);
  });

  it('reads back as the JSON records: every field, null as an empty cell, a defused cell sans apostrophe', async () => {
    const json: Record<string, unknown>[] = [];
    let cursor: string | null = null;
    do {
      const res: any = await app.request(
        'GET',
        `/v1/codes/${small.id}/scans/raw?limit=100${cursor ? `&cursor=${cursor}` : ''}`,
        { key },
      );
      json.push(...res.body.data);
      cursor = res.body.next_cursor;
    } while (cursor);
    const csv = await app.request('GET', `/v1/codes/${small.id}/scans/raw?format=csv`, { key });
    const rows: Record<string, string>[] = parse(csv.text, { columns: true });
    const asCells = (record: Record<string, unknown>) =>
      Object.fromEntries(
        Object.entries(record).map(([name, value]) => [
          name,
          value === null ? '' : typeof value === 'string' ? defuseFormula(value) : String(value),
        ]),
      );
    expect(rows).toEqual(json.map(asCells));
    // Undone the way a spreadsheet shows it, the defused referrer is the recorded one.
    expect(rows[0]!.referrer_host!.replace(/^'(?=[=+\-@\t\r])/, '')).toBe(json[0]!.referrer_host);
  });

  it('streams 100,000 scans page by page: the server reads ahead only as the client reads', async () => {
    const big = await createCode(app, key);
    const accountId = await accountIdOf(app, key);
    const { db } = app.testDb;
    const write = createScanBatchWriter(createScansStore(db), createRollupStore(db));
    const start = Date.parse('2026-01-01T00:00:00Z');
    for (let i = 0; i < 100_000; i += 5000) {
      const rows: ScanRow[] = Array.from({ length: 5000 }, (_, n) => ({
        code_id: big.id,
        account_id: accountId,
        scanned_at: start + (i + n) * 1000,
        rule_id: null,
        country: 'FR',
        device: 'android',
        os: 'Android',
        browser: 'Chrome',
        referrer_host: null,
        language: 'fr',
        is_bot: false,
        visitor_hash: `v${(i + n) % 1000}`,
        is_unique: false,
        is_account_unique: false,
      }));
      await inTransaction(db, (trx) => write(rows, trx));
    }

    let pageReads = 0;
    const countReads = (q: { sql: string }) => {
      if (q.sql.includes('scans') && /order by/i.test(q.sql) && q.sql.includes('limit')) pageReads += 1;
    };
    db.on('query', countReads);
    try {
      // Uncompressed: gzipped, the whole export (about 1 MB) would fit in the socket buffers, and
      // there would be no pause to see. Compression streams the same way (test/api/compression.test.ts).
      const response = await fetch(`${app.url}/v1/codes/${big.id}/scans/raw?format=csv`, {
        headers: { authorization: `Bearer ${key}`, 'accept-encoding': 'identity' },
      });
      expect(response.status).toBe(200);
      const reader = response.body!.getReader();
      const first = await reader.read();
      let bytes = first.value!.byteLength;
      let lines = Buffer.from(first.value!).toString().split('\n').length - 1;
      // Stop reading for a while. The server fills the socket buffers (a few MB on loopback here,
      // about half the export), then waits: its page reads stop, short of the last page.
      // On a busy machine filling them takes longer, and a page read can take longer than a
      // short wait (18 reads against 17 seen once, after 400 ms of stillness): wait (up to 24 s)
      // until the reads stand still for 1.2 s, then check they stay still.
      const sleep = () => new Promise((resolve) => setTimeout(resolve, 1200));
      let readsWhilePaused = -1;
      for (let waits = 0; pageReads !== readsWhilePaused && waits < 20; waits++) {
        readsWhilePaused = pageReads;
        await sleep();
      }
      await sleep();
      expect(pageReads).toBe(readsWhilePaused);
      expect(readsWhilePaused).toBeLessThan(50);
      // What stays alive, not what awaits collection: the heap is measured after a full GC, at
      // the pause and every 20 chunks of the rest (garbage alone made the old, unforced reading
      // pass or fail with the machine's load).
      const liveHeap = () => {
        collectGarbage();
        return process.memoryUsage().heapUsed;
      };
      const heapWhilePaused = liveHeap();
      let peakHeap = heapWhilePaused;
      for (let chunks = 1; ; chunks++) {
        const { done, value } = await reader.read();
        if (done) break;
        bytes += value.byteLength;
        lines += Buffer.from(value).toString().split('\n').length - 1;
        if (chunks % 20 === 0) peakHeap = Math.max(peakHeap, liveHeap());
      }
      expect(lines).toBe(100_001);
      // 50 pages of 2,000 rows plus the empty read that ends the stream.
      expect(pageReads).toBe(51);
      expect(bytes).toBeGreaterThan(7_500_000);
      // The whole export is ~8 MB of CSV and far more as objects; the heap stays near where it was.
      expect(peakHeap - heapWhilePaused).toBeLessThan(40_000_000);
    } finally {
      db.off('query', countReads);
    }
  }, 120_000);
});
