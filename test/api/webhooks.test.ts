// Webhooks over REST with a real receiver on loopback: registration, validation, isolation,
// signed delivery of every event type, retries, rotation, tests, manual retries, disabling.
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getTestApp, type TestApp } from '../support/app.ts';
import { createCode } from '../support/factories.ts';
import { startReceiver, type Receiver, type Received } from '../support/webhook-receiver.ts';

// Retries shrunk 20,000x: 5 s -> 0.25 ms, 5 min -> 15 ms, 30 min -> 90 ms, … 10 h -> 1.8 s.
const FAST = {
  ALLOW_PRIVATE_NETWORK_TARGETS: 'true',
  WEBHOOK_RETRY_SCALE: '0.00005',
  WEBHOOK_POLL_INTERVAL_MS: '20',
  SCAN_FLUSH_INTERVAL_MS: '20',
};

let app: TestApp;
let key: string;
let receiver: Receiver;

beforeAll(async () => {
  app = await getTestApp(FAST);
  app.services.webhookWorker.start();
  key = await app.newAccountKey();
  receiver = await startReceiver();
});
afterAll(async () => {
  await app.close();
  await receiver.close();
});

/** Registers an endpoint at the receiver (a fresh path per test) and returns it with its secret. */
async function register(
  events: string[],
  extra: Record<string, unknown> = {},
  path = `/hook/${Math.random().toString(36).slice(2)}`,
) {
  const res = await app.request('POST', '/v1/webhooks', { key, body: { url: receiver.url(path), events, ...extra } });
  expect(res.status, res.text).toBe(201);
  return { webhook: res.body, secret: res.body.secret as string, path };
}

const at = (path: string) => (rs: Received[]) => rs.filter((r) => r.path === path);
const headersOf = (r: Received) => r.headers as Record<string, string>;

