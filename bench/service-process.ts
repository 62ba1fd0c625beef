// The real service as a child process for the benchmarks: `src/main.ts` of a checkout, with
// NODE_ENV=production and LOG_LEVEL=warn (at info every request is logged, and the logging would
// be what is measured), on a free loopback port. Readiness is polled, not read from the log.
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { createServer, type AddressInfo } from 'node:net';

export interface Service {
  url: string;
  child: ChildProcess;
}

/** A port free right now on loopback. */
async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((done) => server.close(() => done()));
  return port;
}

/** Starts `tree`'s service with `env` on top of this process's environment; resolves once /healthz answers. */
export async function startService(tree: string, env: Record<string, string>): Promise<Service> {
  const port = await freePort();
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
    cwd: tree,
    env: { ...process.env, NODE_ENV: 'production', LOG_LEVEL: 'warn', PORT: String(port), HOST: '127.0.0.1', ...env },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  const url = `http://127.0.0.1:${port}`;
  for (const deadline = Date.now() + 60_000; Date.now() < deadline; await new Promise((r) => setTimeout(r, 100))) {
    if (child.exitCode !== null) break;
    const healthy = await fetch(`${url}/healthz`).then(
      (res) => res.ok,
      () => false,
    );
    if (healthy) return { url, child };
  }
  child.kill('SIGTERM');
  throw new Error(`the service in ${tree} did not become healthy`);
}

/** SIGTERM, and the process's exit. */
export async function stopService(service: Service): Promise<void> {
  if (service.child.exitCode !== null) return;
  const exited = once(service.child, 'exit');
  service.child.kill('SIGTERM');
  await exited;
}
