// Scan load for crash tests: `connections` keep-alive clients each scanning one URL in a loop
// until stopped, counting the answers that arrived whole, by status. A request cut short by the
// server's death is not an answer; it is counted apart (`cut`): the server may have journaled
// that scan before it died, so a crash test may find it stored.
import { Agent, request } from 'node:http';

export interface ScanLoad {
  /** Stops issuing requests and resolves with the count of each status received. */
  stop(): Promise<Record<number, number>>;
  /** Answers received so far. */
  answered(): number;
  /**
   * Requests that reached a server and got no whole answer (reset, hang-up): at most one per
   * connection at a crash. Refused connections (no server listening) are not among them.
   */
  cut(): number;
}

/** How long one scan may go unanswered before it is given up (and counted as cut). */
const ANSWER_TIMEOUT_MS = 5_000;

export function startScanLoad(url: string, connections: number): ScanLoad {
  const agent = new Agent({ keepAlive: true, maxSockets: connections });
  const statuses: Record<number, number> = {};
  let total = 0;
  let cut = 0;
  let running = true;
  const cutShort = (err: NodeJS.ErrnoException) => {
    if (err.code !== 'ECONNREFUSED') cut += 1;
  };

  function one(): Promise<void> {
    return new Promise((resolve) => {
      const req = request(url, { agent }, (res) => {
        res.resume();
        res.on('end', () => {
          statuses[res.statusCode!] = (statuses[res.statusCode!] ?? 0) + 1;
          total += 1;
          resolve();
        });
        res.on('error', (err) => {
          cutShort(err);
          resolve();
        });
      });
      req.on('error', (err) => {
        cutShort(err);
        resolve();
      });
      // A connection the cluster's primary had accepted for a worker that was then killed may get
      // no answer and no close: without a bound, stop() would wait for it forever.
      req.setTimeout(ANSWER_TIMEOUT_MS, () => req.destroy(new Error(`no answer within ${ANSWER_TIMEOUT_MS} ms`)));
      req.end();
    });
  }

  async function client(): Promise<void> {
    while (running) {
      const before = total;
      await one();
      // The server is gone: stop hammering a closed port.
      if (total === before) await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }

  const clients = Array.from({ length: connections }, () => client());
  return {
    answered: () => total,
    cut: () => cut,
    async stop() {
      running = false;
      await Promise.all(clients);
      agent.destroy();
      return statuses;
    },
  };
}
