// CommonJS users of the packed client (see import.test.mjs for how .ci/run runs this). The
// package is an ES module only; Node's require() of an ES module (Node 20.19+, 22.12+) loads it.
const assert = require('node:assert/strict');
const { test } = require('node:test');

test('require() loads the package and its client answers', async () => {
  const { createQrClient, unwrap } = require('@qr-service/client');
  const qr = createQrClient({ baseUrl: process.env.QR_BASE_URL, apiKey: process.env.QR_API_KEY });
  const page = await unwrap(qr.api.GET('/codes', { params: { query: { limit: 1 } } }));
  assert.equal(page.object, 'list');
});
