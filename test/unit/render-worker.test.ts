// What a render thread hands back is moved, not copied, when it can be: bytes that own their
// ArrayBuffer. A slice of Node's pool, or a native library's untransferable buffer (resvg's
// own PNG), is copied first; moving it would fail the task with a DataCloneError.
import { MessageChannel } from 'node:worker_threads';
import { Resvg } from '@resvg/resvg-js';
import { describe, expect, it } from 'vitest';
import { movable } from '../../src/modules/images/render-worker.ts';

function move(bytes: Uint8Array): void {
  const { port1, port2 } = new MessageChannel();
  try {
    port1.postMessage(bytes, [bytes.buffer as ArrayBuffer]);
  } finally {
    port1.close();
    port2.close();
  }
}

describe('movable', () => {
  it('copies resvg’s untransferable PNG, so it can be moved', () => {
    const png = new Resvg(
      '<svg xmlns="http://www.w3.org/2000/svg" width="8" height="8"><rect width="4" height="4"/></svg>',
    )
      .render()
      .asPng();
    expect(() => move(png)).toThrow(/Cannot transfer/);
    const copy = movable(png);
    expect(Buffer.from(copy).equals(png)).toBe(true);
    expect(() => move(copy)).not.toThrow();
  });

  it('copies a slice of the shared pool, and moves bytes that own their buffer as they are', () => {
    const pooled = Buffer.from('a small SVG');
    expect(movable(pooled).buffer).not.toBe(pooled.buffer);
    const own = new Uint8Array(100_000);
    expect(movable(own)).toBe(own);
    expect(() => move(movable(own))).not.toThrow();
  });
});