describe('registration', () => {
  it('answers 201 with the endpoint and its whsec_ secret, shown once', async () => {
    const res = await app.request('POST', '/v1/webhooks', {
      key,
      body: {
        url: receiver.url('/a'),
        events: ['scan.created', 'code.created', 'scan.created'],
        description: 'CRM sync',
      },
    });
    expect(res.status, res.text).toBe(201);
    expect(res.body).toMatchObject({
      object: 'webhook',
      url: receiver.url('/a'),
      events: ['scan.created', 'code.created'],
      code_ids: null,
      description: 'CRM sync',
      enabled: true,
      disabled_reason: null,
    });
    expect(res.body.id).toMatch(/^wh_[0-9A-Za-z]{20}$/);
    expect(res.body.secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(res.headers.get('location')).toBe(`/v1/webhooks/${res.body.id}`);

    const got = await app.request('GET', `/v1/webhooks/${res.body.id}`, { key });
    expect(got.status).toBe(200);
    expect(got.body.secret).toBeUndefined();
    expect(got.text).not.toContain(res.body.secret.slice(6));
    const { secret: _secret, ...withoutSecret } = res.body;
    expect(got.body).toEqual(withoutSecret);
  });

  it('lists newest first with the list shape and cursors', async () => {
    const other = await app.newAccountKey();
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) {
      const res = await app.request('POST', '/v1/webhooks', {
        key: other,
        body: { url: receiver.url(`/list/${i}`), events: ['code.created'] },
      });
      ids.push(res.body.id);
    }
    const first = await app.request('GET', '/v1/webhooks?limit=2', { key: other });
    expect(first.status).toBe(200);
    expect(first.body.object).toBe('list');
    expect(first.body.data.map((w: { id: string }) => w.id)).toEqual([ids[2], ids[1]]);
    expect(first.body.next_cursor).toEqual(expect.any(String));
    const second = await app.request('GET', `/v1/webhooks?limit=2&cursor=${first.body.next_cursor}`, { key: other });
    expect(second.body.data.map((w: { id: string }) => w.id)).toEqual([ids[0]]);
    expect(second.body.next_cursor).toBeNull();
    expect((await app.request('GET', '/v1/webhooks?cursor=nonsense', { key: other })).status).toBe(422);
  });

  it('updates url, events, code_ids and description; null lifts the code filter; deletes', async () => {
    const code = await createCode(app, key);
    const { webhook } = await register(['code.updated']);
    const patched = await app.request('PATCH', `/v1/webhooks/${webhook.id}`, {
      key,
      body: { events: ['code.updated', 'code.deleted'], code_ids: [code.id], description: 'only one' },
    });
    expect(patched.status, patched.text).toBe(200);
    expect(patched.body).toMatchObject({
      events: ['code.updated', 'code.deleted'],
      code_ids: [code.id],
      description: 'only one',
    });
    const cleared = await app.request('PATCH', `/v1/webhooks/${webhook.id}`, {
      key,
      body: { code_ids: null, description: null },
    });
    expect(cleared.body).toMatchObject({ code_ids: null, description: null, events: ['code.updated', 'code.deleted'] });

    expect((await app.request('DELETE', `/v1/webhooks/${webhook.id}`, { key })).status).toBe(204);
    expect((await app.request('GET', `/v1/webhooks/${webhook.id}`, { key })).status).toBe(404);
    expect((await app.request('DELETE', `/v1/webhooks/${webhook.id}`, { key })).status).toBe(404);
  });

  it('refuses bad input with a 422 that lists every field', async () => {
    const strangers = await app.newAccountKey();
    const foreign = await createCode(app, strangers);
    const res = await app.request('POST', '/v1/webhooks', {
      key,
      body: {
        url: 'ftp://example.com/hook',
        events: ['scan.created', 'scan.deleted'],
        code_ids: [foreign.id],
        description: 'x'.repeat(501),
        colour: 'red',
      },
    });
    expect(res.status).toBe(422);
    expect(res.headers.get('content-type')).toContain('application/problem+json');
    const paths = res.body.errors.map((e: { path: string }) => e.path).sort();
    expect(paths).toEqual(['colour', 'description', 'events.1', 'url']);
    // code_ids are checked once the body itself is valid: another account's code is unknown here.
    const codes = await app.request('POST', '/v1/webhooks', {
      key,
      body: { url: receiver.url(), events: ['scan.created'], code_ids: ['qr_nope', foreign.id] },
    });
    expect(codes.status).toBe(422);
    expect(codes.body.errors).toEqual([
      { path: 'code_ids.0', message: "no code with id 'qr_nope'" },
      { path: 'code_ids.1', message: `no code with id '${foreign.id}'` },
    ]);
    const empty = await app.request('POST', '/v1/webhooks', {
      key,
      body: { url: receiver.url(), events: [], code_ids: [] },
    });
    expect(empty.body.errors.map((e: { path: string }) => e.path).sort()).toEqual(['code_ids', 'events']);
    const patch = await app.request('PATCH', `/v1/webhooks/${(await register(['code.created'])).webhook.id}`, {
      key,
      body: { enabled: 'yes', url: 'nope' },
    });
    expect(patch.status).toBe(422);
    expect(patch.body.errors.map((e: { path: string }) => e.path).sort()).toEqual(['enabled', 'url']);
    expect(
      (
        await app.request('POST', '/v1/webhooks', {
          key,
          rawBody: '{"url":',
          headers: { 'content-type': 'application/json' },
        })
      ).status,
    ).toBe(400);
  });

  it("answers 404 for another account's webhook and deliveries, on every route", async () => {
    const { webhook } = await register(['code.created']);
    await createCode(app, key);
    await receiver.waitFor((rs) => rs.some((r) => r.type === 'code.created'));
    const mine = await app.request('GET', `/v1/webhooks/${webhook.id}/deliveries`, { key });
    const deliveryId = mine.body.data[0].id;
    const other = await app.newAccountKey();
    const routes: [string, string, unknown?][] = [
      ['GET', `/v1/webhooks/${webhook.id}`],
      ['PATCH', `/v1/webhooks/${webhook.id}`, { description: 'mine now' }],
      ['DELETE', `/v1/webhooks/${webhook.id}`],
      ['POST', `/v1/webhooks/${webhook.id}/rotate-secret`],
      ['POST', `/v1/webhooks/${webhook.id}/test`],
      ['GET', `/v1/webhooks/${webhook.id}/deliveries`],
      ['GET', `/v1/webhooks/${webhook.id}/deliveries/${deliveryId}`],
      ['POST', `/v1/webhooks/${webhook.id}/deliveries/${deliveryId}/retry`],
    ];
    for (const [method, path, body] of routes) {
      const res = await app.request(method, path, { key: other, body });
      expect(res.status, `${method} ${path}`).toBe(404);
      expect(res.body.type).toBe('/problems/not-found');
    }
    expect((await app.request('GET', '/v1/webhooks', { key: other })).body.data).toEqual([]);
    // Still there, untouched.
    expect((await app.request('GET', `/v1/webhooks/${webhook.id}`, { key })).body.description).toBeNull();
    // And a delivery id of one endpoint is unknown under another endpoint of the same account.
    const { webhook: second } = await register(['code.created']);
    expect((await app.request('GET', `/v1/webhooks/${second.id}/deliveries/${deliveryId}`, { key })).status).toBe(404);
  });
});

