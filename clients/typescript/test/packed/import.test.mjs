// The packed client as a user gets it: .ci/run packs it (`npm pack`, whose prepack builds dist/),
// installs the tarball into a folder outside the repository, with no TypeScript tooling, copies
// this file there and runs it with plain `node --test` against the live service that
// QR_BASE_URL and QR_API_KEY name.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { createQrClient, QrApiError, unwrap } from '@qr-service/client';

const qr = createQrClient({ baseUrl: process.env.QR_BASE_URL, apiKey: process.env.QR_API_KEY });

test('the package resolves to its built JavaScript in node_modules', () => {
  assert.match(import.meta.resolve('@qr-service/client'), /\/node_modules\/@qr-service\/client\/dist\/index\.js$/);
});

test('creates, reads and deletes a code on the live service', async () => {
  const content = `https://example.com/ts-package/${Date.now()}`;
  const code = await unwrap(qr.api.POST('/codes', { body: { content } }));
  assert.equal(code.content, content);
  const path = { params: { path: { id: code.id } } };
  assert.deepEqual(await unwrap(qr.api.GET('/codes/{id}', path)), code);
  await unwrap(qr.api.DELETE('/codes/{id}', path));
  await assert.rejects(unwrap(qr.api.GET('/codes/{id}', path)), { name: 'QrApiError', status: 404 });
});

test('an invalid body is a QrApiError listing the invalid field', async () => {
  const error = await unwrap(qr.api.POST('/codes', { body: { content: 'ftp://nope' } })).catch((e) => e);
  assert.ok(error instanceof QrApiError);
  assert.equal(error.status, 422);
  assert.deepEqual(
    error.errors.map((e) => e.path),
    ['content'],
  );
});
