// A read thread's entry point, from source. Like the scan writer's, it registers tsx itself: a
// worker does not inherit a TypeScript loader (under vitest nothing loads one).
import { register } from 'tsx/esm/api';

register();
await import('./read-thread-worker.ts');
