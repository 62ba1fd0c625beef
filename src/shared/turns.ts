// Long work on the thread that answers scans gives that thread back in turns. One process
// answers every account's scans; a bulk call of 10,000 codes (parse, SQLite statements,
// presentation, 8 MB of JSON) done in one synchronous stretch held it for seconds
// (bench:noisy-neighbor), so another account's scans waited that long. Such work checks
// `takeTurn()` between slices and yields to the event loop once it has run for TURN_MS.
import { setImmediate as nextTurn } from 'node:timers/promises';

/** How long one stretch of work may hold the thread before it lets waiting I/O in. */
export const TURN_MS = 8;

let turnStarted = performance.now();

/**
 * Resolves at once while this turn is within its budget, else after one pass of the event loop
 * (pending I/O, a waiting scan, runs first). Cheap enough to call per item.
 */
export function takeTurn(): Promise<void> | undefined {
  const now = performance.now();
  if (now - turnStarted < TURN_MS) return undefined;
  return nextTurn().then(() => {
    turnStarted = performance.now();
  });
}

/** `items.map(fn)`, yielding between items once a turn is spent. */
export async function mapInTurns<T, U>(items: readonly T[], fn: (item: T, index: number) => U): Promise<U[]> {
  const out: U[] = new Array(items.length);
  for (let i = 0; i < items.length; i++) {
    const turn = takeTurn();
    if (turn) await turn;
    out[i] = fn(items[i]!, i);
  }
  return out;
}

/**
 * `JSON.stringify({ ...head, [key]: items.map(present) })`, the same text, built item by item in
 * turns: a body of 10,000 codes is megabytes, and one stringify of it held the thread for a tenth
 * of a second (twice: Koa's length, then compression). `key` comes last.
 */
export async function stringifyInTurns<T>(
  head: Record<string, unknown>,
  key: string,
  items: readonly T[],
  present: (item: T) => unknown,
): Promise<string> {
  const parts = await mapInTurns(items, (item) => JSON.stringify(present(item)));
  const open = JSON.stringify({ ...head, [key]: [] }).slice(0, -2);
  return `${open}${parts.join(',')}]}`;
}
