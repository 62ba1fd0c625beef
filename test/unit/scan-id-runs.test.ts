// Scan ids as runs of consecutive counters per process prefix: what the batch commit stores to
// skip a replayed scan, with or without raw rows.
import { describe, expect, it } from 'vitest';
import { scanIdRuns } from '../../src/modules/scans/scan-id-runs.ts';
import { createScanIds, splitScanId } from '../../src/modules/scans/scan-ids.ts';

describe('scan id runs', () => {
  it('are one run for a process’s consecutive ids, whatever their order', () => {
    const next = createScanIds();
    const ids = Array.from({ length: 40 }, () => next());
    const { prefix } = splitScanId(ids[0]!)!;
    expect(scanIdRuns([...ids].reverse())).toEqual([{ prefix, first_n: 0, last_n: 39 }]);
  });

  it('start a new run at a gap, and keep processes apart', () => {
    const a = createScanIds();
    const b = createScanIds();
    const aIds = Array.from({ length: 10 }, () => a());
    const bIds = Array.from({ length: 3 }, () => b());
    // 4 is a locked view (counted elsewhere), 7 a torn journal record: neither is in the batch.
    const batch = [...aIds.filter((_, i) => i !== 4 && i !== 7), ...bIds];
    const [pa, pb] = [splitScanId(aIds[0]!)!.prefix, splitScanId(bIds[0]!)!.prefix];
    expect(scanIdRuns(batch)).toEqual([
      { prefix: pa, first_n: 0, last_n: 3 },
      { prefix: pa, first_n: 5, last_n: 6 },
      { prefix: pa, first_n: 8, last_n: 9 },
      { prefix: pb, first_n: 0, last_n: 2 },
    ]);
  });

  it('leave out ids not made by createScanIds', () => {
    expect(splitScanId('short')).toBeNull();
    expect(splitScanId('main thread-scan-0')).toBeNull();
    expect(scanIdRuns(['main thread-scan-0', 'x'])).toEqual([]);
  });
});
