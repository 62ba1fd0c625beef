// Contract: every webhooks operation, success and error, validated against the served document,
// with a real receiver on loopback; and every event type the service sends, its body checked
// against the document's `webhooks` and its signature against the Standard Webhooks library.
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getTestApp, type TestApp } from '../support/app.ts';
import { contractClient, loadContract, type Contract } from '../support/contract.ts';
import { codeBody, createCode } from '../support/factories.ts';
import { startReceiver, type Receiver, type Received } from '../support/webhook-receiver.ts';

// Loopback receivers over http, and retries, polls and scan batches in milliseconds.
const FAST = {
  ALLOW_PRIVATE_NETWORK_TARGETS: 'true',
  WEBHOOK_RETRY_SCALE: '0.00005',
  WEBHOOK_POLL_INTERVAL_MS: '20',
  SCAN_FLUSH_INTERVAL_MS: '20',
};

const addFormats = addFormatsModule as unknown as (ajv: Ajv2020) => void;

let app: TestApp;
let contract: Contract;
let call: ReturnType<typeof contractClient>;
let key: string;
let readOnly: string;
let stranger: string;
let receiver: Receiver;

beforeAll(async () => {
  app = await getTestApp(FAST);
  app.services.webhookWorker.start();
  contract = await loadContract(app);
  call = contractClient(app, contract);
  key = await app.newAccountKey();
  readOnly = await app.newAccountKey(undefined, { scopes: ['webhooks:read'] });
  stranger = await app.newAccountKey();
  receiver = await startReceiver();
});
afterAll(async () => {
  await app.close();
  await receiver.close();
});

const freshPath = () => `/hook/${Math.random().toString(36).slice(2)}`;
const at = (path: string) => (received: Received[]) => received.filter((r) => r.path === path);

async function register(events: string[], path = freshPath()) {
  const res = await call('POST', '/v1/webhooks', { key, body: { url: receiver.url(path), events } });
  expect(res.status, res.text).toBe(201);
  return { webhook: res.body, secret: res.body.secret as string, path };
}

