// The database host's address for each new MySQL connection, asked of a resolver that may drop or
// refuse a query for a moment.
//
// Why: container DNS servers do, while they reload. Debian 12's podman (aardvark-dns 1.4) reloads
// whenever a container on the network starts or stops: for a moment a query gets no answer (glibc
// then waits its 5 s timeout before asking again) or NXDOMAIN (ENOTFOUND for a name that exists).
// Measured with scripts/compose-test.sh's network: new connections to `mariadb` stalled 5 s, or
// failed, at each of 6 container starts and stops. The pools close idle connections after 10 s
// (knex.ts), so a replica opens new ones all day, and knex fails the query whose connection failed.
// A lookup not answered within HEDGE_MS is asked again beside the first (the first answer wins), and
// a name not found is asked again after RETRY_MS, for at most BUDGET_MS: well inside mysql2's 10 s
// connect timeout, which covers this lookup.
import { lookup as dnsLookup } from 'node:dns';
import type { LookupFunction } from 'node:net';

const HEDGE_MS = 1_000;
const RETRY_MS = 250;
const BUDGET_MS = 6_000;
/** Lookups of one connection at a time: each holds a libuv thread (4 by default) while it waits. */
const MAX_PENDING = 3;
/** Answers a reloading resolver gives for a name that exists; any other error is final. */
const TRANSIENT = new Set(['ENOTFOUND', 'EAI_AGAIN']);

type Resolve = (
  hostname: string,
  options: object,
  callback: (err: NodeJS.ErrnoException | null, ...answer: unknown[]) => void,
) => void;

/** `net.connect`'s `lookup`, over `resolve` (dns.lookup; tests pass a resolver of their own). */
export function patientLookup(resolve: Resolve = dnsLookup as unknown as Resolve): LookupFunction {
  return (hostname, options, callback) => {
    const started = Date.now();
    const timers = new Set<NodeJS.Timeout>();
    let pending = 0;
    let settled = false;
    let lastError: NodeJS.ErrnoException | null = null;
    const settle = (err: NodeJS.ErrnoException | null, answer: unknown[]) => {
      settled = true;
      for (const timer of timers) clearTimeout(timer);
      (callback as (err: NodeJS.ErrnoException | null, ...answer: unknown[]) => void)(err, ...answer);
    };
    const later = (ms: number, run: () => void) => {
      const timer = setTimeout(() => {
        timers.delete(timer);
        run();
      }, ms);
      timers.add(timer);
    };
    const withinBudget = (ms: number) => Date.now() - started + ms <= BUDGET_MS;
    const ask = () => {
      if (settled || pending >= MAX_PENDING) return;
      pending += 1;
      if (withinBudget(HEDGE_MS)) later(HEDGE_MS, ask);
      resolve(hostname, options, (err, ...answer) => {
        pending -= 1;
        if (settled) return;
        if (!err) return settle(null, answer);
        lastError = err;
        if (TRANSIENT.has(err.code ?? '') && withinBudget(RETRY_MS)) return later(RETRY_MS, ask);
        if (pending === 0) settle(lastError, []);
      });
    };
    ask();
  };
}
