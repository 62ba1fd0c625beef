// Where the service's files are: run from source (tsx, vitest) this file is
// src/shared/build-layout.ts; compiled (`npm run build`, what `npm start` runs) it is
// dist/server/src/shared/build-layout.js; in the container image it is part of a bundle in
// dist/server/src/ (scripts/bundle-server.mjs).
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const COMPILED = import.meta.url.endsWith('.js');

/** The checkout's root: the nearest folder up from this module with a package.json. */
function findRoot(): URL {
  for (let dir = new URL('./', import.meta.url); dir.pathname !== '/'; dir = new URL('../', dir)) {
    if (existsSync(new URL('package.json', dir))) return dir;
  }
  throw new Error(`no package.json above ${import.meta.url}`);
}
const ROOT = findRoot();

/** A path under the checkout's root (dist/dashboard, say), the same from source or compiled. */
export const fromProjectRoot = (relative: string): string => fileURLToPath(new URL(relative, ROOT));

/**
 * The module a worker thread starts with, beside `from` (the caller's import.meta.url).
 * Compiled, the thread loads the compiled module itself (bundled, the bundle's entry of that
 * name: they all lie side by side); from source it loads a bootstrap (.mjs) that registers tsx
 * first, because a thread does not inherit a TypeScript loader.
 */
export const threadEntry = (from: string, compiledModule: string, sourceBootstrap: string): URL =>
  new URL(COMPILED ? compiledModule : sourceBootstrap, from);
