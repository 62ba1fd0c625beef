// The scan journal's files (scan-journal.ts): one record per line, `<crc32 hex> <scan JSON>\n`.
// JSON escapes line breaks, so a record is one line; the checksum (node:zlib's crc32 over the
// JSON) tells a whole record from a torn one (a process killed mid-write) or a damaged one.
// File names carry the writing process's pid and a random tag per start: a file whose process is
// gone (or is this process's pid from an earlier start, as in a container restarted as pid 1) is
// an orphan that the next process to start claims, by renaming it, and replays.
import { readdirSync, readFileSync, renameSync } from 'node:fs';
import { join } from 'node:path';
import { crc32 } from 'node:zlib';
import type { ScanEvent } from './model.ts';

const FILE_NAME = /^scans-(\d+)-([\w-]+)-(\d+)\.journal$/;

export const journalFileName = (pid: number, tag: string, segment: number) => `scans-${pid}-${tag}-${segment}.journal`;

export function encodeRecord(event: ScanEvent): string {
  const json = JSON.stringify(event);
  return `${crc32(json).toString(16).padStart(8, '0')} ${json}\n`;
}

export interface DecodedJournal {
  events: ScanEvent[];
  /** Lines that were not a whole record with the right checksum (a torn tail, a damaged block). */
  skipped: number;
}

export function decodeRecords(text: string): DecodedJournal {
  const events: ScanEvent[] = [];
  let skipped = 0;
  const lines = text.split('\n');
  // What follows the last line break is a record cut short (or nothing).
  const tail = lines.pop()!;
  if (tail !== '') skipped += 1;
  for (const line of lines) {
    if (line === '') continue;
    const json = line.slice(9);
    if (line[8] !== ' ' || line.slice(0, 8) !== crc32(json).toString(16).padStart(8, '0')) {
      skipped += 1;
      continue;
    }
    events.push(JSON.parse(json) as ScanEvent);
  }
  return { events, skipped };
}

function processIsGone(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return false;
  } catch (err) {
    // EPERM: a process of another user has that pid, so it is alive (and not ours).
    return (err as NodeJS.ErrnoException).code === 'ESRCH';
  }
}

export interface ClaimedFile {
  path: string;
  journal: DecodedJournal;
}

/**
 * Renames every orphaned journal file in `dir` to a path of this process's (`nextPath()`) and
 * reads it. Two processes starting at once cannot both claim a file: only one rename of it succeeds.
 */
export function claimOrphans(dir: string, ownTags: Set<string>, nextPath: () => string): ClaimedFile[] {
  const claimed: ClaimedFile[] = [];
  for (const name of readdirSync(dir).sort()) {
    const match = FILE_NAME.exec(name);
    // Another journal of this process (tests open several) is not an orphan.
    if (!match || ownTags.has(match[2]!)) continue;
    const pid = Number(match[1]);
    if (pid !== process.pid && !processIsGone(pid)) continue;
    const path = nextPath();
    try {
      renameSync(join(dir, name), path);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') continue;
      throw err;
    }
    claimed.push({ path, journal: decodeRecords(readFileSync(path, 'utf8')) });
  }
  return claimed;
}
