// The scan journal: every scan is on disk before its redirect is answered, so a crash (SIGKILL,
// an out-of-memory kill) loses no answered scan. The scan route hands the journal its scan and
// the answer to send; the scans of one event-loop turn are written with one write() in
// setImmediate (group commit), and only then are their answers sent. "On disk" means written to
// the operating system (its page cache) by a synchronous write: that survives the process, not a
// power loss; SCAN_JOURNAL_FSYNC adds an fdatasync per group for that.
// The journal is a few segment files per process. The recorder reports how many scans have
// committed; a segment whose scans all did is deleted (or, being the one written to, truncated),
// and one that still holds uncommitted scans is closed and a new one opened. At start, the files
// of processes that are gone are claimed and their scans handed back (journal-file.ts).
// A failed write (a full disk) does not hold back the answers: availability before bookkeeping.
// The scans stay in memory and are written to the database as usual; the journal reports the
// failure (failing(), the metrics) and retries with the next group.
import { randomBytes } from 'node:crypto';
import { closeSync, fdatasyncSync, ftruncateSync, mkdirSync, openSync, unlinkSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import type { Logger } from 'pino';
import { claimOrphans, encodeRecord, journalFileName } from './journal-file.ts';
import type { ScanEvent } from './model.ts';

export interface ScanJournalOptions {
  dir: string;
  /** fdatasync after every group: scans survive a power loss too, at the cost of a disk flush per turn. */
  fsync: boolean;
  logger: Logger;
  /** Told of every group written (its scan count) and every failed write. */
  onWrite?: (scans: number, ok: boolean) => void;
}

interface Segment {
  path: string;
  /** The count of scans journaled up to and including this segment's last. */
  last: number;
}

/** The tags of the journals this process opened: their files are not orphans, whatever their pid. */
const ownTags = new Set<string>();

export function openScanJournal({ dir, fsync, logger, onWrite }: ScanJournalOptions) {
  mkdirSync(dir, { recursive: true });
  const tag = randomBytes(6).toString('base64url');
  ownTags.add(tag);
  let segmentNo = 0;
  const nextPath = () => join(dir, journalFileName(process.pid, tag, segmentNo++));

  // Scans counted from the first recovered one: the recorder commits them in this order.
  let journaled = 0;
  const sealed: Segment[] = [];
  const recovered: ScanEvent[] = [];
  for (const { path, journal } of claimOrphans(dir, ownTags, nextPath)) {
    if (journal.skipped > 0)
      logger.warn({ file: path, skipped: journal.skipped }, 'scan journal: skipped a torn or damaged record');
    // Nothing to replay (a process stopped with its batches committed): no commit would drop it.
    if (journal.events.length === 0) {
      unlinkSync(path);
      continue;
    }
    recovered.push(...journal.events);
    journaled += journal.events.length;
    sealed.push({ path, last: journaled });
  }
  if (recovered.length > 0)
    logger.info({ scans: recovered.length }, 'scan journal: replaying scans of a stopped process');

  function openActive() {
    const path = nextPath();
    // Append mode: after a truncation the next write goes to the start, not past a hole of zeros.
    return { path, fd: openSync(path, 'ax'), bytes: 0 };
  }
  let active = openActive();
  let lines: string[] = [];
  let answers: (() => void)[] = [];
  let scheduled = false;
  let failure: string | null = null;
  /** The last write failed part way: the next one starts on a new line, so that only the torn record is lost. */
  let torn = false;

  function writeAll(text: string): void {
    const bytes = Buffer.from(torn ? '\n' + text : text);
    let offset = 0;
    while (offset < bytes.length) offset += writeSync(active.fd, bytes, offset);
    active.bytes += bytes.length;
    torn = false;
    if (fsync) fdatasyncSync(active.fd);
  }

  function writeGroup(): void {
    scheduled = false;
    const group = lines;
    const waiting = answers;
    lines = [];
    answers = [];
    try {
      writeAll(group.join(''));
      if (failure) logger.info('scan journal: writing again');
      failure = null;
      onWrite?.(group.length, true);
    } catch (err) {
      torn = true;
      active.bytes += 1;
      if (!failure) logger.error({ err }, 'scan journal: write failed; answering scans anyway, unjournaled');
      failure = (err as Error).message;
      onWrite?.(group.length, false);
    }
    journaled += group.length;
    for (const answer of waiting) {
      try {
        answer();
      } catch (err) {
        logger.error({ err }, 'scan answer failed');
      }
    }
  }

  return {
    /** Scans of processes that stopped without writing them, to commit before any new one. */
    recovered,

    /** Journals `event` with this turn's group; `answer` runs once the group is written. */
    append(event: ScanEvent, answer?: () => void): void {
      lines.push(encodeRecord(event));
      if (answer) answers.push(answer);
      if (!scheduled) {
        scheduled = true;
        setImmediate(writeGroup);
      }
    },

    /** The first `count` scans journaled (recovered ones first) are in the database. */
    committed(count: number): void {
      while (sealed.length > 0 && sealed[0]!.last <= count) unlinkSync(sealed.shift()!.path);
      if (active.bytes === 0) return;
      // Every scan in the file is committed (those still to be written go in after the truncation).
      if (journaled <= count) {
        ftruncateSync(active.fd, 0);
        active.bytes = 0;
        torn = false;
        return;
      }
      // Scans not yet committed are in it: it is kept whole until they are, and a new one takes the next.
      closeSync(active.fd);
      sealed.push({ path: active.path, last: journaled });
      active = openActive();
      torn = false;
    },

    /** The last write's error while writes fail (a full disk), else null. */
    failing: (): string | null => failure,

    /** Once the recorder stopped with every scan committed: nothing in the files is needed any more. */
    close(): void {
      if (lines.length > 0) writeGroup();
      closeSync(active.fd);
      for (const segment of [...sealed.splice(0), active]) unlinkSync(segment.path);
    },
  };
}

export type ScanJournal = ReturnType<typeof openScanJournal>;