describe('delivery', () => {
  it('signs per Standard Webhooks, which the reference library verifies; body: { type, timestamp, data }', async () => {
    const { secret, path } = await register(['code.created']);
    const code = await createCode(app, key);
    const [request] = at(path)(await receiver.waitFor((rs) => at(path)(rs).length >= 1));
    const headers = headersOf(request!);
    expect(headers['webhook-id']).toMatch(/^evt_[0-9A-Za-z]{20}$/);
    expect(Number(headers['webhook-timestamp'])).toBeCloseTo(Date.now() / 1000, -1);
    expect(headers['webhook-signature']).toMatch(/^v1,[A-Za-z0-9+/]{43}=$/);
    expect(headers['content-type']).toBe('application/json');
    const verified = new Webhook(secret).verify(request!.body, headers) as {
      type: string;
      timestamp: string;
      data: unknown;
    };
    expect(Object.keys(verified)).toEqual(['type', 'timestamp', 'data']);
    expect(verified.type).toBe('code.created');
    expect(new Date(verified.timestamp).toISOString()).toBe(verified.timestamp);
    // The code as GET returns it.
    expect(verified.data).toEqual((await app.request('GET', `/v1/codes/${code.id}`, { key })).body);
    // A wrong secret, or a tampered body, does not verify.
    expect(() =>
      new Webhook(`whsec_${Buffer.alloc(32, 7).toString('base64')}`).verify(request!.body, headers),
    ).toThrow();
    expect(() => new Webhook(secret).verify(request!.body.replace('code.created', 'code.deleted'), headers)).toThrow();
  });

  it('sends code.updated and code.deleted with the code, and codes.bulk_created once per call', async () => {
    const { secret, path } = await register(['code.updated', 'code.deleted', 'codes.bulk_created']);
    const code = await createCode(app, key);
    await app.request('PATCH', `/v1/codes/${code.id}`, { key, body: { content: 'https://example.com/changed' } });
    const before = (await app.request('GET', `/v1/codes/${code.id}`, { key })).body;
    await app.request('DELETE', `/v1/codes/${code.id}`, { key });
    const bulk = await app.request('POST', '/v1/codes/bulk', {
      key,
      body: { codes: [{ content: 'https://example.com/1' }, { type: 'text', content: { text: 'hi' } }] },
    });
    expect(bulk.status, bulk.text).toBe(201);
    const got = at(path)(await receiver.waitFor((rs) => at(path)(rs).length >= 3));
    const events = got.map((r) => new Webhook(secret).verify(r.body, headersOf(r)) as { type: string; data: any });
    const byType = Object.fromEntries(events.map((e) => [e.type, e.data]));
    expect(Object.keys(byType).sort()).toEqual(['code.deleted', 'code.updated', 'codes.bulk_created']);
    expect(byType['code.updated']).toEqual(before);
    expect(byType['code.deleted']).toEqual(before);
    expect(byType['codes.bulk_created']).toEqual({
      object: 'batch',
      batch_id: bulk.body.batch_id,
      count: 2,
      codes: bulk.body.data.map((c: { id: string; type: string; scan_url: string | null }) => ({
        id: c.id,
        type: c.type,
        scan_url: c.scan_url,
      })),
    });
    // Three events, three distinct ids.
    expect(new Set(got.map((r) => r.id)).size).toBe(3);
  });

  it('sends scan.created with the scan facts, only for the codes an endpoint is limited to', async () => {
    const watched = await createCode(app, key, {
      routing: { rules: [{ condition: 'device:ios', destination: 'https://apps.apple.com/app' }] },
    });
    const ignored = await createCode(app, key);
    const { secret, path } = await register(['scan.created'], { code_ids: [watched.id] });
    const iphone =
      'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 ' +
      'Mobile/15E148 Safari/604.1';
    await app.request('GET', new URL(ignored.scan_url).pathname);
    const scan = await app.request('GET', new URL(watched.scan_url).pathname, {
      headers: { 'user-agent': iphone, referer: 'https://news.example.org/story', 'accept-language': 'de-DE' },
    });
    expect(scan.status).toBe(302);
    const [request] = at(path)(await receiver.waitFor((rs) => at(path)(rs).length >= 1));
    const event = new Webhook(secret).verify(request!.body, headersOf(request!)) as {
      type: string;
      data: Record<string, unknown>;
    };
    expect(event.type).toBe('scan.created');
    expect(event.data).toEqual({
      code_id: watched.id,
      scan_url: watched.scan_url,
      destination: 'https://apps.apple.com/app',
      outcome: 'redirect',
      rule_id: watched.routing.rules[0].ruleId,
      country: null,
      region: null,
      city: null,
      device: 'mobile',
      os: 'iOS',
      browser: 'Safari',
      referrer_host: 'news.example.org',
      language: 'de',
      is_bot: false,
      // No password on this code: the scan did not come through an unlock.
      unlocked: false,
      scanned_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
    });
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(at(path)(receiver.received)).toHaveLength(1);
  });

  it('retries with backoff: 500, 500, 500 then 200 delivers on the 4th attempt with the same webhook-id', async () => {
    const path = '/flaky';
    let calls = 0;
    receiver.respond((r) => (r.path === path && ++calls <= 3 ? 500 : 200));
    try {
      const { webhook, secret } = await register(['code.created'], {}, path);
      await createCode(app, key);
      const got = at(path)(await receiver.waitFor((rs) => at(path)(rs).length >= 4));
      expect(got).toHaveLength(4);
      expect(new Set(got.map((r) => r.id)).size).toBe(1);
      expect(new Set(got.map((r) => r.body)).size).toBe(1);
      for (const r of got) expect(() => new Webhook(secret).verify(r.body, headersOf(r))).not.toThrow();
      // Backoff: each gap at least (scaled) 80% of the schedule's step: 0.25 ms, 15 ms, 90 ms.
      expect(got[3]!.at - got[2]!.at).toBeGreaterThanOrEqual(70);

      const list = await waitForDelivery(webhook.id, (d) => d.status === 'succeeded');
      expect(list).toMatchObject({
        status: 'succeeded',
        attempts: 4,
        last_response_status: 200,
        next_attempt_at: null,
        last_error: null,
      });
      const detail = await app.request('GET', `/v1/webhooks/${webhook.id}/deliveries/${list.id}`, { key });
      expect(detail.body.attempt_history.map((a: { response_status: number }) => a.response_status)).toEqual([
        500, 500, 500, 200,
      ]);
      expect(detail.body.attempt_history[0]).toMatchObject({
        attempt: 1,
        error: 'HTTP 500',
        duration_ms: expect.any(Number),
      });
      expect(detail.body.event).toMatchObject({
        id: got[0]!.id,
        type: 'code.created',
        data: expect.objectContaining({ object: 'code' }),
      });
    } finally {
      receiver.respond(() => 200);
    }
  });

  it('marks a delivery failed after the last attempt; retry resends it with the same webhook-id', async () => {
    const path = '/down';
    let up = false;
    receiver.respond((r) => (r.path === path && !up ? 503 : 200));
    try {
      const { webhook } = await register(['code.created'], {}, path);
      await createCode(app, key);
      const failed = await waitForDelivery(webhook.id, (d) => d.status === 'failed', 20_000);
      expect(failed).toMatchObject({
        attempts: 8,
        next_attempt_at: null,
        last_response_status: 503,
        last_error: 'HTTP 503',
      });
      const pending = await app.request('GET', `/v1/webhooks/${webhook.id}/deliveries?status=pending`, { key });
      expect(pending.body.data).toEqual([]);
      expect(at(path)(receiver.received)).toHaveLength(8);

      up = true;
      const retried = await app.request('POST', `/v1/webhooks/${webhook.id}/deliveries/${failed.id}/retry`, { key });
      expect(retried.status, retried.text).toBe(200);
      expect(retried.body).toMatchObject({
        id: failed.id,
        status: 'succeeded',
        attempts: 9,
        last_response_status: 200,
      });
      const got = at(path)(receiver.received);
      expect(got).toHaveLength(9);
      expect(new Set(got.map((r) => r.id)).size).toBe(1);
      // A delivered one can be replayed too.
      expect(
        (await app.request('POST', `/v1/webhooks/${webhook.id}/deliveries/${failed.id}/retry`, { key })).body.attempts,
      ).toBe(10);
    } finally {
      receiver.respond(() => 200);
    }
  });

  it('does not follow redirects, and gives up on a receiver that does not answer in time', async () => {
    const slowApp = await getTestApp({ ...FAST, WEBHOOK_TIMEOUT_MS: '300' });
    const slowKey = await slowApp.newAccountKey();
    receiver.respond((r) => (r.path === '/moved' ? 302 : r.path === '/slow' ? 'hang' : 200));
    try {
      const moved = await slowApp.request('POST', '/v1/webhooks', {
        key: slowKey,
        body: { url: receiver.url('/moved'), events: ['code.created'] },
      });
      const slow = await slowApp.request('POST', '/v1/webhooks', {
        key: slowKey,
        body: { url: receiver.url('/slow'), events: ['code.created'] },
      });
      const redirected = await slowApp.request('POST', `/v1/webhooks/${moved.body.id}/test`, { key: slowKey });
      expect(redirected.body).toMatchObject({
        status: 'pending',
        attempts: 1,
        last_response_status: 302,
        last_error: 'redirect not followed (HTTP 302)',
      });
      const timedOut = await slowApp.request('POST', `/v1/webhooks/${slow.body.id}/test`, { key: slowKey });
      expect(timedOut.body).toMatchObject({
        status: 'pending',
        attempts: 1,
        last_response_status: null,
        last_error: 'no answer within 0.3 s',
      });
      expect(timedOut.body.attempt_history[0].duration_ms).toBeGreaterThanOrEqual(290);
    } finally {
      receiver.respond(() => 200);
      await slowApp.close();
    }
  });
});

