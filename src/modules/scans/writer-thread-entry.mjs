// The scan writer thread's entry point. The service's modules are TypeScript run through tsx;
// a worker thread does not always inherit tsx's loader (it does under `tsx src/main.ts`, not
// under vitest), so the thread registers it before loading its TypeScript module.
import { register } from 'tsx/esm/api';

register();
await import('./writer-thread-worker.ts');
