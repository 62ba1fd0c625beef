// A full disk under the scan journal: scans are still answered and stored (availability before
// bookkeeping), /readyz names the journal's error and the metric counts the unjournaled scans;
// once space is back, the journal writes again and /readyz clears. The disk is real: a tmpfs of
// 64 KiB mounted for this test (CI runs as root), filled to its last byte by a plain file.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getTestApp, type TestApp } from '../support/app.ts';
import { createCode } from '../support/factories.ts';

const TOKEN = 'full-disk-metrics-token-0123456789';
const PHONE = 'Mozilla/5.0 (iPhone; CPU iPhone OS 18_0 like Mac OS X) AppleWebKit/605.1.15 Mobile/15E148';

let mountPoint: string;
let journalDir: string;
let app: TestApp;

beforeAll(async () => {
  mountPoint = mkdtempSync(join(tmpdir(), 'qr-full-disk-'));
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=64k', 'tmpfs', mountPoint], { stdio: 'pipe' });
  } catch (err) {
    throw new Error('this test mounts a 64 KiB tmpfs and needs root (CAP_SYS_ADMIN)', { cause: err });
  }
  journalDir = join(mountPoint, 'journal');
  app = await getTestApp(
    { SCAN_JOURNAL_DIR: journalDir, METRICS_TOKEN: TOKEN, SCAN_RATE_LIMIT_PER_MINUTE: '0' },
    { journalScans: true },
  );
});

afterAll(async () => {
  await app?.close();
  if (mountPoint) {
    execFileSync('umount', [mountPoint]);
    rmSync(mountPoint, { recursive: true, force: true });
  }
});

/** Fills the file system to its last block: each write's size halves until none fits. */
function fillDisk(): string {
  const filler = join(mountPoint, 'filler');
  writeFileSync(filler, '');
  for (let size = 64 * 1024; size >= 1;) {
    try {
      writeFileSync(filler, Buffer.alloc(size), { flag: 'a' });
    } catch {
      size = Math.floor(size / 2);
    }
  }
  return filler;
}

async function journaledTotal(result: 'ok' | 'failed'): Promise<number> {
  const metrics = await app.request('GET', '/metrics', { key: TOKEN });
  const line = new RegExp(`^scans_journaled_total\\{result="${result}"\\} (\\d+)$`, 'm').exec(metrics.text);
  if (!line) throw new Error(`no scans_journaled_total{result="${result}"} in /metrics`);
  return Number(line[1]);
}

async function scan(url: string, times: number): Promise<void> {
  for (let i = 0; i < times; i++) {
    const answer = await fetch(url, { redirect: 'manual', headers: { 'User-Agent': PHONE } });
    expect(answer.status).toBe(302);
  }
}

describe('scan journal on a full disk', () => {
  it('answers and stores every scan, says so on /readyz and in a metric, and recovers with space', async () => {
    const key = await app.newAccountKey();
    const code = await createCode(app, key, { content: 'https://example.com/full-disk' });
    await scan(code.scan_url, 1);
    await app.services.scans.recorder.flush();
    expect((await app.request('GET', '/readyz')).body).toEqual({ status: 'ready' });
    const okBefore = await journaledTotal('ok');
    expect(okBefore).toBeGreaterThanOrEqual(1);

    const filler = fillDisk();
    await scan(code.scan_url, 20);
    const ready = await app.request('GET', '/readyz');
    expect(ready.status).toBe(200);
    expect(ready.body.scan_journal_error).toMatch(/ENOSPC|no space/i);
    expect(await journaledTotal('failed')).toBeGreaterThanOrEqual(1);

    await app.services.scans.recorder.flush();
    const stats = await app.request('GET', `/v1/codes/${code.id}/scans`, { key });
    expect(stats.status).toBe(200);
    expect(stats.body.total_scans).toBe(21);

    rmSync(filler);
    await scan(code.scan_url, 2);
    expect((await app.request('GET', '/readyz')).body).toEqual({ status: 'ready' });
    expect(await journaledTotal('ok')).toBeGreaterThan(okBefore);
    // Whatever the failed writes left behind is a torn tail; once committed, the files are dropped or empty.
    await app.services.scans.recorder.flush();
    const leftover = readdirSync(journalDir).reduce((bytes, name) => bytes + statSync(join(journalDir, name)).size, 0);
    expect(leftover).toBe(0);
  });
});
