// The scan journal's files on a real directory: answers wait for the group write, committed
// scans are dropped (a truncated file is written from its start again), a file still holding
// uncommitted scans is kept until they commit, and the files of a process that is gone are
// claimed and handed back by the next journal opened on the directory.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pino from 'pino';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { decodeRecords, journalFileName } from '../../src/modules/scans/journal-file.ts';
import type { ScanEvent } from '../../src/modules/scans/index.ts';
import { openScanJournal } from '../../src/modules/scans/scan-journal.ts';

const logger = pino({ level: 'silent' });
let dir: string;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'qr-journal-unit-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const scan = (id: string): ScanEvent => ({
  id,
  codeId: 'code',
  slug: 'slug123',
  accountId: 'account',
  at: 1_700_000_000_000,
  ruleId: null,
  destination: 'https://example.com/',
  country: 'DE',
  device: 'mobile',
  os: 'iOS',
  browser: 'Safari',
  referrerHost: null,
  language: 'de',
  isBot: false,
  ip: '192.0.2.7',
  userAgent: 'Mozilla/5.0 (iPhone; line\nbreak)',
});

const turn = () => new Promise((resolve) => setImmediate(resolve));

/** The journal files in the directory, each with the ids it holds. */
function files(): Record<string, string[]> {
  return Object.fromEntries(
    readdirSync(dir).map((name) => [
      name,
      decodeRecords(readFileSync(join(dir, name), 'utf8')).events.map((e) => e.id!),
    ]),
  );
}

describe('scan journal', () => {
  it('answers a turn’s scans after one group write, and drops them as their batches commit', async () => {
    const journal = openScanJournal({ dir, fsync: true, logger });
    const answered: string[] = [];
    for (const id of ['a', 'b', 'c']) journal.append(scan(id), () => answered.push(id));
    expect(answered).toEqual([]);
    await turn();
    expect(answered).toEqual(['a', 'b', 'c']);
    expect(Object.values(files())).toEqual([['a', 'b', 'c']]);

    // Everything in the file committed: truncated, and the next scans written from its start.
    journal.committed(3);
    for (const id of ['d', 'e']) journal.append(scan(id));
    await turn();
    const [name] = Object.keys(files());
    expect(files()).toEqual({ [name!]: ['d', 'e'] });
    expect(decodeRecords(readFileSync(join(dir, name!), 'utf8')).skipped).toBe(0);

    // Only d committed: the file is kept whole and a new one takes f.
    journal.committed(4);
    journal.append(scan('f'));
    await turn();
    expect(Object.values(files()).sort()).toEqual([['d', 'e'], ['f']]);
    journal.committed(6);
    expect(Object.values(files())).toEqual([[]]);
    journal.close();
    expect(readdirSync(dir)).toEqual([]);
  });

  it('hands the scans of a process that is gone to the next journal on the directory, once', async () => {
    const first = openScanJournal({ dir, fsync: false, logger });
    for (const id of ['x', 'y']) first.append(scan(id));
    await turn();
    // As if its process had died: the file carries the pid of one that exited (and another tag).
    const gone = Number(execFileSync(process.execPath, ['-p', 'process.pid'], { encoding: 'utf8' }));
    const [name] = readdirSync(dir);
    renameSync(join(dir, name!), join(dir, journalFileName(gone, 'gone', 0)));

    const second = openScanJournal({ dir, fsync: false, logger });
    expect(second.recovered.map((e) => e.id)).toEqual(['x', 'y']);
    // A third journal finds nothing to claim: the file is the second one's now.
    expect(openScanJournal({ dir, fsync: false, logger }).recovered).toEqual([]);
    second.committed(2);
    expect(Object.values(files()).flat()).toEqual([]);
  });
});
