// Reading the rest of a body that an error answer did not need. Node closes a connection whose
// request was not read to its end as soon as the answer is sent, and closing a socket with
// data still arriving resets it: a client that writes its whole body before reading (Python's
// urllib and requests do) then gets a broken pipe instead of the 413 (or 401) problem. So the
// answer waits while the rest is read and dropped, up to a bound; past it the connection is cut.
import type { IncomingMessage } from 'node:http';

export interface DrainBound {
  maxBytes: number;
  maxMs: number;
}

/** Resolves once the request has been read to its end, or was cut at the bound. */
export function drainUnreadBody(req: IncomingMessage, { maxBytes, maxMs }: DrainBound): Promise<void> {
  if (req.complete || req.destroyed) return Promise.resolve();
  return new Promise((resolve) => {
    let drained = 0;
    const done = () => {
      clearTimeout(timer);
      resolve();
    };
    const cut = () => {
      req.socket.destroy();
      done();
    };
    const timer = setTimeout(cut, maxMs);
    req.on('data', (chunk: Buffer) => {
      drained += chunk.length;
      if (drained > maxBytes) cut();
    });
    req.once('end', done);
    req.once('close', done);
    req.once('error', done);
    req.resume();
  });
}
