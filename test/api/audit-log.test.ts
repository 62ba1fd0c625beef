// The audit log (GET /v1/audit-log, ?format=csv, GraphQL auditLog): what a change records
// (old and new destination, the acting key, the hashed address), the CLI as an actor, nothing
// recorded for a refused or rolled-back change, filters and cursor pages, CSV, another
// account's entries never seen, the audit:read scope, and retention deleting old entries only.
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inTransaction } from '../../src/db/transaction.ts';
import { DAY_MS } from '../../src/shared/time.ts';
import { SCOPES } from '../../src/shared/principal.ts';
import { getTestApp, type TestApp } from '../support/app.ts';
import { authorize, basic, consent, pkce, postForm } from '../support/oauth.ts';
import { runCli } from '../support/process.ts';

let app: TestApp;
let key: string;
let keyId: string;
// The app's clock runs `offset` ms from the real one, so retention sees entries made long ago.
let offset = 0;

beforeAll(async () => {
  // Two tags per account: an update naming three fails inside its transaction (a rollback).
  // Webhook endpoints on loopback are allowed (none is ever called here).
  app = await getTestApp(
    { TAGS_PER_ACCOUNT: '2', ALLOW_PRIVATE_NETWORK_TARGETS: 'true' },
    { now: () => Date.now() + offset },
  );
  key = await app.newAccountKey('audit-a');
  keyId = (await app.request('GET', '/v1/api-keys', { key })).body.data[0].id;
});
afterAll(() => app.close());

const createCode = async (apiKey = key, destination = `https://example.com/${Math.random().toString(36).slice(2)}`) => {
  const res = await app.request('POST', '/v1/codes', { key: apiKey, body: { content: destination } });
  expect(res.status, res.text).toBe(201);
  return res.body as { id: string; content: string };
};
const auditLog = async (query: string, apiKey = key) => {
  const res = await app.request('GET', `/v1/audit-log?${query}`, { key: apiKey });
  expect(res.status, res.text).toBe(200);
  return res.body as { data: any[]; next_cursor: string | null };
};

