// `cli codes import`: a CSV file to POST /v1/codes/bulk in batches, run as a child process
// against the test app's real port.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getTestApp, type TestApp } from '../support/app.ts';
import { runCli } from '../support/process.ts';

let app: TestApp;
let dir: string;

beforeAll(async () => {
  app = await getTestApp({ BULK_BODY_LIMIT: '4mb' });
  dir = mkdtempSync(join(tmpdir(), 'qr-import-'));
});
afterAll(async () => {
  rmSync(dir, { recursive: true, force: true });
  await app.close();
});

const HEADER = 'type,content,fg_color,bg_color,style,error_correction,logo_url';

function writeCsv(name: string, rows: number, bad: Record<number, string> = {}): string {
  const file = join(dir, name);
  const lines = Array.from(
    { length: rows },
    (_, i) => bad[i] ?? `,https://example.com/import/${i},${i % 2 ? '#1d4ed8' : ''},,${i % 3 ? 'dots' : ''},,`,
  );
  writeFileSync(file, [HEADER, ...lines].join('\n') + '\n');
  return file;
}

const importCsv = (file: string, key: string, ...extra: string[]) =>
  runCli(['codes', 'import', file, '--url', app.url, '--key', key, '--batch', '1000', ...extra], {});

async function listContents(apiKey: string): Promise<string[]> {
  const contents: string[] = [];
  let cursor: string | null = null;
  do {
    const res: any = await app.request(
      'GET',
      `/v1/codes?limit=500&sort=created_at${cursor ? `&cursor=${cursor}` : ''}`,
      { key: apiKey },
    );
    contents.push(...res.body.data.map((c: any) => c.content));
    cursor = res.body.next_cursor;
  } while (cursor);
  return contents;
}

// Each test starts the CLI (through tsx) and imports thousands of rows: on a loaded 2-core
// machine that took longer than the suite's 30 s default, so the bound is wider here.
describe('cli codes import', { timeout: 120_000 }, () => {
  it('imports 2,500 rows in 3 batches with plain progress lines and a summary', async () => {
    const key = await app.newAccountKey();
    const res = await importCsv(writeCsv('ok.csv', 2500), key);
    expect(res.code, res.stderr).toBe(0);
    const lines = res.stdout.trim().split('\n');
    // Not a TTY: one plain line per batch, no carriage returns or escape codes.
    // eslint-disable-next-line no-control-regex -- looking for terminal escape codes is the point
    expect(res.stdout).not.toMatch(/[\r\x1b]/);
    expect(lines.filter((l) => l.startsWith('batch '))).toEqual([
      expect.stringMatching(
        /^batch 1\/3 \(rows 2-1001\) created: \[#+-+\] 1,000\/2,500 rows {2}40% {2}[\d,]+ rows\/s$/,
      ),
      expect.stringMatching(/^batch 2\/3 \(rows 1002-2001\) created: \[#+-+\] 2,000\/2,500 rows {2}80% /),
      expect.stringMatching(/^batch 3\/3 \(rows 2002-2501\) created: \[#{24}\] 2,500\/2,500 rows {2}100% /),
    ]);
    expect(res.stdout).toMatch(/: 2500 codes created in 3 batches, [\d.]+ s\./);
    const batchIds = [...res.stdout.matchAll(/^ {2}(batch_\S+) {2}rows (\d+)-(\d+) {2}(\d+) codes$/gm)];
    expect(batchIds.map((m) => [m[2], m[3], m[4]])).toEqual([
      ['2', '1001', '1000'],
      ['1002', '2001', '1000'],
      ['2002', '2501', '500'],
    ]);
    expect(new Set(batchIds.map((m) => m[1])).size).toBe(3);

    const contents = await listContents(key);
    expect(contents).toHaveLength(2500);
    expect(new Set(contents)).toEqual(
      new Set(Array.from({ length: 2500 }, (_, i) => `https://example.com/import/${i}`)),
    );
  });

  it('stops at a bad row in the second batch, naming it; a re-run after the fix creates no duplicates', async () => {
    const key = await app.newAccountKey();
    const file = writeCsv('bad.csv', 2500, { 1500: ',https://example.com/import/1500,red,,,,' });
    const failed = await importCsv(file, key);
    expect(failed.code).toBe(1);
    expect(failed.stderr).toContain('Import failed at batch 2/3 (rows 1002-2001); none of its rows was created.');
    expect(failed.stderr).toMatch(/HTTP 422 Validation failed: 1 of 1000 rows are invalid/);
    expect(failed.stderr).toContain('  row 1502.fg_color: must be a color in the form #rrggbb');
    expect(failed.stderr).toMatch(/counting the header as row 1\./);
    expect(failed.stderr).toMatch(/Batch 1 \(rows 2-1001\) was created: batch_\w+\./);
    expect(failed.stdout).toMatch(/^batch 1\/3 \(rows 2-1001\) created/m);
    expect(await listContents(key)).toHaveLength(1000);

    // The same failing file again: batch 1 is replayed, not created twice.
    const again = await importCsv(file, key);
    expect(again.code).toBe(1);
    expect(again.stdout).toMatch(/^batch 1\/3 \(rows 2-1001\) replayed/m);
    expect(await listContents(key)).toHaveLength(1000);

    // Fixed: batch 1 (unchanged) replays, batches 2 and 3 are created.
    writeCsv('bad.csv', 2500);
    const fixed = await importCsv(file, key);
    expect(fixed.code, fixed.stderr).toBe(0);
    expect(fixed.stdout).toMatch(/2500 codes created in 3 batches \(1 replayed from an earlier run\)/);
    expect(await listContents(key)).toHaveLength(2500);
  });

  it('checks the file before sending anything', async () => {
    const key = await app.newAccountKey();
    const header = join(dir, 'header.csv');
    writeFileSync(header, 'url,colour\nhttps://example.com,red\n');
    const wrongHeader = await importCsv(header, key);
    expect(wrongHeader.code).toBe(1);
    expect(wrongHeader.stderr).toMatch(/must be a header: unknown column 'url'.*missing column 'content'/);

    const broken = join(dir, 'broken.csv');
    writeFileSync(broken, `${HEADER}\n,https://example.com/a,,,,,\n,"https://example.com/open,,,,,\n`);
    const malformed = await importCsv(broken, key);
    expect(malformed.code).toBe(1);
    expect(malformed.stderr).toMatch(/Cannot read .*broken\.csv as CSV: Quote Not Closed/);

    const missing = await importCsv(join(dir, 'nope.csv'), key);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toMatch(/ENOENT/);
    expect(await listContents(key)).toHaveLength(0);

    const usage = await runCli(['codes', 'import', header, '--url', app.url, '--key', key, '--batch', '20000'], {});
    expect(usage.code).toBe(2);
    expect(usage.stderr).toMatch(/--batch must be a whole number from 1 to 10000/);
  });
});
