import { describe, expect, it } from 'vitest';
import { createRestartBackoff } from '../../src/cluster/restarts.ts';

const policy = { stableAfterMs: 30_000, firstDelayMs: 500, maxDelayMs: 30_000 };

describe('worker restart backoff', () => {
  it('replaces at once after a worker that ran a while, and after the first quick death', () => {
    const backoff = createRestartBackoff(policy);
    expect(backoff.next(3_600_000)).toBe(0);
    expect(backoff.next(1_000)).toBe(0);
  });

  it('doubles the wait for each quick death in a row, up to the ceiling', () => {
    const backoff = createRestartBackoff(policy);
    const delays = Array.from({ length: 10 }, () => backoff.next(100));
    expect(delays).toEqual([0, 500, 1000, 2000, 4000, 8000, 16_000, 30_000, 30_000, 30_000]);
  });

  it('forgets the streak once a worker stays up', () => {
    const backoff = createRestartBackoff(policy);
    for (let i = 0; i < 5; i++) backoff.next(100);
    expect(backoff.next(30_000)).toBe(0);
    expect(backoff.next(100)).toBe(0);
    expect(backoff.next(100)).toBe(500);
  });
});
