// The running release: package.json's version, read once as the process starts (GET /healthz
// reports it, so an operator sees which release an instance runs; CHANGELOG.md says what it holds).
import { readFileSync } from 'node:fs';
import { fromProjectRoot } from './build-layout.ts';

export const SERVICE_VERSION: string = (
  JSON.parse(readFileSync(fromProjectRoot('package.json'), 'utf8')) as { version: string }
).version;