describe('webhook endpoints', () => {
  it('create: 201 with the secret and Location, 422, 400, 415, 401, 403', async () => {
    const created = await call('POST', '/v1/webhooks', {
      key,
      body: { url: receiver.url(freshPath()), events: ['code.created', 'scan.created'], description: 'CRM sync' },
    });
    expect(created.status).toBe(201);
    expect(created.body.secret).toMatch(/^whsec_/);
    expect(created.headers.get('location')).toBe(`/v1/webhooks/${created.body.id}`);
    const code = await createCode(app, key);
    expect(
      (
        await call('POST', '/v1/webhooks', {
          key,
          body: { url: receiver.url(freshPath()), events: ['code.updated'], code_ids: [code.id] },
        })
      ).status,
    ).toBe(201);
    const invalid = await call('POST', '/v1/webhooks', {
      key,
      body: { url: 'ftp://example.com/hook', events: ['scan.deleted'], code_ids: [], colour: 'red' },
    });
    expect(invalid.status).toBe(422);
    expect(invalid.body.errors.length).toBeGreaterThan(1);
    expect(
      (
        await call('POST', '/v1/webhooks', {
          key,
          body: { url: receiver.url(), events: ['code.created'], code_ids: ['qr_nope'] },
        })
      ).status,
    ).toBe(422);
    expect(
      (await call('POST', '/v1/webhooks', { key, rawBody: '{"url":', headers: { 'content-type': 'application/json' } }))
        .status,
    ).toBe(400);
    expect(
      (await call('POST', '/v1/webhooks', { key, rawBody: 'url=x', headers: { 'content-type': 'text/plain' } })).status,
    ).toBe(415);
    expect(
      (await call('POST', '/v1/webhooks', { body: { url: receiver.url(), events: ['code.created'] } })).status,
    ).toBe(401);
    expect(
      (await call('POST', '/v1/webhooks', { key: readOnly, body: { url: receiver.url(), events: ['code.created'] } }))
        .status,
    ).toBe(403);
  });

  it('list: 200 with a cursor, 422 on a bad query, 401', async () => {
    const owner = await app.newAccountKey();
    for (let i = 0; i < 2; i++)
      await call('POST', '/v1/webhooks', {
        key: owner,
        body: { url: receiver.url(freshPath()), events: ['code.created'] },
      });
    const page = await call('GET', '/v1/webhooks?limit=1', { key: owner });
    expect(page.status).toBe(200);
    expect(page.body.next_cursor).toEqual(expect.any(String));
    const last = await call('GET', `/v1/webhooks?limit=1&cursor=${page.body.next_cursor}`, { key: owner });
    expect(last.body.next_cursor).toBeNull();
    expect((await call('GET', '/v1/webhooks', { key: readOnly })).status).toBe(200);
    expect((await call('GET', '/v1/webhooks?limit=0', { key })).status).toBe(422);
    expect((await call('GET', '/v1/webhooks?cursor=nonsense', { key })).status).toBe(422);
    expect((await call('GET', '/v1/webhooks', { key: 'qrk_0000000000000000000000000000000000000000' })).status).toBe(
      401,
    );
  });

  it('get, update, delete: success, 404 for another account’s, 422', async () => {
    const { webhook } = await register(['code.created']);
    expect((await call('GET', `/v1/webhooks/${webhook.id}`, { key })).status).toBe(200);
    expect((await call('GET', `/v1/webhooks/${webhook.id}`, { key: stranger })).status).toBe(404);
    expect((await call('GET', '/v1/webhooks/wh_missing', { key })).status).toBe(404);

    const patched = await call('PATCH', `/v1/webhooks/${webhook.id}`, {
      key,
      body: { events: ['code.updated', 'code.deleted'], description: 'renamed' },
    });
    expect(patched.status).toBe(200);
    const disabled = await call('PATCH', `/v1/webhooks/${webhook.id}`, { key, body: { enabled: false } });
    expect(disabled.body).toMatchObject({
      enabled: false,
      disabled_reason: 'Disabled through the API.',
      disabled_at: expect.any(String),
    });
    expect(
      (
        await call('PATCH', `/v1/webhooks/${webhook.id}`, {
          key,
          body: { enabled: true, code_ids: null, description: null },
        })
      ).body.enabled,
    ).toBe(true);
    expect(
      (await call('PATCH', `/v1/webhooks/${webhook.id}`, { key, body: { enabled: 'yes', url: 'nope' } })).status,
    ).toBe(422);
    expect(
      (await call('PATCH', `/v1/webhooks/${webhook.id}`, { key: stranger, body: { description: 'mine now' } })).status,
    ).toBe(404);
    expect(
      (await call('PATCH', `/v1/webhooks/${webhook.id}`, { key: readOnly, body: { description: 'x' } })).status,
    ).toBe(403);

    expect((await call('DELETE', `/v1/webhooks/${webhook.id}`, { key: stranger })).status).toBe(404);
    expect((await call('DELETE', `/v1/webhooks/${webhook.id}`, { key })).status).toBe(204);
    expect((await call('DELETE', `/v1/webhooks/${webhook.id}`, { key })).status).toBe(404);
  });

  it('rotate-secret: 200 with the new secret and the overlap, 404', async () => {
    const { webhook, secret } = await register(['code.created']);
    const rotated = await call('POST', `/v1/webhooks/${webhook.id}/rotate-secret`, { key });
    expect(rotated.status).toBe(200);
    expect(rotated.body.secret).not.toBe(secret);
    expect(rotated.body.previous_secret_expires_at).toEqual(expect.any(String));
    expect((await call('POST', `/v1/webhooks/${webhook.id}/rotate-secret`, { key: stranger })).status).toBe(404);
  });
});

