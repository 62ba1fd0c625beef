// Webhooks over GraphQL: the same service as REST, so the same rules and the same isolation.
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getTestApp, type TestApp } from '../support/app.ts';
import { createCode } from '../support/factories.ts';
import { startReceiver, type Receiver } from '../support/webhook-receiver.ts';

let app: TestApp;
let key: string;
let receiver: Receiver;

beforeAll(async () => {
  app = await getTestApp({
    ALLOW_PRIVATE_NETWORK_TARGETS: 'true',
    WEBHOOK_RETRY_SCALE: '0.00005',
    WEBHOOK_POLL_INTERVAL_MS: '20',
  });
  app.services.webhookWorker.start();
  key = await app.newAccountKey();
  receiver = await startReceiver();
});
afterAll(async () => {
  await app.close();
  await receiver.close();
});

const FIELDS = 'id url description events codeIds enabled disabledReason previousSecretExpiresAt createdAt';

async function gql(query: string, variables?: Record<string, unknown>, as = key) {
  const res = await app.graphql(as, query, variables);
  expect(res.status).toBe(200);
  return res.body;
}

describe('webhooks over GraphQL', () => {
  it('creates (secret once), lists, updates, tests, rotates, retries and deletes', async () => {
    const code = await createCode(app, key);
    const created = await gql(
      `mutation ($input: CreateWebhookInput!) { createWebhook(input: $input) { secret webhook { ${FIELDS} } } }`,
      {
        input: {
          url: receiver.url('/gql'),
          events: ['code.updated', 'scan.created'],
          codeIds: [code.id],
          description: 'from GraphQL',
        },
      },
    );
    expect(created.errors).toBeUndefined();
    const { secret, webhook } = created.data.createWebhook;
    expect(secret).toMatch(/^whsec_/);
    expect(webhook).toMatchObject({
      url: receiver.url('/gql'),
      events: ['code.updated', 'scan.created'],
      codeIds: [code.id],
      description: 'from GraphQL',
      enabled: true,
      disabledReason: null,
    });
    // REST sees the same endpoint, without the secret.
    expect((await app.request('GET', `/v1/webhooks/${webhook.id}`, { key })).body).toMatchObject({
      id: webhook.id,
      code_ids: [code.id],
    });

    const listed = await gql(`{ webhooks(first: 10) { edges { node { id } } pageInfo { hasNextPage } } }`);
    expect(listed.data.webhooks.edges.map((e: { node: { id: string } }) => e.node.id)).toEqual([webhook.id]);

    const updated = await gql(
      `mutation ($id: ID!) { updateWebhook(id: $id, input: { codeIds: null, description: null, events: ` +
        `["code.updated"] }) { ${FIELDS} } }`,
      { id: webhook.id },
    );
    expect(updated.data.updateWebhook).toMatchObject({ codeIds: null, description: null, events: ['code.updated'] });
    const kept = await gql(`mutation ($id: ID!) { updateWebhook(id: $id, input: { url: null }) { url events } }`, {
      id: webhook.id,
    });
    expect(kept.data.updateWebhook).toEqual({ url: receiver.url('/gql'), events: ['code.updated'] });

    const tested = await gql(
      `mutation ($id: ID!) { testWebhook(id: $id) { id status eventType eventId attempts lastResponseStatus ` +
        `eventData attemptHistory { attempt responseStatus durationMs error } } }`,
      { id: webhook.id },
    );
    expect(tested.data.testWebhook).toMatchObject({
      status: 'succeeded',
      eventType: 'webhook.test',
      attempts: 1,
      lastResponseStatus: 200,
      eventData: { webhook_id: webhook.id },
    });
    expect(tested.data.testWebhook.attemptHistory).toEqual([
      { attempt: 1, responseStatus: 200, durationMs: expect.any(Number), error: null },
    ]);
    const sent = receiver.received.find((r) => r.id === tested.data.testWebhook.eventId)!;
    expect(new Webhook(secret).verify(sent.body, sent.headers as Record<string, string>)).toMatchObject({
      type: 'webhook.test',
    });

    const rotated = await gql(
      `mutation ($id: ID!) { rotateWebhookSecret(id: $id) { secret webhook { previousSecretExpiresAt } } }`,
      { id: webhook.id },
    );
    expect(rotated.data.rotateWebhookSecret.secret).not.toBe(secret);
    expect(rotated.data.rotateWebhookSecret.webhook.previousSecretExpiresAt).toEqual(expect.any(String));

    const retried = await gql(
      `mutation ($w: ID!, $d: ID!) { retryWebhookDelivery(webhookId: $w, deliveryId: $d) { status attempts } }`,
      { w: webhook.id, d: tested.data.testWebhook.id },
    );
    expect(retried.data.retryWebhookDelivery).toEqual({ status: 'succeeded', attempts: 2 });
    const again = receiver.received.filter((r) => r.id === tested.data.testWebhook.eventId);
    expect(again).toHaveLength(2);
    expect(
      new Webhook(rotated.data.rotateWebhookSecret.secret).verify(
        again[1]!.body,
        again[1]!.headers as Record<string, string>,
      ),
    ).toBeTruthy();

    const deliveries = await gql(
      `query ($id: ID!) { webhook(id: $id) { deliveries(first: 5, status: succeeded) { edges { node { id eventType ` +
        `attempts } } pageInfo { hasNextPage } } } }`,
      { id: webhook.id },
    );
    expect(deliveries.data.webhook.deliveries.edges).toEqual([
      { node: { id: tested.data.testWebhook.id, eventType: 'webhook.test', attempts: 2 } },
    ]);
    const one = await gql(
      `query ($w: ID!, $d: ID!) { webhookDelivery(webhookId: $w, deliveryId: $d) { id attemptHistory { attempt } } }`,
      { w: webhook.id, d: tested.data.testWebhook.id },
    );
    expect(one.data.webhookDelivery.attemptHistory).toEqual([{ attempt: 1 }, { attempt: 2 }]);

    const deleted = await gql(`mutation ($id: ID!) { deleteWebhook(id: $id) { deletedId } }`, { id: webhook.id });
    expect(deleted.data.deleteWebhook).toEqual({ deletedId: webhook.id });
    expect((await gql(`query ($id: ID!) { webhook(id: $id) { id } }`, { id: webhook.id })).data.webhook).toBeNull();
  });

  it('reports invalid input with the same field errors as REST, in camelCase', async () => {
    const res = await gql(
      `mutation { createWebhook(input: { url: "ftp://x.example/", events: ["scan.created", "nope"], codeIds: ` +
        `["qr_missing"] }) { secret } }`,
    );
    expect(res.errors[0].extensions).toMatchObject({ code: 'VALIDATION_FAILED', status: 422 });
    expect(res.errors[0].extensions.errors.map((e: { path: string }) => e.path).sort()).toEqual(['events.1', 'url']);
    const codes = await gql(
      `mutation { createWebhook(input: { url: "${receiver.url()}", events: ["scan.created"], codeIds: ` +
        `["qr_missing"] }) { secret } }`,
    );
    expect(codes.errors[0].extensions.errors).toEqual([{ path: 'codeIds.0', message: "no code with id 'qr_missing'" }]);
  });

  it("cannot see or touch another account's webhooks", async () => {
    const created = await gql(
      `mutation { createWebhook(input: { url: "${receiver.url('/mine')}", events: ["code.created"] }) { webhook { ` +
        `id } } }`,
    );
    const id = created.data.createWebhook.webhook.id;
    const other = await app.newAccountKey();
    expect((await gql(`query ($id: ID!) { webhook(id: $id) { id } }`, { id }, other)).data.webhook).toBeNull();
    expect(
      (await gql(`{ webhooks(first: 5) { edges { node { id } } } }`, undefined, other)).data.webhooks.edges,
    ).toEqual([]);
    for (const mutation of [
      `mutation ($id: ID!) { updateWebhook(id: $id, input: { description: "x" }) { id } }`,
      `mutation ($id: ID!) { deleteWebhook(id: $id) { deletedId } }`,
      `mutation ($id: ID!) { rotateWebhookSecret(id: $id) { secret } }`,
      `mutation ($id: ID!) { testWebhook(id: $id) { id } }`,
    ]) {
      const res = await gql(mutation, { id }, other);
      expect(res.errors[0].extensions.code, mutation).toBe('NOT_FOUND');
    }
    expect((await gql(`query ($id: ID!) { webhook(id: $id) { id } }`, { id })).data.webhook).toEqual({ id });
  });
});
