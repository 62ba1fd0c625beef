// hostname -> verified domain, in process memory, so the scan route resolves a request's Host
// without a database read. Read whole (a few rows per account) at boot, after every change made
// through this process, when another process says one changed (the invalidation bus), and every
// `refreshMs` (what bounds staleness without Redis, e.g. after the CLI verified a domain).
import type { Logger } from 'pino';
import type { VerifiedHost } from './model.ts';
import { WELL_KNOWN_FILES, type WellKnownPath } from './well-known.ts';

export interface VerifiedHosts {
  /** The verified domain of this hostname (lower case, no port), or undefined. */
  get(hostname: string): VerifiedHost | undefined;
  /** How many there are: none (the usual case) skips reading the Host header at all. */
  readonly size: number;
  /** Reads the set again; concurrent calls share one read, and one more follows a read in flight. */
  reload(): Promise<void>;
  close(): void;
}

export async function createVerifiedHosts(options: {
  load: () => Promise<Map<string, VerifiedHost>>;
  refreshMs: number;
  logger: Logger;
}): Promise<VerifiedHosts> {
  let hosts = await options.load();
  let running: Promise<void> | null = null;
  let again = false;

  async function readLoop(): Promise<void> {
    try {
      do {
        again = false;
        hosts = await options.load();
      } while (again);
    } finally {
      // In the same step as the last check of `again`: a reload asked for after it starts a new
      // read. (Cleared a microtask later, a caller could join a loop that had already finished
      // and keep the hosts from before its change.)
      running = null;
    }
  }

  function reload(): Promise<void> {
    // A change committed while a read runs may not be in it: read once more afterwards.
    if (running) {
      again = true;
      return running;
    }
    running = readLoop();
    return running;
  }

  const timer = setInterval(() => {
    reload().catch((err: unknown) => options.logger.error({ err }, 'Reading the verified domains failed'));
  }, options.refreshMs);
  timer.unref();

  return {
    get: (hostname) => hosts.get(hostname),
    get size() {
      return hosts.size;
    },
    reload,
    close: () => clearInterval(timer),
  };
}

/**
 * What a request for `url` on `hostname` gets: undefined when it is not one of the well-known
 * files on a verified own domain (the request is not ours: the service's own host answers its
 * own 404), null for a verified domain without that file (404), else the file's JSON body.
 */
export function wellKnownBody(host: VerifiedHost | undefined, url: string): string | null | undefined {
  if (host === undefined) return undefined;
  const query = url.indexOf('?');
  const path = query < 0 ? url : url.slice(0, query);
  if (!Object.hasOwn(WELL_KNOWN_FILES, path)) return undefined;
  return host.wellKnown[path as WellKnownPath] ?? null;
}