describe('what a change records', { timeout: 120_000 }, () => {
  it('a code update: old and new destination, the API key as actor, the address hashed', async () => {
    const code = await createCode(key, 'https://example.com/before');
    const patched = await app.request('PATCH', `/v1/codes/${code.id}`, {
      key,
      body: { destination: 'https://example.com/after', name: 'Menu' },
    });
    expect(patched.status, patched.text).toBe(200);
    const { data } = await auditLog(`object_id=${code.id}`);
    expect(data.map((e) => e.action)).toEqual(['code.updated', 'code.created']);
    const [updated, created] = data;
    expect(updated).toMatchObject({
      object: 'audit_entry',
      object_type: 'code',
      object_id: code.id,
      actor: { kind: 'api_key', id: keyId },
      summary: {
        changes: {
          destination: { old: 'https://example.com/before', new: 'https://example.com/after' },
          name: { old: null, new: 'Menu' },
        },
      },
    });
    // Only what changed is listed.
    expect(Object.keys(updated.summary.changes).sort()).toEqual(['destination', 'name']);
    expect(created.summary).toMatchObject({ type: 'url', destination: 'https://example.com/before' });
    // The same address (loopback) within a day hashes alike, and the address itself is not stored.
    expect(updated.actor.address_hash).toMatch(/^[0-9a-f]{32}$/);
    expect(created.actor.address_hash).toBe(updated.actor.address_hash);
    expect(JSON.stringify(data)).not.toContain('127.0.0.1');
    expect(Date.parse(updated.at)).toBeGreaterThanOrEqual(Date.parse(created.at));
  });

  it('a deletion, a routing change, a bulk call (one entry with the count) and key changes', async () => {
    const code = await createCode();
    const routed = await app.request('PUT', `/v1/codes/${code.id}/routing`, {
      key,
      body: { rules: [{ type: 'device', conditions: { devices: ['ios'] }, destination: 'https://example.com/ios' }] },
    });
    expect(routed.status, routed.text).toBe(200);
    expect((await app.request('DELETE', `/v1/codes/${code.id}`, { key })).status).toBe(204);
    const { data } = await auditLog(`object_id=${code.id}`);
    expect(data.map((e) => e.action)).toEqual(['code.deleted', 'routing.changed', 'code.created']);
    expect(data[1].summary.changes.routing.old.rules).toEqual([]);
    expect(data[1].summary.changes.routing.new.rules).toHaveLength(1);

    const items = Array.from({ length: 3 }, (_, i) => ({ content: `https://example.com/bulk-${i}` }));
    const bulk = await app.request('POST', '/v1/codes/bulk', { key, body: { codes: items } });
    expect(bulk.status, bulk.text).toBe(201);
    const bulkEntries = (await auditLog('action=codes.bulk_created')).data;
    expect(bulkEntries).toHaveLength(1);
    expect(bulkEntries[0]).toMatchObject({
      object_type: 'batch',
      object_id: bulk.body.batch_id,
      summary: { count: 3 },
    });
    // Creating the bulk codes wrote no code.created entry per code.
    expect((await auditLog(`action=code.created&since=${encodeURIComponent(bulkEntries[0].at)}`)).data).toEqual([]);

    const made = await app.request('POST', '/v1/api-keys', { key, body: { name: 'ci', scopes: ['codes:read'] } });
    expect(made.status, made.text).toBe(201);
    const rotated = await app.request('POST', `/v1/api-keys/${made.body.id}/rotate`, { key });
    expect(rotated.status, rotated.text).toBe(201);
    expect((await app.request('DELETE', `/v1/api-keys/${made.body.id}`, { key })).status).toBe(204);
    const keyEntries = (await auditLog(`object_type=api_key&object_id=${made.body.id}`)).data;
    expect(keyEntries.map((e) => [e.action, e.actor.id])).toEqual([
      ['api_key.revoked', keyId],
      ['api_key.rotated', keyId],
      ['api_key.created', keyId],
    ]);
    expect(keyEntries[1].summary).toMatchObject({ replaced_by: rotated.body.id });
    expect(keyEntries[1].summary.changes.expires_at).toEqual({ old: null, new: rotated.body.previous.expires_at });
    expect(keyEntries[2].summary).toMatchObject({ name: 'ci', scopes: ['codes:read'] });
    // The replacement is named by the rotation's entry, not given one of its own; no secret is logged.
    expect((await auditLog(`object_id=${rotated.body.id}`)).data).toEqual([]);
    expect(JSON.stringify(keyEntries)).not.toContain(made.body.key);
    expect(JSON.stringify(keyEntries)).not.toContain(rotated.body.key);
  });

  it('a key made by the CLI is recorded with the CLI as actor', async () => {
    const res = await runCli(['keys', 'create', '--account', 'audit-cli'], { DATABASE_URL: app.testDb.url });
    expect(res.code, res.stderr).toBe(0);
    const cliKey = res.stdout.trim().split('\n').at(-1)!;
    const { data } = await auditLog('', cliKey);
    expect(data).toHaveLength(1);
    expect(data[0]).toMatchObject({
      action: 'api_key.created',
      object_type: 'api_key',
      actor: { kind: 'cli', id: 'cli', address_hash: null },
      summary: { name: 'default', scopes: [...SCOPES] },
    });
  });
});

// Each CLI run is a fresh node process (about 2 s alone, much more on a busy machine).
describe('imports', { timeout: 120_000 }, () => {
  it('the CLI importing: one entry with the count, the CLI as actor; a dry run records nothing', async () => {
    const owner = await app.newAccountKey('audit-import');
    const yourls = fileURLToPath(new URL('../fixtures/imports/yourls.csv', import.meta.url));
    const args = ['import', '--account', 'audit-import', '--format', 'yourls_csv', '--file', yourls];
    const env = { DATABASE_URL: app.testDb.url };
    // Two of the fixture's rows cannot be imported: exit 1, the other two are created.
    expect((await runCli([...args, '--dry-run'], env)).code).toBe(1);
    expect((await auditLog('action=codes.imported', owner)).data).toEqual([]);
    expect((await runCli(args, env)).code).toBe(1);
    const { data } = await auditLog('action=codes.imported', owner);
    expect(data).toHaveLength(1);
    expect(data[0]).toMatchObject({ object_type: 'batch', actor: { kind: 'cli', id: 'cli' }, summary: { count: 2 } });
  });
});