describe('tests, deliveries and retries', () => {
  it('test: 200 delivered, 200 not delivered (the delivery says why), 409 when disabled, 404', async () => {
    const { webhook, path } = await register(['scan.created']);
    const ok = await call('POST', `/v1/webhooks/${webhook.id}/test`, { key });
    expect(ok.status).toBe(200);
    expect(ok.body).toMatchObject({
      status: 'succeeded',
      attempts: 1,
      last_response_status: 200,
      event: { type: 'webhook.test' },
    });
    expect(ok.body.attempt_history).toHaveLength(1);

    receiver.respond((r) => (r.path === path ? 503 : 200));
    try {
      const failed = await call('POST', `/v1/webhooks/${webhook.id}/test`, { key });
      expect(failed.status).toBe(200);
      expect(failed.body).toMatchObject({
        attempts: 1,
        last_response_status: 503,
        last_error: 'HTTP 503',
        delivered_at: null,
      });
    } finally {
      receiver.respond(() => 200);
    }

    await call('PATCH', `/v1/webhooks/${webhook.id}`, { key, body: { enabled: false } });
    expect((await call('POST', `/v1/webhooks/${webhook.id}/test`, { key })).status).toBe(409);
    expect((await call('POST', `/v1/webhooks/${webhook.id}/test`, { key: stranger })).status).toBe(404);
    expect((await call('POST', `/v1/webhooks/${webhook.id}/test`, { key: readOnly })).status).toBe(403);
  });

  it('deliveries: list 200 (filtered, paged), 422, 404; get 200 with attempts, 404', async () => {
    const { webhook } = await register(['code.created']);
    for (let i = 0; i < 2; i++) await call('POST', `/v1/webhooks/${webhook.id}/test`, { key });
    const page = await call('GET', `/v1/webhooks/${webhook.id}/deliveries?limit=1`, { key });
    expect(page.status).toBe(200);
    expect(page.body.next_cursor).toEqual(expect.any(String));
    expect(
      (await call('GET', `/v1/webhooks/${webhook.id}/deliveries?limit=1&cursor=${page.body.next_cursor}`, { key })).body
        .data,
    ).toHaveLength(1);
    expect(
      (await call('GET', `/v1/webhooks/${webhook.id}/deliveries?status=succeeded`, { key })).body.data,
    ).toHaveLength(2);
    expect((await call('GET', `/v1/webhooks/${webhook.id}/deliveries?status=lost`, { key })).status).toBe(422);
    expect((await call('GET', `/v1/webhooks/${webhook.id}/deliveries`, { key: stranger })).status).toBe(404);

    const deliveryId = page.body.data[0].id;
    const detail = await call('GET', `/v1/webhooks/${webhook.id}/deliveries/${deliveryId}`, { key });
    expect(detail.status).toBe(200);
    expect(detail.body.event.data).toMatchObject({ webhook_id: webhook.id });
    expect((await call('GET', `/v1/webhooks/${webhook.id}/deliveries/dlv_missing`, { key })).status).toBe(404);
    expect((await call('GET', `/v1/webhooks/${webhook.id}/deliveries/${deliveryId}`, { key: stranger })).status).toBe(
      404,
    );
  });

  it('retry: 200 after a real backoff, the same webhook-id; 409 when disabled; 404', async () => {
    const path = freshPath();
    let up = false;
    receiver.respond((r) => (r.path === path && !up ? 500 : 200));
    try {
      const { webhook } = await register(['code.created'], path);
      await createCode(app, key);
      // The worker delivers, fails, and retries on the (shrunk) schedule.
      await receiver.waitFor((received) => at(path)(received).length >= 2);
      const list = await call('GET', `/v1/webhooks/${webhook.id}/deliveries`, { key });
      const delivery = list.body.data[0];
      expect(delivery.event.type).toBe('code.created');

      up = true;
      // While the worker holds the delivery for its own retry, the call answers 409; then 200.
      let retried = await call('POST', `/v1/webhooks/${webhook.id}/deliveries/${delivery.id}/retry`, { key });
      for (let tries = 0; retried.status === 409 && tries < 100; tries++) {
        await new Promise((resolve) => setTimeout(resolve, 20));
        retried = await call('POST', `/v1/webhooks/${webhook.id}/deliveries/${delivery.id}/retry`, { key });
      }
      expect(retried.status, retried.text).toBe(200);
      expect(retried.body.attempt_history.at(-1)).toMatchObject({ response_status: 200, error: null });
      const sent = at(path)(receiver.received);
      expect(new Set(sent.map((r) => r.id))).toEqual(new Set([delivery.event.id]));

      expect((await call('POST', `/v1/webhooks/${webhook.id}/deliveries/dlv_missing/retry`, { key })).status).toBe(404);
      expect(
        (await call('POST', `/v1/webhooks/${webhook.id}/deliveries/${delivery.id}/retry`, { key: stranger })).status,
      ).toBe(404);
      await call('PATCH', `/v1/webhooks/${webhook.id}`, { key, body: { enabled: false } });
      expect((await call('POST', `/v1/webhooks/${webhook.id}/deliveries/${delivery.id}/retry`, { key })).status).toBe(
        409,
      );
    } finally {
      receiver.respond(() => 200);
    }
  });
});

