// When a failed delivery is tried again: the Standard Webhooks / Svix schedule. The first
// attempt is immediate; the retries follow 5 s, 5 min, 30 min, 2 h, 5 h, 10 h and 10 h after the
// previous failure (each ±20% so retries of many deliveries do not arrive in lockstep), about
// 27.5 hours in all. After the eighth failed attempt the delivery is failed.

export const RETRY_DELAYS_MS = [5_000, 300_000, 1_800_000, 7_200_000, 18_000_000, 36_000_000, 36_000_000] as const;
export const MAX_ATTEMPTS = RETRY_DELAYS_MS.length + 1;
const JITTER = 0.2;

/**
 * Milliseconds until the next attempt after `attemptsMade` attempts failed, or null when that
 * was the last one. `scale` multiplies the delays (WEBHOOK_RETRY_SCALE; tests run in seconds).
 */
export function retryDelayMs(attemptsMade: number, scale = 1, random: () => number = Math.random): number | null {
  const base = RETRY_DELAYS_MS[attemptsMade - 1];
  if (attemptsMade < 1 || base === undefined) return null;
  return Math.round(base * scale * (1 - JITTER + 2 * JITTER * random()));
}
