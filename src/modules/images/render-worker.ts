// A render worker thread's task handler (piscina calls the default export). Image bytes are
// moved back to the main thread, not copied again.
import { isMarkedAsUntransferable } from 'node:worker_threads';
import { Piscina, transferableSymbol, valueSymbol } from 'piscina';
import { checkScannable, renderImage, versionsOf, type RenderTask } from './render-work.ts';

/**
 * Bytes that own their whole ArrayBuffer and may be moved. A small Buffer is a slice of Node's
 * shared pool, and moving that pool would take it from under every other Buffer of this thread;
 * a native library's buffer (resvg's own PNG, for an image that is not opaque) is marked
 * untransferable, and moving it fails the task (DataCloneError, seen on Node 24).
 */
export const movable = (bytes: Uint8Array) =>
  bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength && !isMarkedAsUntransferable(bytes.buffer)
    ? bytes
    : new Uint8Array(bytes);

export default async function run(task: RenderTask) {
  if (task.kind === 'versions') return versionsOf(task);
  if (task.kind === 'check') return checkScannable(task);
  const image = await renderImage(task);
  const bytes = movable(image.bytes);
  // Piscina's Transferable: the pool gets { bytes, width }, the bytes' buffer moved, not copied.
  return Piscina.move({
    [transferableSymbol]: [bytes.buffer],
    [valueSymbol]: { bytes, width: image.width },
  });
}
