// The JSON samples of the README and docs/ are what the API answers: each ```json block carries
// `<!-- schema: Name -->` on the line before it (docs/development.md) and must validate against
// that component schema of the OpenAPI document the service serves (the contract tests' Ajv,
// strict, every field the schema requires, none it does not know). A ```json block without the
// mark fails too, so no sample goes unchecked.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getTestApp, type TestApp } from '../support/app.ts';
import { fencedBlocks } from '../support/markdown.ts';
import { createOpenApiValidator, type OpenApiValidator } from '../support/openapi-validator.ts';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const FILES = ['README.md', ...readdirSync(join(ROOT, 'docs')).map((name) => `docs/${name}`)].filter((file) =>
  file.endsWith('.md'),
);
const samples = FILES.flatMap((file) =>
  fencedBlocks(readFileSync(join(ROOT, file), 'utf8'))
    .filter((block) => block.lang === 'json')
    .map((block) => ({ ...block, where: `${file}:${block.line}` })),
);

let app: TestApp;
let validator: OpenApiValidator;

beforeAll(async () => {
  app = await getTestApp();
  const served = await app.request('GET', '/v2/openapi.json');
  expect(served.status).toBe(200);
  validator = createOpenApiValidator(served.body, 'v2');
});
afterAll(() => app.close());

describe('JSON samples of the README and docs/', () => {
  it('are there to check', () => {
    expect(samples.length).toBeGreaterThanOrEqual(4);
  });

  it.each(samples.map((sample) => [sample.where, sample] as const))('%s', (where, sample) => {
    const schema = /^schema: (\w+)$/.exec(sample.comment ?? '')?.[1];
    expect(schema, `${where}: a json block needs <!-- schema: Name --> on the line before it`).toBeDefined();
    let value: unknown;
    expect(() => (value = JSON.parse(sample.code)), `${where} is not JSON`).not.toThrow();
    expect(validator.schemaProblems(schema!, value), `${where} as ${schema}`).toEqual([]);
  });
});