describe('tags, domains, webhooks, OAuth clients and grants', { timeout: 120_000 }, () => {
  it('records tag, domain and webhook changes, never a secret; the operator verifying a domain as cli', async () => {
    const owner = await app.newAccountKey('audit-more');
    const actions = async (objectId: string) =>
      (await auditLog(`object_id=${objectId}`, owner)).data.map((e) => [e.action, e.summary]);

    const tag = (await app.request('POST', '/v1/tags', { key: owner, body: { name: 'print' } })).body;
    await app.request('PATCH', `/v1/tags/${tag.id}`, { key: owner, body: { name: 'Poster', color: '#000000' } });
    expect((await app.request('DELETE', `/v1/tags/${tag.id}`, { key: owner })).status).toBe(204);
    expect(await actions(tag.id)).toEqual([
      ['tag.deleted', { name: 'Poster', codes: 0 }],
      ['tag.updated', { changes: { name: { old: 'print', new: 'Poster' }, color: { old: null, new: '#000000' } } }],
      ['tag.created', { name: 'print', color: null }],
    ]);

    const domain = (await app.request('POST', '/v1/domains', { key: owner, body: { hostname: 'go.example.com' } }))
      .body;
    await app.request('PATCH', `/v1/domains/${domain.id}`, {
      key: owner,
      body: { fallback_url: 'https://example.com' },
    });
    // No DNS in tests: verifying through the API fails (422) and records nothing; the operator's CLI verifies.
    expect((await app.request('POST', `/v1/domains/${domain.id}/verify`, { key: owner })).status).toBe(422);
    const cli = await runCli(['domains', 'verify', 'go.example.com'], { DATABASE_URL: app.testDb.url });
    expect(cli.code, cli.stderr).toBe(0);
    const domainEntries = (await auditLog(`object_id=${domain.id}`, owner)).data;
    expect(domainEntries.map((e) => [e.action, e.actor.kind])).toEqual([
      ['domain.verified', 'cli'],
      ['domain.updated', 'api_key'],
      ['domain.added', 'api_key'],
    ]);
    expect(domainEntries[1].summary.changes).toEqual({ fallback_url: { old: null, new: 'https://example.com' } });

    const hook = await app.request('POST', '/v1/webhooks', {
      key: owner,
      body: { url: 'http://127.0.0.1:9/hook', events: ['code.created'] },
    });
    expect(hook.status, hook.text).toBe(201);
    const id = hook.body.id;
    await app.request('PATCH', `/v1/webhooks/${id}`, {
      key: owner,
      body: { events: ['code.updated'], enabled: false },
    });
    const rotated = await app.request('POST', `/v1/webhooks/${id}/rotate-secret`, { key: owner });
    expect(rotated.status, rotated.text).toBe(200);
    expect((await app.request('DELETE', `/v1/webhooks/${id}`, { key: owner })).status).toBe(204);
    const hookEntries = (await auditLog(`object_type=webhook&object_id=${id}`, owner)).data;
    expect(hookEntries.map((e) => e.action)).toEqual([
      'webhook.deleted',
      'webhook.secret_rotated',
      'webhook.updated',
      'webhook.created',
    ]);
    expect(hookEntries[2].summary.changes).toEqual({
      events: { old: ['code.created'], new: ['code.updated'] },
      enabled: { old: true, new: false },
    });
    const logged = JSON.stringify(hookEntries);
    expect(logged).not.toContain(hook.body.secret);
    expect(logged).not.toContain(rotated.body.secret);
  });

  it('an OAuth client acting is recorded as oauth_client; registering, deleting, a grant withdrawn too', async () => {
    const owner = await app.newAccountKey('audit-oauth');
    const redirectUri = 'http://127.0.0.1:9/callback';
    const registered = await app.request('POST', '/v1/oauth-clients', {
      key: owner,
      body: {
        name: 'Reports',
        scopes: ['codes:write'],
        grant_types: ['authorization_code'],
        redirect_uris: [redirectUri],
      },
    });
    expect(registered.status, registered.text).toBe(201);
    const client = registered.body;
    const { verifier, challenge } = pkce();
    const { jar, consentUrl } = await authorize(app.url, {
      clientId: client.client_id,
      scope: 'codes:write',
      challenge,
      redirectUri,
    });
    const { final } = await consent(app.url, jar, consentUrl, [
      ['api_key', owner],
      ['scope', 'codes:write'],
      ['decision', 'approve'],
    ]);
    const tokens = await postForm(
      `${app.url}/oauth/token`,
      {
        grant_type: 'authorization_code',
        code: final!.searchParams.get('code')!,
        redirect_uri: redirectUri,
        code_verifier: verifier,
      },
      { authorization: basic(client.client_id, client.client_secret) },
    );
    expect(tokens.status, tokens.text).toBe(200);
    const code = await createCode(tokens.body.access_token);
    const [created] = (await auditLog(`object_id=${code.id}`, owner)).data;
    expect(created.actor).toMatchObject({ kind: 'oauth_client', id: client.client_id });

    const [grant] = (await app.request('GET', '/v1/oauth-grants', { key: owner })).body.data;
    expect((await app.request('DELETE', `/v1/oauth-grants/${grant.id}`, { key: owner })).status).toBe(204);
    expect((await app.request('DELETE', `/v1/oauth-clients/${client.client_id}`, { key: owner })).status).toBe(204);
    const entries = (await auditLog('limit=200', owner)).data.filter((e) => e.object_type !== 'code');
    expect(entries.map((e) => [e.action, e.object_id])).toEqual([
      ['oauth_client.deleted', client.client_id],
      ['oauth_grant.revoked', grant.id],
      ['oauth_client.registered', client.client_id],
      ['api_key.created', expect.stringMatching(/^key_/)],
    ]);
    expect(entries[1].summary).toMatchObject({ client_id: client.client_id, scopes: ['codes:write'] });
    expect(JSON.stringify(entries)).not.toContain(client.client_secret);
  });
});

