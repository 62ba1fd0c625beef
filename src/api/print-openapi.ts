// Part of `npm run schema:print`: writes the current version's OpenAPI document to
// schema/openapi.json (what the linter checks and the TypeScript client is generated from).
// A test fails when the committed file and the code disagree.
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { CURRENT_API_VERSION } from '../http/versions.ts';
import { openApiDocument } from './openapi-document.ts';

export const OPENAPI_FILE = fileURLToPath(new URL('../../schema/openapi.json', import.meta.url));

export function printedOpenApi(): string {
  return `${JSON.stringify(openApiDocument(CURRENT_API_VERSION), null, 2)}\n`;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  writeFileSync(OPENAPI_FILE, printedOpenApi());
  console.log(`wrote ${OPENAPI_FILE}`);
}
