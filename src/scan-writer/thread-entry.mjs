// The scan writer thread's entry point. The service's modules are TypeScript run through tsx.
// The thread must register tsx itself: under vitest nothing loads it, and under
// `tsx src/main.ts` the inherited Node options do not make a worker load .ts on Node 20
// (tried: ERR_UNKNOWN_FILE_EXTENSION).
import { register } from 'tsx/esm/api';

register();
await import('./thread.ts');
