// A loopback TCP proxy a test can cut and restore: a database that goes away (every connection
// dropped, new ones refused) and comes back on the same address.
import { connect, createServer, type Server, type Socket } from 'node:net';

export interface TcpProxy {
  port: number;
  /** Drops every connection and refuses new ones. */
  down(): Promise<void>;
  /** Accepts connections again, on the same port. */
  up(): Promise<void>;
  close(): Promise<void>;
}

export async function startTcpProxy(targetHost: string, targetPort: number): Promise<TcpProxy> {
  const sockets = new Set<Socket>();
  let server: Server | null = null;
  let port = 0;

  async function listen(): Promise<void> {
    const s = createServer((client) => {
      const upstream = connect(targetPort, targetHost);
      for (const socket of [client, upstream]) {
        sockets.add(socket);
        socket.on('close', () => sockets.delete(socket));
        socket.on('error', () => {
          client.destroy();
          upstream.destroy();
        });
      }
      client.pipe(upstream).pipe(client);
    });
    await new Promise<void>((resolve) => s.listen(port, '127.0.0.1', resolve));
    port = (s.address() as { port: number }).port;
    server = s;
  }

  async function down(): Promise<void> {
    const s = server;
    server = null;
    for (const socket of sockets) socket.destroy();
    if (s) await new Promise<void>((resolve) => s.close(() => resolve()));
  }

  await listen();
  return {
    get port() {
      return port;
    },
    down,
    up: listen,
    close: down,
  };
}