describe('nothing unrecorded, nothing recorded that did not happen', () => {
  it('a refused change (422) records nothing', async () => {
    const code = await createCode();
    const refused = await app.request('PATCH', `/v1/codes/${code.id}`, { key, body: { destination: 'not a url' } });
    expect(refused.status).toBe(422);
    expect((await auditLog(`object_id=${code.id}`)).data.map((e) => e.action)).toEqual(['code.created']);
  });

  it('a change rolled back inside its transaction records nothing', async () => {
    const code = await createCode(key, 'https://example.com/kept');
    // The destination is written, then the third tag breaks TAGS_PER_ACCOUNT=2: all rolls back.
    const failed = await app.request('PATCH', `/v1/codes/${code.id}`, {
      key,
      body: { destination: 'https://example.com/lost', tags: ['a', 'b', 'c'] },
    });
    expect(failed.status, failed.text).toBeGreaterThanOrEqual(400);
    expect((await app.request('GET', `/v1/codes/${code.id}`, { key })).body.content).toBe('https://example.com/kept');
    expect((await auditLog(`object_id=${code.id}`)).data.map((e) => e.action)).toEqual(['code.created']);
  });

  it('an entry written in a transaction that then fails is gone with it', async () => {
    const code = await createCode();
    const accountId = (await app.testDb.db('codes').where({ id: code.id }).first()).account_id;
    await expect(
      inTransaction(app.testDb.db, async (trx) => {
        const change = { action: 'code.updated', objectType: 'code', objectId: code.id, summary: {} } as const;
        await app.services.audit.record({ accountId, keyId }, change, trx);
        throw new Error('the change failed after it was recorded');
      }),
    ).rejects.toThrow('failed after');
    expect((await auditLog(`object_id=${code.id}`)).data.map((e) => e.action)).toEqual(['code.created']);
  });
});