describe('test events and secret rotation', () => {
  it('POST /test sends webhook.test now, whatever the endpoint subscribes to, and answers the delivery', async () => {
    const { webhook, secret, path } = await register(['scan.created']);
    const res = await app.request('POST', `/v1/webhooks/${webhook.id}/test`, { key });
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({
      object: 'webhook_delivery',
      webhook_id: webhook.id,
      status: 'succeeded',
      attempts: 1,
      last_response_status: 200,
    });
    expect(res.body.event).toMatchObject({ type: 'webhook.test', data: { webhook_id: webhook.id } });
    const [request] = at(path)(receiver.received);
    expect(new Webhook(secret).verify(request!.body, headersOf(request!))).toMatchObject({ type: 'webhook.test' });
    expect(request!.id).toBe(res.body.event.id);
  });

  it('rotate-secret: the old secret keeps signing beside the new one for 24 hours', async () => {
    const { webhook, secret: old, path } = await register(['code.created']);
    const rotated = await app.request('POST', `/v1/webhooks/${webhook.id}/rotate-secret`, { key });
    expect(rotated.status).toBe(200);
    const fresh = rotated.body.secret as string;
    expect(fresh).toMatch(/^whsec_/);
    expect(fresh).not.toBe(old);
    const expires = Date.parse(rotated.body.previous_secret_expires_at);
    expect(expires - Date.now()).toBeGreaterThan(23.9 * 3_600_000);
    expect(expires - Date.now()).toBeLessThanOrEqual(24 * 3_600_000);

    await app.request('POST', `/v1/webhooks/${webhook.id}/test`, { key });
    const [request] = at(path)(receiver.received);
    expect(headersOf(request!)['webhook-signature']!.split(' ')).toHaveLength(2);
    expect(() => new Webhook(fresh).verify(request!.body, headersOf(request!))).not.toThrow();
    expect(() => new Webhook(old).verify(request!.body, headersOf(request!))).not.toThrow();
  });
});

