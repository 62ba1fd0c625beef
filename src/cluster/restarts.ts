// How long the cluster primary waits before replacing a worker that died: not at all after a
// worker that ran for a while, then twice as long for each further worker in a row that died
// soon after it started. A crash loop (a bad deploy, a database that refuses connections) then
// retries every 30 s at most instead of forking as fast as the CPU allows.

export interface RestartPolicy {
  /** A worker that ran this long before dying ends a streak of quick deaths. */
  stableAfterMs: number;
  /** The wait after the second quick death in a row; it doubles with each further one. */
  firstDelayMs: number;
  maxDelayMs: number;
}

export const RESTART_POLICY: RestartPolicy = { stableAfterMs: 30_000, firstDelayMs: 500, maxDelayMs: 30_000 };

export function createRestartBackoff(policy: RestartPolicy = RESTART_POLICY) {
  let quickDeaths = 0;
  return {
    /** Counts a death after `uptimeMs` and returns the milliseconds to wait before forking its replacement. */
    next(uptimeMs: number): number {
      quickDeaths = uptimeMs >= policy.stableAfterMs ? 0 : quickDeaths + 1;
      // One death is an accident, not a loop: its replacement starts at once.
      if (quickDeaths <= 1) return 0;
      return Math.min(policy.maxDelayMs, policy.firstDelayMs * 2 ** (quickDeaths - 2));
    },
  };
}
