// The code of the error a SQLite read thread gives up a statement with (read-thread.ts), in a file
// of its own so that the thread itself (read-thread-worker.ts) loads nothing else to name it.
export const STATEMENT_TIMEOUT_CODE = 'STATEMENT_TIMEOUT';