describe('disabling', () => {
  it('disables an endpoint that keeps failing, says why, holds its deliveries, resumes them when enabled', async () => {
    const shortApp = await getTestApp({ ...FAST, WEBHOOK_DISABLE_AFTER_MS: '150' });
    shortApp.services.webhookWorker.start();
    const shortKey = await shortApp.newAccountKey();
    let up = false;
    receiver.respond((r) => (r.path === '/dying' && !up ? 500 : 200));
    try {
      const created = await shortApp.request('POST', '/v1/webhooks', {
        key: shortKey,
        body: { url: receiver.url('/dying'), events: ['code.created'] },
      });
      const id = created.body.id;
      await createCode(shortApp, shortKey);
      let webhook: any;
      for (const deadline = Date.now() + 15_000; Date.now() < deadline; await new Promise((r) => setTimeout(r, 50))) {
        webhook = (await shortApp.request('GET', `/v1/webhooks/${id}`, { key: shortKey })).body;
        if (!webhook.enabled) break;
      }
      expect(webhook.enabled).toBe(false);
      expect(webhook.disabled_reason).toMatch(
        /^Disabled automatically on .* every delivery attempt since .* failed .*HTTP 500.*"enabled": true/,
      );
      expect(webhook.disabled_at).toEqual(expect.any(String));
      expect(webhook.failing_since).toEqual(expect.any(String));
      // New events skip a disabled endpoint; the waiting delivery is paused.
      await createCode(shortApp, shortKey);
      const deliveries = (await shortApp.request('GET', `/v1/webhooks/${id}/deliveries`, { key: shortKey })).body.data;
      expect(deliveries).toHaveLength(1);
      expect(deliveries[0]).toMatchObject({ status: 'paused', next_attempt_at: null });
      const conflict = await shortApp.request('POST', `/v1/webhooks/${id}/test`, { key: shortKey });
      expect(conflict.status).toBe(409);
      expect(conflict.body.detail).toContain('is disabled');

      up = true;
      const enabled = await shortApp.request('PATCH', `/v1/webhooks/${id}`, { key: shortKey, body: { enabled: true } });
      expect(enabled.body).toMatchObject({
        enabled: true,
        disabled_reason: null,
        disabled_at: null,
        failing_since: null,
      });
      await waitForDelivery(id, (d) => d.status === 'succeeded', 10_000, shortApp, shortKey);

      const off = await shortApp.request('PATCH', `/v1/webhooks/${id}`, { key: shortKey, body: { enabled: false } });
      expect(off.body).toMatchObject({ enabled: false, disabled_reason: 'Disabled through the API.' });
    } finally {
      receiver.respond(() => 200);
      await shortApp.close();
    }
  });
});

/** Polls an endpoint's newest delivery until it matches. */
async function waitForDelivery(
  webhookId: string,
  done: (d: any) => boolean,
  timeoutMs = 10_000,
  on = app,
  withKey = key,
): Promise<any> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const res = await on.request('GET', `/v1/webhooks/${webhookId}/deliveries`, { key: withKey });
    const delivery = res.body.data[0];
    if (delivery && done(delivery)) return delivery;
    if (Date.now() > deadline) throw new Error(`delivery not done in time: ${JSON.stringify(delivery)}`);
    await new Promise((resolve) => setTimeout(resolve, 30));
  }
}
