// Reads that can take long on SQLite, off the thread that answers scans. better-sqlite3 runs each
// statement synchronously on the calling thread: an account overview from raw scans (in a
// half-hour time zone it groups every scan of the window) held the event loop for seconds, and
// every scan of every account waited behind it (bench/RESULTS.md, noisy-neighbor).
// createReadThreads(db) is a Knex like db whose statements run on worker threads, each with its
// own read-only connection to the same file: WAL lets them read beside the writer, a statement
// sees every batch committed before it, and a transaction (a snapshot) stays on its one thread,
// as it stays on one connection. The main thread only builds the SQL and receives the rows.
import { createRequire } from 'node:module';
import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import knex, { type Knex } from 'knex';
import { threadEntry } from '../shared/build-layout.ts';
import { isSqlite } from './knex.ts';

export interface ReadThreadData {
  filename: string;
}
export type ReadRequest = { type: 'read'; id: number; sql: string; bindings: unknown[] } | { type: 'close' };
type RunResult = { changes: number; lastInsertRowid: number | bigint };
export type ReadReply =
  | { id: number; rows: unknown[] }
  | { id: number; run: RunResult }
  | { id: number; error: { message: string; code?: string } };

/** The events a Knex tells its statements by. */
const QUERY_EVENTS = ['query', 'query-error', 'query-response'] as const;

/** An idle thread lives this long, so that a burst of analytics does not pay a thread start per call. */
const IDLE_TIMEOUT_MS = 30_000;

/** One read thread: to knex's pool, one connection. */
class ReadThread {
  alive = true;
  private nextId = 1;
  private readonly pending = new Map<number, { resolve: (reply: ReadReply) => void; reject: (err: Error) => void }>();
  private readonly worker: Worker;

  constructor(data: ReadThreadData) {
    this.worker = new Worker(threadEntry(import.meta.url, './read-thread-worker.js', './read-thread-entry.mjs'), {
      workerData: data,
    });
    this.worker.on('message', (reply: ReadReply) => {
      const waiting = this.pending.get(reply.id);
      this.pending.delete(reply.id);
      if (this.pending.size === 0) this.worker.unref();
      waiting?.resolve(reply);
    });
    this.worker.on('error', (err) => this.stopped(err));
    this.worker.on('exit', (code) => this.stopped(new Error(`a read thread stopped (exit code ${code})`)));
  }

  private stopped(err: Error): void {
    this.alive = false;
    for (const { reject } of this.pending.values()) reject(err);
    this.pending.clear();
  }

  read(sql: string, bindings: unknown[]): Promise<ReadReply> {
    return new Promise((resolve, reject) => {
      if (!this.alive) return reject(new Error('the read thread stopped'));
      const id = this.nextId++;
      this.pending.set(id, { resolve, reject });
      // Referenced only while a statement is out, so that an idle thread never keeps the process up.
      this.worker.ref();
      this.worker.postMessage({ type: 'read', id, sql, bindings } satisfies ReadRequest);
    });
  }

  async close(): Promise<void> {
    if (!this.alive) return;
    const exited = new Promise((resolve) => this.worker.once('exit', resolve));
    this.worker.postMessage({ type: 'close' } satisfies ReadRequest);
    await exited;
  }
}

/** What this file uses of knex's better-sqlite3 client, whose statements it moves to the threads. */
interface QueryObject {
  sql: string;
  bindings?: unknown[];
  response?: unknown;
  context?: { lastID: number | bigint; changes: number };
}
interface BetterSqliteClient {
  connectionSettings: { filename: string };
  _formatBindings(bindings: unknown[] | undefined): unknown[];
}
const BaseClient = createRequire(import.meta.url)('knex/lib/dialects/better-sqlite3/index.js') as new (
  config: Knex.Config,
) => BetterSqliteClient;

class ReadThreadClient extends BaseClient {
  async acquireRawConnection(): Promise<ReadThread> {
    return new ReadThread({ filename: this.connectionSettings.filename });
  }

  async destroyRawConnection(thread: ReadThread): Promise<void> {
    await thread.close();
  }

  async validateConnection(thread: ReadThread): Promise<boolean> {
    return thread.alive;
  }

  async _query(thread: ReadThread, obj: QueryObject): Promise<QueryObject> {
    const reply = await thread.read(obj.sql, this._formatBindings(obj.bindings));
    if ('error' in reply) throw Object.assign(new Error(reply.error.message), { code: reply.error.code });
    if ('rows' in reply) return Object.assign(obj, { response: reply.rows });
    return Object.assign(obj, {
      response: reply.run,
      context: { lastID: reply.run.lastInsertRowid, changes: reply.run.changes },
    });
  }
}

/**
 * A Knex that reads `db`'s SQLite file on read threads (one per core but one, at least 1: a core
 * stays with the thread that answers scans). It cannot write. On MySQL, and for an in-memory
 * SQLite database (which no other connection can open), it is `db` itself: mysql2 already waits
 * for the server off the event loop.
 */
export function createReadThreads(db: Knex): Knex {
  if (!isSqlite(db)) return db;
  const { filename } = db.client.config.connection as { filename: string };
  if (filename === ':memory:') return db;
  const reader = knex({
    client: ReadThreadClient as unknown as typeof knex.Client,
    connection: { filename },
    useNullAsDefault: true,
    pool: { min: 0, max: Math.max(1, availableParallelism() - 1), idleTimeoutMillis: IDLE_TIMEOUT_MS },
  });
  // Told as db's own: whoever watches db's statements (a query log, the tests that count them)
  // sees these too, as they would on MySQL, where the reads run on db.
  for (const event of QUERY_EVENTS) reader.on(event, (...args: unknown[]) => db.emit(event, ...args));
  return reader;
}
