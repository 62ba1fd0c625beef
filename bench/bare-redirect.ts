// The baseline: a bare node:http server answering the same 302s from a Map, nothing else.
// Reads `slug destination` lines on stdin, then prints its port. With BUSY_US=n it first
// spins n µs of CPU per request: a server exactly n µs of work per answer dearer than the bare
// one, to show the CPU budget a throughput ratio leaves on this machine (bench:redirect --busy-us).
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

const busyMs = Number(process.env.BUSY_US ?? 0) / 1000;

let input = '';
process.stdin.on('data', (d) => (input += d));
process.stdin.on('end', () => {
  const targets = new Map(
    input
      .trim()
      .split('\n')
      .map((line) => line.split(' ') as [string, string]),
  );
  const server = createServer((req, res) => {
    if (busyMs > 0) for (const until = performance.now() + busyMs; performance.now() < until;);
    const location = targets.get((req.url ?? '').slice(1));
    if (!location) {
      res.writeHead(404).end();
      return;
    }
    res.writeHead(302, { Location: location, 'Cache-Control': 'private, max-age=0', 'Content-Length': '0' });
    res.end();
  });
  server.listen(0, '127.0.0.1', () => console.log(`port ${(server.address() as AddressInfo).port}`));
});
