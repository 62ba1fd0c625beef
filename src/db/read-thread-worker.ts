// Inside a read thread (read-thread.ts): one read-only connection to the SQLite file, which runs
// each statement the main thread posts and answers with its rows, or with what it changed (BEGIN
// and COMMIT of a read transaction), or with its error. However long a statement takes, it takes
// it here, not on the thread that answers scans.
import { createRequire } from 'node:module';
import { parentPort, workerData } from 'node:worker_threads';
import type { ReadReply, ReadRequest, ReadThreadData } from './read-thread.ts';
import { STATEMENT_TIMEOUT_CODE } from './statement-timeout.ts';

/** What this thread uses of better-sqlite3 (it has no type package here). */
interface Statement {
  reader: boolean;
  all(bindings: unknown[]): unknown[];
  run(bindings: unknown[]): { changes: number; lastInsertRowid: number | bigint };
}
interface Connection {
  pragma(sql: string): unknown;
  prepare(sql: string): Statement;
  close(): void;
}
type Driver = new (filename: string, options: { readonly: boolean }) => Connection;

const Database = createRequire(import.meta.url)('better-sqlite3') as Driver;
const { filename } = workerData as ReadThreadData;
const connection = new Database(filename, { readonly: true });
// As the main connection: a checkpoint holding the file briefly makes a read wait, not fail.
connection.pragma('busy_timeout = 5000');
const port = parentPort!;
// Told once the connection is open, so that a statement's time bound counts the statement alone.
port.postMessage({ ready: true } satisfies ReadReply);

port.on('message', (request: ReadRequest) => {
  if (request.type === 'close') {
    connection.close();
    port.close();
    return;
  }
  const { id, sql, bindings, deadline } = request;
  let reply: ReadReply;
  try {
    // Its caller was answered already (read-thread.ts): waiting behind a long statement, it is skipped.
    if (deadline !== null && Date.now() > deadline)
      throw Object.assign(new Error('the statement was given up before it ran'), { code: STATEMENT_TIMEOUT_CODE });
    const statement = connection.prepare(sql);
    reply = statement.reader ? { id, rows: statement.all(bindings) } : { id, run: statement.run(bindings) };
  } catch (err) {
    const { message, code } = err as NodeJS.ErrnoException;
    reply = { id, error: { message, code } };
  }
  port.postMessage(reply);
});
