// Reads a vitest JSON report and prints "passed failed allowedSkips" for .ci/run. A skipped or
// todo test is a failure unless its file is on the allow-list of engine-specific skips (tests that
// can only run on one engine): a skip must be named, or CI would pass what never ran.
import { readFileSync } from 'node:fs';
import { basename } from 'node:path';
import { stripVTControlCharacters } from 'node:util';

const ALLOWED_SKIPS = [
  // describe.runIf(concurrentEngine): concurrent writers need MySQL/MariaDB; skipped on SQLite.
  'test/db/first-visits.test.ts',
  // describe.runIf(mysql): a real InnoDB deadlock needs MySQL/MariaDB; skipped on SQLite.
  'test/db/write-conflicts.test.ts',
  // describe.runIf(mysql): WEB_CONCURRENCY > 1 is refused on SQLite (one writer), so the
  // cluster's behaviour is tested on MySQL/MariaDB; the refusal itself runs on both.
  'test/api/cluster.test.ts',
  // describe.skipIf(mysql): the 2,000-PNG ZIP's flat memory is a property of rendering and
  // streaming, not of the engine; it runs on SQLite.
  'test/api/batches.test.ts',
  // describe.runIf(mysql): rollers in several processes need MySQL/MariaDB; skipped on SQLite.
  'test/db/dimension-deltas.test.ts',
  // describe.skipIf(sqlite): the scan route's own pool while API work holds the main pool's connections;
  // SQLite has one connection and no side pool, so there is nothing to hold apart.
  'test/api/heavy-calls.test.ts',
  // it.runIf(mysql): max_scans over two workers and over two instances; WEB_CONCURRENCY > 1 is
  // refused on SQLite, whose one-process case runs on both engines.
  'test/api/max-scans-process.test.ts',
  // it.skipIf(mysql): the SQLite read threads' connections refuse writes; on MySQL the reader is a
  // pool of connections that could write (only analytics read through it).
  'test/db/analytics-reader.test.ts',
  // it.skipIf(sqlite): the scan journal with a worker SIGKILLed under WEB_CONCURRENCY=2 (refused on
  // SQLite) and with the database cut away behind a TCP proxy (SQLite is a file, not a server); the
  // one-process SIGKILL and replay cases run on both engines.
  'test/api/scan-journal-process.test.ts',
];

/** The first line of a test's first failure message, without terminal colours, at most 300 characters. */
function firstLineOf(messages) {
  const text = stripVTControlCharacters(String(messages?.[0] ?? 'no message'));
  return text.split('\n')[0].slice(0, 300);
}

const report = JSON.parse(readFileSync(process.argv[2], 'utf8'));
// The part of the run the report is from (test-results/vitest-mariadb.json: mariadb), named with each failure.
const part = basename(process.argv[2]).replace(/^vitest-|\.json$/g, '');
let passed = 0;
let failed = 0;
let allowed = 0;
for (const file of report.testResults) {
  const name = file.name.slice(file.name.indexOf('/test/') + 1);
  for (const test of file.assertionResults) {
    if (test.status === 'passed') passed++;
    else if (
      (test.status === 'pending' || test.status === 'skipped' || test.status === 'todo') &&
      ALLOWED_SKIPS.includes(name)
    )
      allowed++;
    else {
      failed++;
      // Named here, next to the counts, with the first line of why, so a CI log cut short still
      // says which test failed and how (a timeout, an assertion and its values, an error).
      if (test.status === 'failed')
        console.error(`failed (${part}): ${name} > ${test.fullName}: ${firstLineOf(test.failureMessages)}`);
      else console.error(`not run (${test.status}, ${part}), counted as a failure: ${name} > ${test.fullName}`);
    }
  }
  // A file that failed to load has no tests in it to count.
  if (file.status === 'failed' && file.assertionResults.length === 0) {
    failed++;
    console.error(`file failed to run (${part}): ${name}: ${String(file.message).slice(0, 300)}`);
  }
}
console.log(`${passed} ${failed} ${allowed}`);
