import type { TestApp } from './app.ts';

let counter = 0;

/** A valid create body; override any part. */
export function codeBody(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  counter += 1;
  return { type: 'url', content: `https://example.com/landing/${counter}`, ...overrides };
}

/** Creates a code over HTTP and returns its JSON, failing loudly when creation fails. */
export async function createCode(app: TestApp, key: string, overrides: Record<string, unknown> = {}) {
  const res = await app.request('POST', '/v1/codes', { key, body: codeBody(overrides) });
  if (res.status !== 201) throw new Error(`create failed: ${res.status} ${res.text}`);
  return res.body;
}
