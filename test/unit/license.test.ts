// One license, named alike everywhere a user or a package tool reads it: the LICENSE file, both
// package manifests of npm, the Python client's pyproject.toml and the OpenAPI document; and its
// text in each client's folder, which npm pack and the wheel take it from (.ci/run checks both).
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { openApiDocument } from '../../src/api/openapi-document.ts';
import { CURRENT_API_VERSION } from '../../src/http/versions.ts';

const read = (path: string) => readFileSync(new URL(`../../${path}`, import.meta.url), 'utf8');
const npmLicense = (path: string) => (JSON.parse(read(path)) as { license?: string }).license;
/** `license = "X"` or `license = { text = "X" }`, the two forms pyproject.toml allows. */
const pyprojectLicense = (path: string) => /^license\s*=\s*(?:\{\s*text\s*=\s*)?"([^"]+)"/m.exec(read(path))?.[1];

describe('license', () => {
  it('is MIT in the LICENSE file, both npm packages, the Python client and the OpenAPI document', () => {
    const text = read('LICENSE');
    expect(text.split('\n')[0]).toBe('MIT License');
    expect(text).toContain('Copyright (c) 2026 the qr-service contributors');
    expect({
      service: npmLicense('package.json'),
      typescriptClient: npmLicense('clients/typescript/package.json'),
      pythonClient: pyprojectLicense('clients/python/pyproject.toml'),
      openApi: openApiDocument(CURRENT_API_VERSION).info.license?.identifier,
    }).toEqual({ service: 'MIT', typescriptClient: 'MIT', pythonClient: 'MIT', openApi: 'MIT' });
  });

  it('is the same text in each client package', () => {
    const text = read('LICENSE');
    expect(read('clients/typescript/LICENSE')).toBe(text);
    expect(read('clients/python/LICENSE')).toBe(text);
  });
});