describe('reading', () => {
  it('filters by action, object, actor and time, and pages with cursors newest first', async () => {
    const other = await app.newAccountKey('audit-pages');
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) ids.push((await createCode(other)).id);
    const pages: string[][] = [];
    let cursor: string | null = null;
    do {
      const page = await auditLog(`action=code.created&limit=2${cursor ? `&cursor=${cursor}` : ''}`, other);
      pages.push(page.data.map((e) => e.object_id));
      cursor = page.next_cursor;
    } while (cursor);
    expect(pages.map((p) => p.length)).toEqual([2, 2, 1]);
    expect(pages.flat()).toEqual([...ids].reverse());

    const all = (await auditLog('limit=200', other)).data;
    // The key's own creation (in process, as the CLI does it) and five codes.
    expect(all.map((e) => e.action)).toEqual([...ids.map(() => 'code.created'), 'api_key.created']);
    expect((await auditLog('actor_kind=cli', other)).data.map((e) => e.action)).toEqual(['api_key.created']);
    const byKey = (await auditLog(`actor_id=${all[0].actor.id}`, other)).data;
    expect(byKey).toHaveLength(5);
    const third = all[2];
    const since = (await auditLog(`since=${encodeURIComponent(third.at)}&action=code.created`, other)).data;
    expect(since.map((e) => e.object_id)).toEqual(expect.arrayContaining([ids[4], ids[3], ids[2]]));
    const until = (await auditLog(`until=${encodeURIComponent(third.at)}&action=code.created`, other)).data;
    expect(until.map((e) => e.object_id)).not.toContain(ids[2]);
    expect(until.every((e) => Date.parse(e.at) < Date.parse(third.at))).toBe(true);
  });

  it('refuses bad filters and cursors with 422 naming the field', async () => {
    for (const [query, path] of [
      ['action=code.exploded', 'action'],
      ['since=yesterday', 'since'],
      ['since=2026-02-01T00:00:00Z&until=2026-01-01T00:00:00Z', 'until'],
      ['limit=0', 'limit'],
      ['cursor=bm9wZQ', 'cursor'],
      ['colour=red', 'colour'],
    ]) {
      const res = await app.request('GET', `/v1/audit-log?${query}`, { key });
      expect(res.status, query).toBe(422);
      expect(res.headers.get('content-type')).toContain('application/problem+json');
      expect(
        res.body.errors.map((e: { path: string }) => e.path),
        query,
      ).toContain(path);
    }
  });

  it('exports every matching entry as CSV', async () => {
    const code = await createCode(key, 'https://example.com/csv');
    await app.request('PATCH', `/v1/codes/${code.id}`, { key, body: { name: '=HYPERLINK("x")' } });
    const res = await app.request('GET', `/v1/audit-log?format=csv&object_id=${code.id}`, { key });
    expect(res.status, res.text).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    expect(res.headers.get('content-disposition')).toContain('audit-log.csv');
    const lines = res.text.trim().split('\n');
    expect(lines[0]).toBe('id,at,actor_kind,actor_id,address_hash,action,object_type,object_id,summary');
    expect(lines).toHaveLength(3);
    expect(lines[1]).toContain(`,api_key,${keyId},`);
    expect(lines[1]).toContain(',code.updated,code,');
    expect(lines[2]).toContain('https://example.com/csv');
    const json = (await auditLog(`object_id=${code.id}`)).data;
    expect(lines.slice(1).map((l) => l.split(',')[0])).toEqual(json.map((e) => e.id));
  });

  it('GraphQL: the same entries as a connection, with filters', async () => {
    const code = await createCode(key, 'https://example.com/gql-before');
    await app.request('PATCH', `/v1/codes/${code.id}`, { key, body: { destination: 'https://example.com/gql-after' } });
    const query = `query($id: String) { auditLog(first: 1, filter: { objectId: $id, actorKind: api_key }) {
      edges { cursor node { action objectType objectId actor { kind id addressHash } summary } }
      pageInfo { hasNextPage endCursor } } }`;
    const first = await app.graphql(key, query, { id: code.id });
    expect(first.body.errors, first.text).toBeUndefined();
    const log = first.body.data.auditLog;
    expect(log.edges[0].node).toMatchObject({
      action: 'code.updated',
      objectType: 'code',
      objectId: code.id,
      actor: { kind: 'api_key', id: keyId },
      summary: {
        changes: { destination: { old: 'https://example.com/gql-before', new: 'https://example.com/gql-after' } },
      },
    });
    expect(log.pageInfo.hasNextPage).toBe(true);
    const next = await app.graphql(
      key,
      `query($id: String, $after: String) { auditLog(first: 5, after: $after, filter: { objectId: $id }) {
        edges { node { action } } pageInfo { hasNextPage } } }`,
      { id: code.id, after: log.pageInfo.endCursor },
    );
    expect(next.body.data.auditLog.edges.map((e: any) => e.node.action)).toEqual(['code.created']);
    expect(next.body.data.auditLog.pageInfo.hasNextPage).toBe(false);
  });
});

