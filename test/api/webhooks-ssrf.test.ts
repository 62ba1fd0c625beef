// SSRF: webhook URLs that point inside the network are refused at registration, and at every
// delivery the resolved addresses are checked again before any connection. Network rule: no
// traffic leaves loopback. Refusals are checked for "no connection attempt" through a guard
// on net.Socket.prototype.connect; a resolver stands in for DNS.
import net from 'node:net';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { createLogger } from '../../src/logger.ts';
import { createWebhooks, type Webhooks } from '../../src/modules/webhooks/module.ts';
import type { Principal } from '../../src/shared/principal.ts';
import { getTestApp, type TestApp } from '../support/app.ts';
import { createCode } from '../support/factories.ts';
import { createOwnedCodeIds } from '../../src/modules/codes/store.ts';

let app: TestApp;
let key: string;
let principal: Principal;

beforeAll(async () => {
  // NODE_ENV=test and no ALLOW_PRIVATE_NETWORK_TARGETS: the production rules.
  app = await getTestApp({ WEBHOOK_POLL_INTERVAL_MS: '20', WEBHOOK_RETRY_SCALE: '0' });
  key = await app.newAccountKey();
  principal = (await app.services.accounts.authenticate(key))!;
});
afterAll(() => app.close());

const connects: unknown[] = [];

beforeEach(() => {
  connects.length = 0;
  const realConnect = net.Socket.prototype.connect;
  const mysqlPort = Number(
    new URL(app.testDb.url.startsWith('mysql') ? app.testDb.url : 'mysql://x:3306/').port || 3306,
  );
  vi.spyOn(net.Socket.prototype, 'connect').mockImplementation(function (this: net.Socket, ...args: unknown[]) {
    // Node hands connect() its normalized arguments: [[options, callback]], or (options | port, …).
    const first = Array.isArray(args[0]) ? args[0][0] : args[0];
    const options = first as { port?: number | string; host?: string } | number;
    const port = typeof options === 'object' && options !== null ? Number(options.port) : Number(options);
    // The test's own traffic (fetch to the app on loopback, the MySQL pool) goes through.
    const ours = port === mysqlPort || port === Number(new URL(app.url).port);
    if (!ours) {
      connects.push(options);
      throw new Error('test guard: a connection was attempted');
    }
    return (realConnect as (...a: unknown[]) => net.Socket).apply(this, args);
  } as never);
});
afterEach(() => {
  vi.restoreAllMocks();
});

describe('at registration', () => {
  it.each([
    [
      'http://example.com/hook',
      'must be an https:// URL (http:// only in development or with ALLOW_PRIVATE_NETWORK_TARGETS=true)',
    ],
    ['https://127.0.0.1/hook', 'points to a private or reserved address (127.0.0.1)'],
    ['https://10.0.0.1/hook', 'points to a private or reserved address (10.0.0.1)'],
    ['https://192.168.1.20:8443/hook', 'points to a private or reserved address (192.168.1.20)'],
    ['https://169.254.169.254/latest/meta-data/', 'points to a private or reserved address (169.254.169.254)'],
    ['https://2130706433/', 'points to a private or reserved address (127.0.0.1)'],
    ['https://0x7f.1/', 'points to a private or reserved address (127.0.0.1)'],
    ['https://[::1]/hook', 'points to a private or reserved address (::1)'],
    ['https://[::ffff:10.0.0.1]/hook', 'points to a private or reserved address (::ffff:a00:1)'],
    // IPv6 forms that carry an IPv4 address: unwrapped, or refused whole (docs/security.md)
    ['https://[::ffff:0:7f00:1]/hook', 'points to a private or reserved address (::ffff:0:7f00:1)'],
    ['https://[::ffff:0:169.254.169.254]/', 'points to a private or reserved address (::ffff:0:a9fe:a9fe)'],
    ['https://[64:ff9b::a00:1]/hook', 'points to a private or reserved address (64:ff9b::a00:1)'],
    ['https://[2002:7f00:1::]/hook', 'points to a private or reserved address (2002:7f00:1::)'],
    ['https://[::8.8.8.8]/hook', 'points to a private or reserved address (::808:808)'],
    ['https://[64:ff9b:1::808:808]/hook', 'points to a private or reserved address (64:ff9b:1::808:808)'],
    [
      'https://[2001:0:808:808:0:fbaa:80ff:fffe]/hook',
      'points to a private or reserved address (2001:0:808:808:0:fbaa:80ff:fffe)',
    ],
    ['https://[fd00::1]/hook', 'points to a private or reserved address (fd00::1)'],
    [
      'https://metadata.google.internal/computeMetadata/v1/',
      'points to an internal host name (metadata.google.internal)',
    ],
    ['https://localhost:8080/hook', 'points to an internal host name (localhost)'],
    ['https://printer.local/hook', 'points to an internal host name (printer.local)'],
    ['https://user:secret@example.com/hook', 'must not contain a user name or password'],
  ])('refuses %s with a 422 on url, before any lookup or connection', async (url, message) => {
    const res = await app.request('POST', '/v1/webhooks', { key, body: { url, events: ['scan.created'] } });
    expect(res.status).toBe(422);
    expect(res.body.errors).toEqual([{ path: 'url', message }]);
    expect(connects).toEqual([]);
  });

  it('refuses the same on PATCH, and over GraphQL', async () => {
    const created = await createWebhooksModule(async () => [{ address: '93.184.216.34', family: 4 }]).service.create(
      principal,
      { url: 'https://hooks.example/in', events: ['code.created'] },
    );
    const patch = await app.request('PATCH', `/v1/webhooks/${created.webhook.id}`, {
      key,
      body: { url: 'https://169.254.169.254/' },
    });
    expect(patch.status).toBe(422);
    expect(patch.body.errors).toEqual([
      { path: 'url', message: 'points to a private or reserved address (169.254.169.254)' },
    ]);
    const gql = await app.graphql(
      key,
      'mutation { createWebhook(input: { url: "https://10.0.0.1/", events: ["scan.created"] }) { secret } }',
    );
    expect(gql.body.errors[0].extensions).toMatchObject({
      code: 'VALIDATION_FAILED',
      errors: [{ path: 'url', message: 'points to a private or reserved address (10.0.0.1)' }],
    });
    expect(connects).toEqual([]);
  });

  // Every address is checked, not just the first; IPv6 forms of a refused IPv4 address too.
  it.each([
    [['93.184.216.34', '10.0.0.1']],
    [['::ffff:0:7f00:1']],
    [['::ffff:0:a9fe:a9fe']],
    [['64:ff9b::a00:1']],
    [['2002:a9fe:a9fe::1']],
    [['::1.1.1.1']],
  ])('refuses a host name that resolves to %j', async (addresses) => {
    const module = createWebhooksModule(async () =>
      addresses.map((address) => ({ address, family: address.includes(':') ? 6 : 4 })),
    );
    await expect(
      module.service.create(principal, { url: 'https://sneaky.example/hook', events: ['scan.created'] }),
    ).rejects.toMatchObject({
      kind: 'validation_failed',
      fieldErrors: [{ path: 'url', message: 'resolves to a private or reserved address, which is refused' }],
    });
    expect(connects).toEqual([]);
  });
});

