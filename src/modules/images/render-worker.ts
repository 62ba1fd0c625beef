// A render worker thread's task handler (piscina calls the default export). Image bytes are
// moved back to the main thread, not copied again.
import { Piscina, transferableSymbol, valueSymbol } from 'piscina';
import { checkScannable, renderImage, versionsOf, type RenderTask } from './render-work.ts';

/**
 * Bytes that own their whole ArrayBuffer. A small Buffer is a slice of Node's shared pool, and
 * moving that pool would take it from under every other Buffer of this thread.
 */
const owned = (bytes: Uint8Array) => (bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength ? bytes : new Uint8Array(bytes));

export default async function run(task: RenderTask) {
  if (task.kind === 'versions') return versionsOf(task);
  if (task.kind === 'check') return checkScannable(task);
  const image = await renderImage(task);
  const bytes = owned(image.bytes);
  // Piscina's Transferable: the pool gets { bytes, width }, the bytes' buffer moved, not copied.
  return Piscina.move({
    [transferableSymbol]: [bytes.buffer],
    [valueSymbol]: { bytes, width: image.width },
  });
}
