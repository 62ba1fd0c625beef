// Inside the scan writer thread: commits the batches the main thread posts, on this thread's own
// connection pool, and answers each with its result or its error. Building the SQL, hashing the
// visitors and waiting on the database happen here, not on the thread that answers scans.
import { parentPort, workerData } from 'node:worker_threads';
import { createDb } from '../db/knex.ts';
import type { WriterReply, WriterRequest, WriterThreadData } from '../modules/scans/index.ts';
import { createScanCommit } from './compose.ts';

const { databaseUrl, publicBaseUrl, rawRows } = workerData as WriterThreadData;
const db = createDb(databaseUrl);
const commit = createScanCommit(db, publicBaseUrl, rawRows);
const port = parentPort!;

port.on('message', (request: WriterRequest) => {
  if (request.type === 'close') {
    // The pool's sockets are the last handles: once they close, the thread exits.
    void db.destroy().finally(() => port.close());
    return;
  }
  const { id, batchId, events } = request;
  commit(events, batchId).then(
    (result) => port.postMessage({ id, result } satisfies WriterReply),
    (err: NodeJS.ErrnoException) =>
      port.postMessage({ id, error: { message: err.message, code: err.code } } satisfies WriterReply),
  );
});
