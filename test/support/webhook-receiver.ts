// A real webhook receiver on loopback: records every request (headers, raw body) and answers
// what the test tells it to (a status, after an optional delay, or never).
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Received {
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
  /** webhook-id, for grouping attempts of one event. */
  id: string;
  type: string;
  at: number;
}

/** A status to answer, or `hang` to keep the request open until the receiver closes. */
export type Answer = number | 'hang' | { status: number; delayMs: number };
export type Responder = (request: Received, index: number) => Answer;

export interface Receiver {
  url(path?: string): string;
  port: number;
  received: Received[];
  /** Replaces how the receiver answers from now on. */
  respond(responder: Responder): void;
  /** Resolves once `predicate` holds on the requests so far (polls), or fails after timeoutMs. */
  waitFor(predicate: (received: Received[]) => boolean, timeoutMs?: number): Promise<Received[]>;
  close(): Promise<void>;
}

export async function startReceiver(responder: Responder = () => 200): Promise<Receiver> {
  const received: Received[] = [];
  let respond = responder;
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      let type = '';
      try {
        type = JSON.parse(body).type;
      } catch {
        // not JSON: recorded as is
      }
      const request: Received = {
        path: req.url ?? '/',
        headers: req.headers,
        body,
        id: String(req.headers['webhook-id'] ?? ''),
        type,
        at: Date.now(),
      };
      received.push(request);
      const answer = respond(request, received.length - 1);
      if (answer === 'hang') return;
      const { status, delayMs } = typeof answer === 'number' ? { status: answer, delayMs: 0 } : answer;
      setTimeout(() => res.writeHead(status, { 'content-type': 'text/plain' }).end(String(status)), delayMs);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    url: (path = '/hook') => `http://127.0.0.1:${port}${path}`,
    port,
    received,
    respond(next) {
      respond = next;
    },
    async waitFor(predicate, timeoutMs = 15_000) {
      const deadline = Date.now() + timeoutMs;
      while (!predicate(received)) {
        if (Date.now() > deadline)
          throw new Error(
            `receiver: condition not met within ${timeoutMs} ms; got ${received.length} requests: ` +
              `${received.map((r) => `${r.type}:${r.id}`).join(', ')}`,
          );
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      return received;
    },
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
