// The baseline: a bare node:http server answering the same 302s from a Map, nothing else.
// Reads `slug destination` lines on stdin, then prints its port.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

let input = '';
process.stdin.on('data', (d) => (input += d));
process.stdin.on('end', () => {
  const targets = new Map(input.trim().split('\n').map((line) => line.split(' ') as [string, string]));
  const server = createServer((req, res) => {
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
