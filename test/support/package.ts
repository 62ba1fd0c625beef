// package.json as the tests read it on their own, to hold the service's answers against.
import { readFileSync } from 'node:fs';

export const PACKAGE_VERSION = (
  JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string }
).version;
