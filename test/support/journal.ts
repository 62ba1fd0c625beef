// Each test database gets a scan journal directory of its own. The service's default (journal/
// beside the SQLite file, or ./data/journal on MySQL) is shared by every test database in the
// same folder, and a server a test SIGKILLs leaves its journal there: the next server or test
// app to start would claim it and replay that test's scans into its own database.
import { createHash } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** The same directory for the same database (a restarted server finds its journal), another for another. */
export const journalDirFor = (databaseUrl: string): string =>
  join(tmpdir(), `qr-journal-${createHash('sha256').update(databaseUrl).digest('hex').slice(0, 16)}`);
