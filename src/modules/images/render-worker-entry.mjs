// The render worker threads' entry point. Like the scan writer thread's, it registers tsx
// itself: workers do not inherit a TypeScript loader (under vitest nothing loads one, and on
// Node 20 inherited options do not make a worker load .ts).
import { register } from 'tsx/esm/api';

register();
const { default: run } = await import('./render-worker.ts');
export default run;
