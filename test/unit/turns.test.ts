// shared/turns.ts: long work lets the event loop in between slices, and gives the same answers.
import { describe, expect, it } from 'vitest';
import { mapInTurns, stringifyInTurns, TURN_MS } from '../../src/shared/turns.ts';

/** Holds the thread for `ms`, as a slice of real work does. */
function busyFor(ms: number): void {
  const until = performance.now() + ms;
  while (performance.now() < until);
}

describe('turns', () => {
  it('mapInTurns maps like Array.map and lets a waiting callback run before it ends', async () => {
    let ranBetween = false;
    setImmediate(() => (ranBetween = true));
    const doubled = await mapInTurns([1, 2, 3, 4, 5, 6], (n, i) => {
      busyFor(TURN_MS / 2);
      return n * 2 + i;
    });
    expect(doubled).toEqual([2, 5, 8, 11, 14, 17]);
    expect(ranBetween).toBe(true);
  });

  it('stringifyInTurns writes the text JSON.stringify writes', async () => {
    const codes = [{ id: 'qr_1', tags: ['a"b', 'ü'] }, { id: 'qr_2', note: null }, {}];
    const present = (code: object) => ({ ...code, object: 'code' });
    const head = { object: 'bulk_result', batch_id: 'batch_1', created: 3 };
    expect(await stringifyInTurns(head, 'data', codes, present)).toBe(
      JSON.stringify({ ...head, data: codes.map(present) }),
    );
    expect(await stringifyInTurns(head, 'data', [], present)).toBe(JSON.stringify({ ...head, data: [] }));
  });
});
