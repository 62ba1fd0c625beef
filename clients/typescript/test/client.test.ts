// The client against a running service: QR_BASE_URL and QR_API_KEY name it (CI starts one on
// SQLite with ALLOW_PRIVATE_NETWORK_TARGETS=true, so the webhook test's loopback receiver is
// reachable). Without them the tests are skipped, and CI counts a skip as a failure.
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, describe, expect, it } from 'vitest';
import { createQrClient, QrApiError, unwrap, verifyWebhook } from '../src/index.ts';

const baseUrl = process.env.QR_BASE_URL;
const apiKey = process.env.QR_API_KEY;
const live = describe.skipIf(!baseUrl || !apiKey);
const qr = createQrClient({ baseUrl: baseUrl ?? 'http://127.0.0.1:1', apiKey: apiKey ?? '' });
const run = Date.now();
const url = (path: string) => `https://example.com/ts-client/${run}/${path}`;

live('codes', () => {
  it('creates, reads, updates and deletes a code; answers carry the version', async () => {
    const created = await qr.api.POST('/codes', { body: { content: url('a'), design: { style: 'branded' } } });
    expect(created.response.status).toBe(201);
    expect(created.response.headers.get('api-version')).toBe('v2');
    const code = created.data!;
    expect(code.design.style).toBe('branded');
    const read = await unwrap(qr.api.GET('/codes/{id}', { params: { path: { id: code.id } } }));
    expect(read).toEqual(code);
    const updated = await unwrap(
      qr.api.PATCH('/codes/{id}', { params: { path: { id: code.id } }, body: { destination: url('b') } }),
    );
    expect(updated.content).toBe(url('b'));
    await unwrap(qr.api.DELETE('/codes/{id}', { params: { path: { id: code.id } } }));
    await expect(unwrap(qr.api.GET('/codes/{id}', { params: { path: { id: code.id } } }))).rejects.toMatchObject({
      status: 404,
    });
  });

  it('turns a 422 into a QrApiError listing every invalid field', async () => {
    const error = await unwrap(
      qr.api.POST('/codes', { body: { content: 'ftp://nope', design: { fg_color: 'red' } } }),
    ).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(QrApiError);
    expect((error as QrApiError).status).toBe(422);
    expect((error as QrApiError).errors.map((e) => e.path).sort()).toEqual(['content', 'design.fg_color']);
  });

  it('walks every page with codes()', async () => {
    const q = `page-walk-${Date.now()}`;
    const ids = new Set<string>();
    for (let i = 0; i < 5; i++)
      ids.add((await unwrap(qr.api.POST('/codes', { body: { content: `https://example.com/${q}/${i}` } }))).id);
    const seen: string[] = [];
    for await (const code of qr.codes({ q, limit: 2 })) seen.push(code.id);
    expect(new Set(seen)).toEqual(ids);
  });
});

live('routing, images and bulk', () => {
  it('routes a German scan by a country rule, as the resolve explainer says', async () => {
    const code = await unwrap(qr.api.POST('/codes', { body: { content: url('home') } }));
    const routing = await unwrap(
      qr.api.PUT('/codes/{id}/routing', {
        params: { path: { id: code.id } },
        body: { rules: [{ condition: 'country:DE', destination: url('de') }] },
      }),
    );
    expect(routing.rules).toHaveLength(1);
    const decision = await unwrap(
      qr.api.POST('/codes/{id}/routing/resolve', { params: { path: { id: code.id } }, body: { country: 'DE' } }),
    );
    expect(decision.destination).toBe(url('de'));
  });

  it('downloads a PNG image', async () => {
    const code = await unwrap(qr.api.POST('/codes', { body: { content: url('png') } }));
    const image = await qr.api.GET('/codes/{id}/image', {
      params: { path: { id: code.id }, query: { format: 'png', size: 256 } },
      parseAs: 'arrayBuffer',
    });
    expect(image.response.headers.get('content-type')).toBe('image/png');
    expect(
      Buffer.from(image.data as ArrayBuffer)
        .subarray(1, 4)
        .toString(),
    ).toBe('PNG');
  });

  it('creates codes in bulk, atomically', async () => {
    const created = await unwrap(
      qr.api.POST('/codes/bulk', { body: { codes: [{ content: url('bulk-1') }, { content: url('bulk-2') }] } }),
    );
    expect(created.data.map((code) => code.content)).toEqual([url('bulk-1'), url('bulk-2')]);
    const refused = await unwrap(
      qr.api.POST('/codes/bulk', { body: { codes: [{ content: url('bulk-3') }, { content: 'nope' }] } }),
    ).catch((e: unknown) => e);
    expect((refused as QrApiError).status).toBe(422);
    expect((refused as QrApiError).errors[0]!.path).toMatch(/^codes\.1\./);
  });
});

live('analytics', () => {
  it('counts scans of the scan URL', async () => {
    const code = await unwrap(qr.api.POST('/codes', { body: { content: url('scanned') } }));
    for (let i = 0; i < 3; i++) {
      const scan = await fetch(code.scan_url!, {
        redirect: 'manual',
        headers: { 'user-agent': 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) Mobile/15E148 Safari/604.1' },
      });
      expect(scan.status).toBe(302);
    }
    // Scans are written in batches; wait until they are.
    let total = 0;
    for (let attempt = 0; attempt < 50 && total < 3; attempt++) {
      total = (await unwrap(qr.api.GET('/codes/{id}/scans', { params: { path: { id: code.id } } }))).total_scans;
      if (total < 3) await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(total).toBe(3);
  });
});

live('webhooks', () => {
  const received: { headers: Record<string, string>; body: string }[] = [];
  const receiver = createServer((req: IncomingMessage, res) => {
    let body = '';
    req.on('data', (chunk) => (body += chunk));
    req.on('end', () => {
      received.push({ headers: req.headers as Record<string, string>, body });
      res.writeHead(204).end();
    });
  });
  afterAll(() => new Promise<void>((resolve) => receiver.close(() => resolve())));

  it('verifies the signature of a delivered test event, and refuses a tampered body', async () => {
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    const { port } = receiver.address() as AddressInfo;
    const endpoint = await unwrap(
      qr.api.POST('/webhooks', { body: { url: `http://127.0.0.1:${port}/hook`, events: ['code.created'] } }),
    );
    const delivery = await unwrap(qr.api.POST('/webhooks/{id}/test', { params: { path: { id: endpoint.id } } }));
    expect(delivery.status).toBe('succeeded');
    expect(received).toHaveLength(1);
    const { headers, body } = received[0]!;
    expect(verifyWebhook(endpoint.secret!, body, headers)).toMatchObject({ type: 'webhook.test' });
    expect(() => verifyWebhook(endpoint.secret!, body.replace('webhook.test', 'webhook.tezt'), headers)).toThrow();
  });
});
