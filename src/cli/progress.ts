// Progress of a long CLI job: on a terminal one line redrawn in place (\r), elsewhere (a pipe,
// a CI log) one plain line per step.
import type { Writable } from 'node:stream';

const BAR_WIDTH = 24;

export interface ProgressState {
  done: number;
  /** Null when the total is not known. */
  total: number | null;
  elapsedMs: number;
}

const count = (n: number) => n.toLocaleString('en-US');

export function rate({ done, elapsedMs }: ProgressState): number {
  return elapsedMs > 0 ? Math.round((done * 1000) / elapsedMs) : 0;
}

/** `[#########---------------]  1,000/2,500 rows  40%  812 rows/s` (no bar without a total). */
export function progressLine(state: ProgressState): string {
  const perSecond = `${count(rate(state))} rows/s`;
  if (state.total === null || state.total === 0) return `${count(state.done)} rows  ${perSecond}`;
  const fraction = Math.min(1, state.done / state.total);
  const filled = Math.round(fraction * BAR_WIDTH);
  return (
    `[${'#'.repeat(filled)}${'-'.repeat(BAR_WIDTH - filled)}] ${count(state.done)}/${count(state.total)} rows  ` +
    `${Math.floor(fraction * 100)}%  ${perSecond}`
  );
}

export interface Progress {
  /** Work on a step started (shown on a terminal only). */
  working(note: string): void;
  /** A step finished with `done` rows done in all. */
  step(done: number, note: string): void;
  /** Ends the updating line, so what follows starts on a line of its own. */
  end(): void;
}

export function createProgress(
  out: Writable & { isTTY?: boolean },
  total: number | null,
  now: () => number = Date.now,
): Progress {
  const started = now();
  const tty = out.isTTY === true;
  let done = 0;
  let drawn = false;
  const line = () => progressLine({ done, total, elapsedMs: now() - started });
  const draw = (note: string) => {
    out.write(`\r${line()}  ${note}\x1b[K`);
    drawn = true;
  };
  return {
    working(note) {
      if (tty) draw(note);
    },
    step(rows, note) {
      done = rows;
      if (tty) draw(note);
      else out.write(`${note}: ${line()}\n`);
    },
    end() {
      if (drawn) out.write('\n');
      drawn = false;
    },
  };
}
