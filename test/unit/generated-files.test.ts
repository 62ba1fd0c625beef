// Generated and hand-kept lists that must match the code.
import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { migrations } from '../../migrations/index.ts';
import { SCHEMA_FILE, printedSchema } from '../../src/api/print-graphql-schema.ts';
import { OPENAPI_FILE, printedOpenApi } from '../../src/api/print-openapi.ts';

describe('schema/schema.graphql', () => {
  it('matches the schema the code builds (run npm run schema:print)', () => {
    expect(readFileSync(SCHEMA_FILE, 'utf8'), 'run npm run schema:print').toBe(printedSchema());
  });
});

describe('schema/openapi.json', () => {
  it('matches the document the code builds (run npm run schema:print)', () => {
    expect(readFileSync(OPENAPI_FILE, 'utf8'), 'run npm run schema:print').toBe(printedOpenApi());
  });
});

describe('clients/typescript/src/schema.ts', () => {
  it('is what openapi-typescript generates from schema/openapi.json (run npm run schema:print)', () => {
    const check = spawnSync('npm', ['run', '--silent', 'generate', '--', '--check'], {
      cwd: new URL('../../clients/typescript/', import.meta.url),
      encoding: 'utf8',
    });
    expect(check.status, `run npm run schema:print\n${check.stdout}${check.stderr}`).toBe(0);
  });
});

describe('migrations/index.ts', () => {
  it('lists every migration file in the folder, named <timestamp>_<verb>_<noun>', () => {
    const files = readdirSync(new URL('../../migrations/', import.meta.url))
      .filter((f) => f !== 'index.ts')
      .map((f) => f.replace(/\.ts$/, ''))
      .sort();
    expect(Object.keys(migrations).sort()).toEqual(files);
    for (const name of files) expect(name).toMatch(/^\d{14}_[a-z]+_[a-z_]+$/);
  });
});
