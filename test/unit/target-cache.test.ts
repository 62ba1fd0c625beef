// The scan route's cache of codes by slug, with a loader standing in for the database: an
// invalidation (this process's change, another process's through the bus, or a reconnect's
// clear) that lands while a read is in flight must neither keep what that read returns nor
// turn the scan waiting on it into a 404.
import { describe, expect, it } from 'vitest';
import type { Code } from '../../src/modules/codes/model.ts';
import { ACTIVE_LIFECYCLE } from '../../src/modules/codes/lifecycle.ts';
import { createTargetCache } from '../../src/modules/scans/target-cache.ts';

function urlCode(destination: string): Code {
  const now = new Date();
  return {
    id: 'qr_1',
    accountId: 'acct_1',
    type: 'url',
    content: destination,
    name: null,
    notes: null,
    forwardQuery: false,
    passwordHash: null,
    appLinks: null,
    utm: null,
    preview: null,
    page: null,
    lifecycle: ACTIVE_LIFECYCLE,
    design: {},
    logoId: null,
    routing: { enabled: false, rules: [] },
    tags: [],
    slug: 'abc',
    domain: null,
    importedScans: 0,
    createdAt: now,
    updatedAt: now,
  };
}

/** A loader whose answers the test releases one at a time, reading `destination` when released. */
function gatedLoader() {
  let destination = 'https://example.com/old';
  const waiting: (() => void)[] = [];
  let reads = 0;
  return {
    set: (url: string) => void (destination = url),
    reads: () => reads,
    release: () => waiting.shift()?.(),
    load: async () => {
      reads++;
      await new Promise<void>((resolve) => waiting.push(resolve));
      return urlCode(destination);
    },
  };
}

const tick = () => new Promise((resolve) => setImmediate(resolve));

describe.each([
  ['invalidate(slug)', (cache: ReturnType<typeof createTargetCache>) => cache.invalidate('abc')],
  ['clear()', (cache: ReturnType<typeof createTargetCache>) => cache.clear()],
])('a read in flight when %s runs', (_name, drop) => {
  it('answers from a read begun after it, and caches nothing from the read before it', async () => {
    const loader = gatedLoader();
    const cache = createTargetCache({ load: loader.load, max: 10, ttlMs: 60_000 });
    const scan = cache.load('abc');
    await tick();
    loader.set('https://example.com/new');
    drop(cache);
    // The discarded read returns whenever it returns; the scan waits on a read of its own.
    loader.release();
    await tick();
    expect(loader.reads()).toBe(2);
    loader.release();
    expect((await scan)?.fallback).toBe('https://example.com/new');
    expect(cache.peek('abc')).toBeUndefined();
  });
});