describe('at delivery', () => {
  it('checks the address resolved at each attempt (DNS rebinding), refusing without connecting', async () => {
    // Public when registered; the metadata address by the time it is sent.
    let answer = '93.184.216.34';
    const resolve = vi.fn(async () => [{ address: answer, family: 4 as const }]);
    const module = createWebhooksModule(resolve);
    const { webhook } = await module.service.create(principal, {
      url: 'https://rebind.example/hook',
      events: ['code.created'],
    });
    answer = '169.254.169.254';

    const tested = await module.service.test(principal, webhook.id);
    expect(tested).toMatchObject({
      status: 'pending',
      attempts: 1,
      lastResponseStatus: null,
      lastError: 'refused: the host name resolves to a private or reserved address, which is refused',
    });

    // The worker path: an event from a code change, claimed and refused the same way.
    module.worker.start();
    try {
      await createCode(app, key);
      const refused = await waitFor(async () => {
        const page = await module.service.deliveries(principal, webhook.id, { limit: 10 });
        return page.data.find((d) => d.eventType === 'code.created' && d.attempts > 0);
      });
      expect(refused.lastError).toBe(
        'refused: the host name resolves to a private or reserved address, which is refused',
      );
    } finally {
      await module.close();
    }
    expect(resolve).toHaveBeenCalledWith('rebind.example');
    expect(connects).toEqual([]);
  });

  it('refuses a loopback URL registered while private targets were allowed, once they are not', async () => {
    const permissive = createWebhooksModule(undefined, { allowPrivateNetworkTargets: true });
    const { webhook } = await permissive.service.create(principal, {
      url: 'http://127.0.0.1:9/hook',
      events: ['code.created'],
    });
    const strict = createWebhooksModule(async () => []);
    const tested = await strict.service.test(principal, webhook.id);
    expect(tested.lastError).toBe(
      'refused: the URL must be an https:// URL (http:// only in development or with ' +
        'ALLOW_PRIVATE_NETWORK_TARGETS=true)',
    );
    await app.request('PATCH', `/v1/webhooks/${webhook.id}`, { key, body: { description: 'still here' } });
    // Even over https, a loopback literal is refused at delivery.
    await permissive.service.update(principal, webhook.id, { url: 'https://127.0.0.1:9/hook' });
    expect((await strict.service.test(principal, webhook.id)).lastError).toBe(
      'refused: the URL points to a private or reserved address (127.0.0.1)',
    );
    expect(connects).toEqual([]);
  });
});

/** A second webhooks module on the app's database, with a stand-in resolver. */
function createWebhooksModule(
  resolve?: (host: string) => Promise<{ address: string; family: 4 | 6 }[]>,
  overrides: Partial<TestApp['config']> = {},
): Webhooks {
  const config = { ...app.config, ...overrides };
  return createWebhooks({
    db: app.testDb.db,
    config,
    logger: createLogger(config),
    resolve,
    ownedCodeIds: createOwnedCodeIds(app.testDb.db),
    audit: app.services.audit.record,
  });
}

async function waitFor<T>(probe: () => Promise<T | undefined>, timeoutMs = 10_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 20));
  }
}
