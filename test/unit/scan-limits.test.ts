// max_scans counting on one instance (scan-limits.ts), with a count function and a commit that
// the test controls: the committed count plus this instance's uncommitted scans stays exact
// across re-reads, also when a batch commits while a read is in flight.
import { describe, expect, it } from 'vitest';
import type { CommittedBatch } from '../../src/modules/scans/commit-batch.ts';
import type { ScanEvent } from '../../src/modules/scans/model.ts';
import { createScanLimits } from '../../src/modules/scans/scan-limits.ts';

const CODE = 'qr_limited';

/** A database stand-in: `committed` is what a read sees; a commit adds its counted events. */
function fakeStore() {
  const store = {
    committed: 0,
    reads: 0,
    /** When set, a read waits for it (to let a commit land mid-read). */
    gate: null as Promise<void> | null,
    async count(): Promise<number> {
      store.reads += 1;
      const seen = store.committed;
      if (store.gate) await store.gate;
      return seen;
    },
    async commit(events: ScanEvent[]): Promise<CommittedBatch> {
      store.committed += events.filter((e) => e.countedTowardLimit).length;
      return { webhooksQueued: false };
    },
  };
  return store;
}

const counted = (): ScanEvent => ({
  codeId: CODE,
  slug: 'abc',
  accountId: 'acct',
  at: 0,
  ruleId: null,
  destination: 'https://example.com/',
  country: null,
  device: null,
  os: null,
  browser: null,
  referrerHost: null,
  language: null,
  isBot: false,
  ip: null,
  userAgent: undefined,
  countedTowardLimit: true,
});

describe('scan limits', () => {
  it('lets exactly max scans through after a load, and not one more', async () => {
    const store = fakeStore();
    store.committed = 2;
    const limits = createScanLimits({ count: () => store.count(), refreshMs: 60_000, max: 10 });
    expect(limits.known(CODE)).toBe(false);
    await limits.load(CODE);
    let through = 0;
    for (let i = 0; i < 10; i++) {
      if (limits.reached(CODE, 5)) continue;
      limits.count(CODE);
      through += 1;
    }
    expect(through).toBe(3);
  });

  it('stays exact across a re-read after its own scans committed, and when a commit lands during a read', async () => {
    const store = fakeStore();
    const limits = createScanLimits({ count: () => store.count(), refreshMs: 0, max: 10 });
    const commit = limits.wrapCommit((events) => store.commit(events));
    await limits.load(CODE);
    // Two scans counted; one of them committed.
    limits.count(CODE);
    limits.count(CODE);
    await commit([counted()], 'b1');
    expect(limits.pendingOf(CODE)).toBe(1);

    // A re-read (refreshMs 0: every check re-reads) while another batch commits mid-read.
    let release!: () => void;
    store.gate = new Promise<void>((resolve) => (release = resolve));
    expect(limits.reached(CODE, 3)).toBe(false);
    const committing = commit([counted()], 'b2');
    await committing;
    release();
    store.gate = null;
    // The raced read is thrown away and read again: 2 committed, nothing pending.
    await new Promise((resolve) => setTimeout(resolve, 0));
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(store.reads).toBeGreaterThanOrEqual(3);
    expect(limits.pendingOf(CODE)).toBe(0);
    expect(limits.reached(CODE, 3)).toBe(false);
    limits.count(CODE);
    expect(limits.reached(CODE, 3)).toBe(true);
  });
});