describe('the events (the document’s webhooks)', () => {
  it('sends every event type with a body valid against its webhook and the Standard Webhooks headers', async () => {
    const document = contract.document;
    const ajv = new Ajv2020({ strict: false, allErrors: true });
    addFormats(ajv);
    ajv.addSchema(document, 'openapi');
    const bodyOf = (type: string) =>
      ajv.compile({ $ref: `openapi#/webhooks/${type}/post/requestBody/content/application~1json/schema` });

    const types = Object.keys(document.webhooks);
    expect(types.sort()).toEqual([
      'code.created',
      'code.deleted',
      'code.updated',
      'codes.bulk_created',
      'scan.created',
      'webhook.test',
    ]);
    const { webhook, secret, path } = await register([
      'code.created',
      'code.updated',
      'code.deleted',
      'codes.bulk_created',
      'scan.created',
    ]);

    const code = await createCode(app, key);
    await call('PATCH', `/v1/codes/${code.id}`, { key, body: { design: { frame: 'banner' } } });
    expect(
      (
        await call('GET', new URL(code.scan_url).pathname, {
          headers: { 'user-agent': 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X)' },
        })
      ).status,
    ).toBe(302);
    const bulk = await call('POST', '/v1/codes/bulk', {
      key,
      body: { codes: [codeBody(), { type: 'text', content: { text: 'hi' } }] },
    });
    expect(bulk.status, bulk.text).toBe(201);
    await call('DELETE', `/v1/codes/${code.id}`, { key });
    await call('POST', `/v1/webhooks/${webhook.id}/test`, { key });

    const got = at(path)(
      await receiver.waitFor((received) => new Set(at(path)(received).map((r) => r.type)).size >= types.length),
    );
    for (const type of types) {
      const request = got.find((r) => r.type === type)!;
      const validate = bodyOf(type);
      expect(validate(JSON.parse(request.body)), `${type}: ${JSON.stringify(validate.errors)}`).toBe(true);
      const headers = request.headers as Record<string, string>;
      for (const parameter of document.webhooks[type].post.parameters) {
        if (parameter.in === 'header' && parameter.required)
          expect(headers[parameter.name], `${type} header ${parameter.name}`).toEqual(expect.any(String));
      }
      expect(() => new Webhook(secret).verify(request.body, headers)).not.toThrow();
    }
  });
});

describe('coverage', () => {
  it('walked every webhooks operation', () => contract.expectTagCovered('Webhooks'));
});
