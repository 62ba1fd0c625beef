// Reads that can take long on SQLite, off the thread that answers scans. better-sqlite3 runs each
// statement synchronously on the calling thread: an account overview from raw scans (in a
// half-hour time zone it groups every scan of the window) held the event loop for seconds, and
// every scan of every account waited behind it (bench/RESULTS.md, noisy-neighbor).
// createReadThreads(db) is a Knex like db whose statements run on worker threads, each with its
// own read-only connection to the same file: WAL lets them read beside the writer, a statement
// sees every batch committed before it, and a transaction (a snapshot) stays on its one thread,
// as it stays on one connection. The main thread only builds the SQL and receives the rows.
import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import knex, { type Knex } from 'knex';
import BetterSqlite3Dialect from 'knex/lib/dialects/better-sqlite3/index.js';
import { threadEntry } from '../shared/build-layout.ts';
import { tellStatementsAs } from './knex.ts';
import { STATEMENT_TIMEOUT_CODE } from './statement-timeout.ts';

export interface ReadThreadData {
  filename: string;
}

export type ReadRequest =
  /** `deadline` (epoch ms; null: none): a statement that reaches the thread after it is not run. */
  { type: 'read'; id: number; sql: string; bindings: unknown[]; deadline: number | null } | { type: 'close' };
type RunResult = { changes: number; lastInsertRowid: number | bigint };
type StatementReply =
  | { id: number; rows: unknown[] }
  | { id: number; run: RunResult }
  | { id: number; error: { message: string; code?: string } };
export type ReadReply = { ready: true } | StatementReply;

/** An idle thread lives this long, so that a burst of analytics does not pay a thread start per call. */
const IDLE_TIMEOUT_MS = 30_000;

/** Statements that end or undo a transaction run whatever their time: a connection must not stay in one. */
const TRANSACTION_CONTROL = /^\s*(BEGIN|COMMIT|ROLLBACK|SAVEPOINT|RELEASE)\b/i;

const timedOut = (timeoutMs: number) =>
  Object.assign(new Error(`the statement ran longer than ${timeoutMs} ms and was given up`), {
    code: STATEMENT_TIMEOUT_CODE,
  });

/**
 * One read thread: to knex's pool, one connection. `timeoutMs` (0: none) bounds each statement.
 * better-sqlite3 cannot interrupt a statement, so one past its time is given up: its caller is
 * answered at once, while the thread finishes it (a reader of a WAL file holds no lock a writer
 * waits for). A statement that reaches the thread after its deadline, having waited behind such
 * a one, is not run at all: a given-up statement delays the thread's next ones, never adds to them.
 */
class ReadThread {
  alive = true;
  private nextId = 1;
  private readonly pending = new Map<
    number,
    { resolve: (reply: StatementReply) => void; reject: (err: Error) => void }
  >();
  /** Statements given up that the thread is still running or has yet to skip. */
  private givenUp = 0;
  private readonly worker: Worker;
  /** Settles once the thread's connection is open (or the thread failed to start). */
  readonly ready: Promise<unknown>;

  constructor(
    data: ReadThreadData,
    private readonly timeoutMs: number,
  ) {
    this.worker = new Worker(threadEntry(import.meta.url, './read-thread-worker.js', './read-thread-entry.mjs'), {
      workerData: data,
    });
    this.ready = new Promise((resolve, reject) => {
      this.worker.once('message', resolve);
      this.worker.once('error', reject);
    });
    this.worker.on('message', (reply: ReadReply) => {
      if ('ready' in reply) return;
      const waiting = this.pending.get(reply.id);
      if (!waiting) this.givenUp--;
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

  read(sql: string, bindings: unknown[]): Promise<StatementReply> {
    return new Promise((resolve, reject) => {
      if (!this.alive) return reject(new Error('the read thread stopped'));
      const id = this.nextId++;
      const bounded = this.timeoutMs > 0 && !TRANSACTION_CONTROL.test(sql);
      const deadline = bounded ? Date.now() + this.timeoutMs : null;
      const timer = bounded
        ? setTimeout(() => {
            this.pending.delete(id);
            this.givenUp++;
            if (this.pending.size === 0) this.worker.unref();
            reject(timedOut(this.timeoutMs));
          }, this.timeoutMs)
        : undefined;
      this.pending.set(id, {
        resolve: (reply) => {
          clearTimeout(timer);
          resolve(reply);
        },
        reject: (err) => {
          clearTimeout(timer);
          reject(err);
        },
      });
      // Referenced only while a statement is out, so that an idle thread never keeps the process up.
      this.worker.ref();
      this.worker.postMessage({ type: 'read', id, sql, bindings, deadline } satisfies ReadRequest);
    });
  }

  async close(): Promise<void> {
    if (!this.alive) return;
    // A given-up statement may run for long yet: the thread is ended, not waited for.
    if (this.givenUp > 0) {
      this.alive = false;
      void this.worker.terminate();
      return;
    }
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
const BaseClient = BetterSqlite3Dialect as new (config: Knex.Config) => BetterSqliteClient;

class ReadThreadClient extends BaseClient {
  declare connectionSettings: { filename: string; statementTimeoutMs: number };

  async acquireRawConnection(): Promise<ReadThread> {
    const { filename, statementTimeoutMs } = this.connectionSettings;
    const thread = new ReadThread({ filename }, statementTimeoutMs);
    await thread.ready;
    return thread;
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
 * stays with the thread that answers scans). It cannot write. `statementTimeoutMs` (0: none)
 * bounds each statement. For an in-memory database (which no other connection can open) it is
 * `db` itself, unbounded.
 */
export function createReadThreads(db: Knex, statementTimeoutMs = 0): Knex {
  const { filename } = db.client.config.connection as { filename: string };
  if (filename === ':memory:') return db;
  const reader = knex({
    client: ReadThreadClient as unknown as typeof knex.Client,
    // ReadThreadClient's own setting beside the file's; knex keeps the object as connectionSettings.
    connection: { filename, statementTimeoutMs } as Knex.StaticConnectionConfig,
    useNullAsDefault: true,
    pool: { min: 0, max: Math.max(1, availableParallelism() - 1), idleTimeoutMillis: IDLE_TIMEOUT_MS },
  });
  tellStatementsAs(db, reader);
  return reader;
}