describe('who may read it', () => {
  it('another account never sees these entries (REST, CSV, GraphQL)', async () => {
    const code = await createCode();
    const other = await app.newAccountKey('audit-b');
    const own = (await auditLog('limit=200', other)).data;
    expect(own.map((e) => e.action)).toEqual(['api_key.created']);
    expect((await auditLog(`object_id=${code.id}`, other)).data).toEqual([]);
    expect((await auditLog(`actor_id=${keyId}`, other)).data).toEqual([]);
    const csv = await app.request('GET', `/v1/audit-log?format=csv&object_id=${code.id}`, { key: other });
    expect(csv.text.trim().split('\n')).toHaveLength(1);
    const gql = await app.graphql(other, `{ auditLog(first: 50) { edges { node { objectId actor { id } } } } }`);
    expect(gql.body.errors, gql.text).toBeUndefined();
    const seen = gql.body.data.auditLog.edges.map((e: any) => e.node);
    expect(seen).toHaveLength(1);
    expect(seen.some((n: any) => n.objectId === code.id || n.actor.id === keyId)).toBe(false);
  });

  it('needs audit:read: 403 over REST, a forbidden error over GraphQL', async () => {
    const narrow = await app.newAccountKey('audit-narrow', { scopes: SCOPES.filter((s) => s !== 'audit:read') });
    const res = await app.request('GET', '/v1/audit-log', { key: narrow });
    expect(res.status).toBe(403);
    expect(res.body.detail).toContain('audit:read');
    const gql = await app.graphql(narrow, '{ auditLog(first: 1) { edges { cursor } } }');
    expect(gql.body.errors[0].extensions.code).toBe('FORBIDDEN');
  });
});

describe('retention (AUDIT_RETENTION_DAYS, 365 by default)', () => {
  it('deletes entries older than the retention and keeps the rest', async () => {
    const retained = await app.newAccountKey('audit-retention');
    offset = -366 * DAY_MS;
    const old = await createCode(retained);
    offset = -364 * DAY_MS;
    const kept = await createCode(retained);
    offset = 0;
    const before = (await auditLog('action=code.created', retained)).data.map((e) => e.object_id);
    expect(before).toEqual([kept.id, old.id]);
    expect(await app.services.auditPurge.runOnce()).toBeGreaterThanOrEqual(1);
    const after = (await auditLog('action=code.created', retained)).data.map((e) => e.object_id);
    expect(after).toEqual([kept.id]);
    // Today's entries of every account are untouched.
    expect((await auditLog(`actor_id=${keyId}`)).data.length).toBeGreaterThan(0);
  });
});
