// Where the service's files are: run from source (tsx, vitest) this file is
// src/shared/build-layout.ts; compiled (`npm run build`, what `npm start` runs) it is
// dist/server/src/shared/build-layout.js, the same tree two folders deeper.
import { fileURLToPath } from 'node:url';

const COMPILED = import.meta.url.endsWith('.js');
const ROOT = new URL(COMPILED ? '../../../../' : '../../', import.meta.url);

/** A path under the checkout's root (dist/dashboard, say), the same from source or compiled. */
export const fromProjectRoot = (relative: string): string => fileURLToPath(new URL(relative, ROOT));

/**
 * The module a worker thread starts with, beside `from` (the caller's import.meta.url).
 * Compiled, the thread loads the compiled module itself; from source it loads a bootstrap
 * (.mjs) that registers tsx first, because a thread does not inherit a TypeScript loader.
 */
export const threadEntry = (from: string, compiledModule: string, sourceBootstrap: string): URL =>
  new URL(COMPILED ? compiledModule : sourceBootstrap, from);
