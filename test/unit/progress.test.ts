// The CLI progress display: one redrawn line on a terminal, plain lines elsewhere.
import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { createProgress, progressLine } from '../../src/cli/progress.ts';

function sink(isTTY: boolean): Writable & { isTTY: boolean; text: () => string } {
  let text = '';
  const stream = new Writable({
    write(chunk, _encoding, done) {
      text += chunk;
      done();
    },
  });
  return Object.assign(stream, { isTTY, text: () => text });
}

describe('progressLine', () => {
  it('draws a bar, counts, percent and rate; no bar when the total is unknown', () => {
    expect(progressLine({ done: 1000, total: 4000, elapsedMs: 2000 })).toBe(
      '[######------------------] 1,000/4,000 rows  25%  500 rows/s',
    );
    expect(progressLine({ done: 4000, total: 4000, elapsedMs: 0 })).toBe(
      '[########################] 4,000/4,000 rows  100%  0 rows/s',
    );
    expect(progressLine({ done: 12_345, total: null, elapsedMs: 1000 })).toBe('12,345 rows  12,345 rows/s');
  });
});

describe('createProgress', () => {
  it('redraws one line with \\r on a terminal and ends it once', () => {
    let clock = 0;
    const out = sink(true);
    const progress = createProgress(out, 200, () => clock);
    progress.working('sending batch 1/2');
    clock = 1000;
    progress.step(100, 'batch 1/2 created');
    progress.step(200, 'batch 2/2 created');
    progress.end();
    progress.end();
    const text = out.text();
    expect(text.split('\r')).toHaveLength(4);
    expect(text).toContain('\r[############------------] 100/200 rows  50%  100 rows/s  batch 1/2 created\x1b[K');
    expect(text.endsWith('batch 2/2 created\x1b[K\n')).toBe(true);
    expect(text.match(/\n/g)).toHaveLength(1);
  });

  it('writes plain lines for finished steps only when not on a terminal', () => {
    const out = sink(false);
    const progress = createProgress(out, 200, () => 0);
    progress.working('sending batch 1/2');
    progress.step(100, 'batch 1/2 created');
    progress.end();
    expect(out.text()).toBe('batch 1/2 created: [############------------] 100/200 rows  50%  0 rows/s\n');
  });
});
