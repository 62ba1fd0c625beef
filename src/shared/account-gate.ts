// How much expensive work (analytics reads, raw exports, bulk imports) one account runs at once in
// this process: `concurrent` calls run, `queued` more wait their turn, and past that a call is
// refused with a 429 and a Retry-After reckoned from recent durations. However an account sends
// its work (parallel connections, GraphQL aliases, several keys), it holds at most `concurrent`
// of the database pool's connections and of the event loop's turns, so another account's scans
// and calls never queue behind a pile of its work. Rate limits count calls per minute; this counts
// calls at once, which is what one slow call multiplied makes expensive.
import { DomainError } from './errors.ts';
import type { Principal } from './principal.ts';

export interface AccountGateOptions {
  /** Calls of one account running at once. */
  concurrent: number;
  /** Calls of one account waiting for a turn; past them, 429. */
  queued: number;
}

export interface AccountGate {
  /** Runs `work` in the account's turn; throws a 429 DomainError when too many already wait. */
  run<T>(accountId: string, work: () => Promise<T>): Promise<T>;
  /** Like run, but always waits: the later pages of an answer already started (a CSV export). */
  wait<T>(accountId: string, work: () => Promise<T>): Promise<T>;
}

interface Lane {
  running: number;
  waiting: (() => void)[];
}

export function createAccountGate({ concurrent, queued }: AccountGateOptions): AccountGate {
  const lanes = new Map<string, Lane>();
  /** Recent duration of a call, for a Retry-After that means something. */
  let averageMs = 100;

  async function inTurn<T>(accountId: string, work: () => Promise<T>, refuse: boolean): Promise<T> {
    let lane = lanes.get(accountId);
    if (!lane) lanes.set(accountId, (lane = { running: 0, waiting: [] }));
    if (lane.running >= concurrent) {
      if (refuse && lane.waiting.length >= queued) {
        const retryAfter = Math.max(
          1,
          Math.ceil(((lane.running + lane.waiting.length) * averageMs) / concurrent / 1000),
        );
        throw new DomainError(
          'rate_limited',
          `This account already has ${lane.running} expensive calls (analytics, raw exports, bulk imports) running ` +
            `and ${lane.waiting.length} waiting, the most it may have at once (HEAVY_CALLS_PER_ACCOUNT, ` +
            `HEAVY_QUEUE_PER_ACCOUNT). Retry in ${retryAfter} s.`,
          undefined,
          retryAfter,
        );
      }
      // The slot is handed over by the call that ends: `running` stays counted for this one.
      await new Promise<void>((resolve) => lane.waiting.push(resolve));
    } else {
      lane.running++;
    }
    const started = performance.now();
    try {
      return await work();
    } finally {
      averageMs = 0.8 * averageMs + 0.2 * (performance.now() - started);
      const next = lane.waiting.shift();
      if (next) next();
      else if (--lane.running === 0) lanes.delete(accountId);
    }
  }

  return {
    run: (accountId, work) => inTurn(accountId, work, true),
    wait: (accountId, work) => inTurn(accountId, work, false),
  };
}

type Gated<S> = {
  [K in keyof S]: S[K] extends (principal: Principal, ...args: infer A) => Promise<infer R>
    ? (principal: Principal, ...args: A) => Promise<R>
    : S[K];
};

/** `service` with each of its functions (which take the principal first) run in the account's turn. */
export function gateEach<S extends object>(gate: AccountGate, service: S): Gated<S> {
  const gated: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(service)) {
    gated[name] =
      typeof value === 'function'
        ? (principal: Principal, ...args: unknown[]) =>
            gate.run(principal.accountId, () => (value as (...a: unknown[]) => Promise<unknown>)(principal, ...args))
        : value;
  }
  return gated as Gated<S>;
}
