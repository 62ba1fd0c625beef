// Every REST route and every GraphQL root field needs one scope, or is a signed-in person's
// (`session`: their sessions, workspaces and members, never a key's) or needs no credential
// (`public`: sign-in, setup). The REST routes are read off the router itself, so a route added
// without a scope (or missing from the table) fails here.
// Each route is called with a key holding every scope but its own (403 naming the scope) and
// with a key holding only its own (anything but 401/403: 404 and 422 are fine).
import { isObjectType, type GraphQLObjectType } from 'graphql';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { schema } from '../../src/api/graphql-schema.ts';
import { isScope, SCOPES, type Scope } from '../../src/shared/principal.ts';
import { apiRoutes } from '../support/routes.ts';
import { getTestApp, type TestApp } from '../support/app.ts';
import { createCode } from '../support/factories.ts';

type Access = Scope | 'session' | 'public';

const REST: Record<string, Access> = {
  'POST /v1/codes/bulk': 'codes:write',
  'POST /v1/imports': 'codes:write',
  'POST /v1/codes': 'codes:write',
  'GET /v1/codes': 'codes:read',
  'GET /v1/codes/:id': 'codes:read',
  'PATCH /v1/codes/:id': 'codes:write',
  'DELETE /v1/codes/:id': 'codes:write',
  'GET /v1/codes/:id/routing': 'codes:read',
  'PUT /v1/codes/:id/routing': 'codes:write',
  'POST /v1/codes/:id/routing/rules': 'codes:write',
  'DELETE /v1/codes/:id/routing/rules/:ruleId': 'codes:write',
  'POST /v1/codes/:id/routing/resolve': 'codes:read',
  'POST /v1/tags': 'codes:write',
  'GET /v1/tags': 'codes:read',
  'GET /v1/tags/:id': 'codes:read',
  'PATCH /v1/tags/:id': 'codes:write',
  'DELETE /v1/tags/:id': 'codes:write',
  'GET /v1/codes/:id/image': 'codes:read',
  'GET /v1/batches/:batch_id/images.zip': 'codes:read',
  'GET /v1/codes/:id/scans': 'analytics:read',
  'GET /v1/codes/:id/scans/raw': 'analytics:read',
  'GET /v1/analytics/overview': 'analytics:read',
  'GET /v1/codes/:id/scans/weekday-hours': 'analytics:read',
  'GET /v1/analytics/weekday-hours': 'analytics:read',
  'POST /v1/domains': 'codes:write',
  'GET /v1/domains': 'codes:read',
  'GET /v1/domains/:id': 'codes:read',
  'PATCH /v1/domains/:id': 'codes:write',
  'DELETE /v1/domains/:id': 'codes:write',
  'POST /v1/domains/:id/verify': 'codes:write',
  'POST /v1/utm-templates': 'codes:write',
  'GET /v1/utm-templates': 'codes:read',
  'GET /v1/utm-templates/:id': 'codes:read',
  'PATCH /v1/utm-templates/:id': 'codes:write',
  'DELETE /v1/utm-templates/:id': 'codes:write',
  'POST /v1/images': 'codes:write',
  'GET /v1/images': 'codes:read',
  'GET /v1/images/:id': 'codes:read',
  'GET /v1/images/:id/content': 'codes:read',
  'DELETE /v1/images/:id': 'codes:write',
  'POST /v1/webhooks': 'webhooks:write',
  'GET /v1/webhooks': 'webhooks:read',
  'GET /v1/webhooks/:id': 'webhooks:read',
  'PATCH /v1/webhooks/:id': 'webhooks:write',
  'DELETE /v1/webhooks/:id': 'webhooks:write',
  'POST /v1/webhooks/:id/rotate-secret': 'webhooks:write',
  'POST /v1/webhooks/:id/test': 'webhooks:write',
  'GET /v1/webhooks/:id/deliveries': 'webhooks:read',
  'GET /v1/webhooks/:id/deliveries/:deliveryId': 'webhooks:read',
  'POST /v1/webhooks/:id/deliveries/:deliveryId/retry': 'webhooks:write',
  'POST /v1/api-keys': 'keys:manage',
  'GET /v1/api-keys': 'keys:manage',
  'GET /v1/api-keys/:id': 'keys:manage',
  'POST /v1/api-keys/:id/rotate': 'keys:manage',
  'DELETE /v1/api-keys/:id': 'keys:manage',
  'POST /v1/oauth-clients': 'keys:manage',
  'GET /v1/oauth-clients': 'keys:manage',
  'GET /v1/oauth-clients/:id': 'keys:manage',
  'DELETE /v1/oauth-clients/:id': 'keys:manage',
  'GET /v1/oauth-grants': 'keys:manage',
  'GET /v1/oauth-grants/:id': 'keys:manage',
  'DELETE /v1/oauth-grants/:id': 'keys:manage',
  'GET /v1/audit-log': 'audit:read',
  'POST /v1/sessions': 'public',
  'GET /v1/session': 'session',
  'DELETE /v1/session': 'session',
  'GET /v1/sessions': 'session',
  'DELETE /v1/sessions/:id': 'session',
  'GET /v1/users/me': 'session',
  'PATCH /v1/users/me': 'session',
  'POST /v1/users/me/password': 'session',
  'POST /v1/users/me/email-verification': 'session',
  'GET /v1/users/me/second-factor': 'session',
  'POST /v1/users/me/second-factor': 'session',
  'POST /v1/users/me/second-factor/confirm': 'session',
  'POST /v1/users/me/second-factor/disable': 'session',
  'POST /v1/users/me/second-factor/recovery-codes': 'session',
  'POST /v1/sessions/second-factor': 'public',
  'GET /v1/users/me/passkeys': 'session',
  'POST /v1/users/me/passkeys/options': 'session',
  'POST /v1/users/me/passkeys': 'session',
  'PATCH /v1/users/me/passkeys/:id': 'session',
  'POST /v1/users/me/passkeys/:id/delete': 'session',
  'POST /v1/sessions/passkey/options': 'public',
  'POST /v1/sessions/passkey': 'public',
  'POST /v1/setup': 'public',
  'GET /v1/workspaces': 'session',
  'POST /v1/workspaces': 'session',
  'GET /v1/workspaces/:id': 'session',
  'PATCH /v1/workspaces/:id': 'session',
  'GET /v1/workspaces/:id/members': 'session',
  'PATCH /v1/workspaces/:id/members/:user_id': 'session',
  'DELETE /v1/workspaces/:id/members/:user_id': 'session',
  'POST /v1/workspaces/:id/invitations': 'session',
  'GET /v1/workspaces/:id/invitations': 'session',
  'DELETE /v1/workspaces/:id/invitations/:invitation_id': 'session',
  'POST /v1/invitations/preview': 'public',
  'POST /v1/invitations/accept': 'session',
  'POST /v1/invitations/register': 'public',
  'GET /v1/workspaces/:id/sso': 'session',
  'PUT /v1/workspaces/:id/sso': 'session',
  'DELETE /v1/workspaces/:id/sso': 'session',
  'GET /v1/sso/start': 'public',
  'GET /v1/sso/callback': 'public',
  'POST /v1/password-resets': 'public',
  'POST /v1/password-resets/complete': 'public',
  'POST /v1/email-verification/confirm': 'public',
};
const SCOPED = Object.entries(REST).filter((entry): entry is [string, Scope] => isScope(entry[1]));

/** Each root field with an operation that reaches its resolver (arguments may be nonsense). */
const GRAPHQL: Record<string, { scope: Scope; query: string }> = {
  'Query.code': { scope: 'codes:read', query: '{ code(id: "qr_nope") { id } }' },
  'Query.codes': { scope: 'codes:read', query: '{ codes(first: 1) { edges { cursor } } }' },
  'Query.resolveRouting': {
    scope: 'codes:read',
    query: '{ resolveRouting(codeId: "qr_nope", scan: {}) { __typename } }',
  },
  'Query.tag': { scope: 'codes:read', query: '{ tag(id: "tag_nope") { id } }' },
  'Query.tags': { scope: 'codes:read', query: '{ tags(first: 1) { edges { cursor } } }' },
  'Query.previewCode': { scope: 'codes:write', query: '{ previewCode(input: { content: "not a url" }) }' },
  'Query.analyticsOverview': { scope: 'analytics:read', query: '{ analyticsOverview { totalScans } }' },
  'Query.analyticsWeekdayHours': { scope: 'analytics:read', query: '{ analyticsWeekdayHours { totalScans } }' },
  'Query.domains': { scope: 'codes:read', query: '{ domains { id } }' },
  'Query.domain': { scope: 'codes:read', query: '{ domain(id: "dom_nope") { id } }' },
  'Mutation.addDomain': { scope: 'codes:write', query: 'mutation { addDomain(input: { hostname: "nope" }) { id } }' },
  'Mutation.verifyDomain': { scope: 'codes:write', query: 'mutation { verifyDomain(id: "dom_nope") { id } }' },
  'Mutation.updateDomain': {
    scope: 'codes:write',
    query: 'mutation { updateDomain(id: "dom_nope", input: {}) { id } }',
  },
  'Mutation.removeDomain': { scope: 'codes:write', query: 'mutation { removeDomain(id: "dom_nope") { deletedId } }' },
  'Query.utmTemplates': { scope: 'codes:read', query: '{ utmTemplates { id } }' },
  'Query.utmTemplate': { scope: 'codes:read', query: '{ utmTemplate(id: "utm_nope") { id } }' },
  'Mutation.createUtmTemplate': {
    scope: 'codes:write',
    query: 'mutation { createUtmTemplate(input: { name: "" }) { id } }',
  },
  'Mutation.updateUtmTemplate': {
    scope: 'codes:write',
    query: 'mutation { updateUtmTemplate(id: "utm_nope", input: {}) { id } }',
  },
  'Mutation.deleteUtmTemplate': {
    scope: 'codes:write',
    query: 'mutation { deleteUtmTemplate(id: "utm_nope") { deletedId } }',
  },
  'Query.images': { scope: 'codes:read', query: '{ images(first: 1) { edges { cursor } } }' },
  'Query.image': { scope: 'codes:read', query: '{ image(id: "img_nope") { id } }' },
  'Mutation.deleteImage': { scope: 'codes:write', query: 'mutation { deleteImage(id: "img_nope") { deletedId } }' },
  'Query.webhooks': { scope: 'webhooks:read', query: '{ webhooks(first: 1) { edges { cursor } } }' },
  'Query.webhook': { scope: 'webhooks:read', query: '{ webhook(id: "wh_nope") { id } }' },
  'Query.oauthGrants': { scope: 'keys:manage', query: '{ oauthGrants { id } }' },
  'Query.auditLog': { scope: 'audit:read', query: '{ auditLog(first: 1) { edges { cursor } } }' },
  'Mutation.revokeOAuthGrant': {
    scope: 'keys:manage',
    query: 'mutation { revokeOAuthGrant(id: "nope") { revokedId } }',
  },
  'Query.webhookDelivery': {
    scope: 'webhooks:read',
    query: '{ webhookDelivery(webhookId: "wh_nope", deliveryId: "dlv_nope") { id } }',
  },
  'Mutation.createCode': {
    scope: 'codes:write',
    query: 'mutation { createCode(input: { content: "not a url" }) { id } }',
  },
  'Mutation.updateCode': { scope: 'codes:write', query: 'mutation { updateCode(id: "qr_nope", input: {}) { id } }' },
  'Mutation.deleteCode': { scope: 'codes:write', query: 'mutation { deleteCode(id: "qr_nope") { deletedId } }' },
  'Mutation.createTag': { scope: 'codes:write', query: 'mutation { createTag(input: { name: "" }) { id } }' },
  'Mutation.updateTag': { scope: 'codes:write', query: 'mutation { updateTag(id: "tag_nope", input: {}) { id } }' },
  'Mutation.deleteTag': { scope: 'codes:write', query: 'mutation { deleteTag(id: "tag_nope") { deletedId } }' },
  'Mutation.bulkCreateCodes': { scope: 'codes:write', query: 'mutation { bulkCreateCodes(input: []) { created } }' },
  'Mutation.bulkCreateCodesFromCsv': {
    scope: 'codes:write',
    query: 'mutation { bulkCreateCodesFromCsv(csv: "content\\nnot a url") { created } }',
  },
  'Mutation.importCodes': {
    scope: 'codes:write',
    query: 'mutation { importCodes(input: { format: yourls_csv, content: "", dryRun: true }) { total } }',
  },
  'Mutation.replaceRouting': {
    scope: 'codes:write',
    query: 'mutation { replaceRouting(codeId: "qr_nope", rules: []) { enabled } }',
  },
  'Mutation.addRoutingRule': {
    scope: 'codes:write',
    query: 'mutation { addRoutingRule(codeId: "qr_nope", input: { type: geo, conditions: {} }) { __typename } }',
  },
  'Mutation.removeRoutingRule': {
    scope: 'codes:write',
    query: 'mutation { removeRoutingRule(codeId: "qr_nope", ruleId: "rule_nope") { deletedRuleId } }',
  },
  'Mutation.createWebhook': {
    scope: 'webhooks:write',
    query: 'mutation { createWebhook(input: { url: "nope", events: [] }) { secret } }',
  },
  'Mutation.updateWebhook': {
    scope: 'webhooks:write',
    query: 'mutation { updateWebhook(id: "wh_nope", input: {}) { id } }',
  },
  'Mutation.deleteWebhook': {
    scope: 'webhooks:write',
    query: 'mutation { deleteWebhook(id: "wh_nope") { deletedId } }',
  },
  'Mutation.rotateWebhookSecret': {
    scope: 'webhooks:write',
    query: 'mutation { rotateWebhookSecret(id: "wh_nope") { secret } }',
  },
  'Mutation.testWebhook': { scope: 'webhooks:write', query: 'mutation { testWebhook(id: "wh_nope") { id } }' },
  'Mutation.retryWebhookDelivery': {
    scope: 'webhooks:write',
    query: 'mutation { retryWebhookDelivery(webhookId: "wh_nope", deliveryId: "dlv_nope") { id } }',
  },
  'Subscription.scanCreated': { scope: 'analytics:read', query: 'subscription { scanCreated { codeId } }' },
};

let app: TestApp;
const ACCOUNT = 'scopes-table';
/** A key holding only the scope, and one holding every scope but it, of the same account. */
const only = new Map<Scope, string>();
const allBut = new Map<Scope, string>();

beforeAll(async () => {
  app = await getTestApp();
  for (const scope of SCOPES) {
    only.set(scope, (await app.services.accounts.issueKey(ACCOUNT, { scopes: [scope] })).key);
    allBut.set(
      scope,
      (await app.services.accounts.issueKey(ACCOUNT, { scopes: SCOPES.filter((s) => s !== scope) })).key,
    );
  }
});
afterAll(() => app.close());

function registeredRoutes(): Record<string, Access> {
  return Object.fromEntries(
    apiRoutes('v1', app.services).map((route) => [`${route.method} ${route.path}`, route.scope]),
  );
}

const concrete = (path: string) => path.replace(/:(\w+)/g, (_, name: string) => `${name}_nope`);

describe('REST', () => {
  it('every registered route names a scope, the one in this table', () => {
    expect(registeredRoutes()).toEqual(REST);
  });

  it.each(SCOPED)('%s: 403 without %s, not 403 with only it', async (route, scope) => {
    const [method, path] = route.split(' ') as [string, string];
    const body = ['POST', 'PUT', 'PATCH'].includes(method) ? {} : undefined;
    const denied = await app.request(method, concrete(path), { key: allBut.get(scope)!, body });
    expect(denied.status, denied.text).toBe(403);
    expect(denied.headers.get('content-type')).toContain('application/problem+json');
    expect(denied.body).toMatchObject({ type: '/problems/forbidden', status: 403 });
    expect(denied.body.detail).toContain(`'${scope}'`);
    expect(denied.headers.get('www-authenticate')).toBe(
      `Bearer realm="qr-service", error="insufficient_scope", scope="${scope}"`,
    );

    const allowed = await app.request(method, concrete(path), { key: only.get(scope)!, body });
    expect([401, 403], `${route}: ${allowed.status} ${allowed.text}`).not.toContain(allowed.status);
  });
});

describe('REST routes of people', () => {
  const routes = (access: Access) => Object.keys(REST).filter((route) => REST[route] === access);

  it.each(routes('session'))('%s: a key is refused (403), no credential is a 401', async (route) => {
    const [method, path] = route.split(' ') as [string, string];
    const body = ['POST', 'PUT', 'PATCH'].includes(method) ? {} : undefined;
    const byKey = await app.request(method, concrete(path), { key: only.get('keys:manage')!, body });
    expect(byKey.status, byKey.text).toBe(403);
    expect(byKey.body.detail).toContain('signed-in person');
    expect((await app.request(method, concrete(path), { body })).status).toBe(401);
  });

  // A browser's single sign-on: every answer, a refusal too, is a redirect to a page.
  const BROWSER_REDIRECTS = ['GET /v1/sso/start', 'GET /v1/sso/callback'];

  // A passkey sign-in's options: the email is optional (any passkey the browser has), so an empty
  // body is a valid request, answered with a challenge.
  const EMPTY_BODY_VALID = ['POST /v1/sessions/passkey/options'];

  it.each(EMPTY_BODY_VALID)('%s: answered without a credential (200 for an empty body)', async (route) => {
    const [method, path] = route.split(' ') as [string, string];
    const res = await app.request(method, path, { body: {} });
    expect(res.status, res.text).toBe(200);
    expect(res.body.options.challenge).toEqual(expect.any(String));
  });

  it.each(routes('public').filter((route) => ![...BROWSER_REDIRECTS, ...EMPTY_BODY_VALID].includes(route)))(
    '%s: answered without a credential (422 for an empty body)',
    async (route) => {
      const [method, path] = route.split(' ') as [string, string];
      expect((await app.request(method, concrete(path), { body: {} })).status).toBe(422);
    },
  );

  it.each(BROWSER_REDIRECTS)('%s: answered without a credential, by a redirect to the sign-in page', async (route) => {
    const [method, path] = route.split(' ') as [string, string];
    const res = await app.request(method, path);
    expect(res.status).toBe(302);
    expect(res.headers.get('location')).toMatch(/\/dashboard\/\?sso_error=\w+$/);
  });
});

describe('GraphQL', () => {
  const rootFields = () =>
    [schema.getQueryType(), schema.getMutationType(), schema.getSubscriptionType()].flatMap((type) =>
      Object.keys((type as GraphQLObjectType).getFields()).map((name) => `${type!.name}.${name}`),
    );

  // Fields about the caller itself, answered whatever scopes it holds; member changes and single
  // sign-on, checked by role and refused to keys and tokens (workspaces.test.ts, sso.test.ts).
  const SCOPE_FREE = [
    'Query.rateLimit',
    'Query.me',
    'Mutation.changeMemberRole',
    'Mutation.removeMember',
    'Query.workspaceSso',
    'Mutation.setWorkspaceSso',
    'Mutation.removeWorkspaceSso',
  ];

  it('every root field of the schema is in this table or scope-free', () => {
    expect(rootFields().sort()).toEqual([...Object.keys(GRAPHQL), ...SCOPE_FREE].sort());
  });

  it('Query.rateLimit answers a key holding any one scope', async () => {
    const res = await app.graphql(only.get('analytics:read')!, '{ rateLimit { cost limit remaining } }');
    expect(res.body.errors, res.text).toBeUndefined();
    expect(res.body.data.rateLimit).toMatchObject({ cost: 1, limit: expect.any(Number) });
  });

  it.each(Object.entries(GRAPHQL).filter(([field]) => !field.startsWith('Subscription.')))(
    '%s: FORBIDDEN without its scope, no data; reached with only it',
    async (_field, { scope, query }) => {
      const denied = await app.graphql(allBut.get(scope)!, query);
      expect(denied.body.errors?.[0]?.extensions, denied.text).toMatchObject({ code: 'FORBIDDEN', status: 403 });
      expect(denied.body.errors[0].message).toContain(`'${scope}'`);
      // Null where the field is nullable, no data at all where it is not.
      expect(
        Object.values(denied.body.data ?? {}).every((value) => value === null),
        denied.text,
      ).toBe(true);

      const allowed = await app.graphql(only.get(scope)!, query);
      for (const error of allowed.body.errors ?? []) expect(error.extensions?.code, allowed.text).not.toBe('FORBIDDEN');
    },
  );

  // Fields of object types that read through the context (arity 3 or more): each names the read
  // scope of what it shows, wherever the type appears (under a query or a mutation's answer).
  const OBJECT_FIELDS: Record<string, Scope> = {
    'Code.scanCount': 'analytics:read',
    'Code.uniqueScanCount': 'analytics:read',
    'Code.scans': 'analytics:read',
    'Code.scanWeekdayHours': 'analytics:read',
    'Code.svg': 'codes:read',
    'Webhook.deliveries': 'webhooks:read',
    'WebhookDelivery.eventData': 'webhooks:read',
    'WebhookDelivery.attemptHistory': 'webhooks:read',
  };
  /** Read the context for configuration only (the public base URL), not for data. */
  const CONFIG_ONLY = ['Code.payload', 'Code.scanUrl'];

  it('every object field that reads through the context names its scope, the one in this table', () => {
    const found: Record<string, Scope | undefined> = {};
    for (const type of Object.values(schema.getTypeMap())) {
      if (
        !isObjectType(type) ||
        type.name.startsWith('__') ||
        [schema.getQueryType(), schema.getMutationType(), schema.getSubscriptionType()].includes(type)
      )
        continue;
      for (const field of Object.values(type.getFields())) {
        const name = `${type.name}.${field.name}`;
        if (field.resolve && field.resolve.length >= 3 && !CONFIG_ONLY.includes(name))
          found[name] = (field.resolve as { requiredScope?: Scope }).requiredScope;
      }
    }
    expect(found).toEqual(OBJECT_FIELDS);
  });

  it('a write scope does not read deliveries through a mutation answer', async () => {
    const writer = (await app.services.accounts.issueKey('scopes-webhook-fields', { scopes: ['webhooks:write'] })).key;
    const created = await app.graphql(
      writer,
      'mutation { createWebhook(input: { url: "https://hooks.example.com/x", events: ["code.created"] }) { webhook ' +
        '{ id } } }',
    );
    const id = created.body.data.createWebhook.webhook.id;
    const answer = await app.graphql(
      writer,
      `mutation { updateWebhook(id: "${id}", input: { description: "x" }) { id deliveries { edges { node { id ` +
        `eventData attemptHistory { attempt } } } } } }`,
    );
    expect(answer.body.errors?.[0]?.extensions).toMatchObject({ code: 'FORBIDDEN', status: 403 });
    expect(answer.body.errors[0].message).toContain("'webhooks:read'");
    expect(JSON.stringify(answer.body.data ?? null)).not.toContain('edges');
    // REST answers the same read with 403.
    expect((await app.request('GET', `/v1/webhooks/${id}/deliveries`, { key: writer })).status).toBe(403);
  });

  it('Subscription.scanCreated needs analytics:read', async () => {
    const sse = (key: string) =>
      fetch(`${app.url}/graphql`, {
        method: 'POST',
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json', accept: 'text/event-stream' },
        body: JSON.stringify({ query: GRAPHQL['Subscription.scanCreated']!.query }),
      });
    const denied = await sse(allBut.get('analytics:read')!);
    const text = await denied.text();
    expect(text).toContain('FORBIDDEN');
    expect(text).toContain("'analytics:read'");

    const controller = new AbortController();
    const allowed = await fetch(`${app.url}/graphql`, {
      method: 'POST',
      signal: controller.signal,
      headers: {
        authorization: `Bearer ${only.get('analytics:read')!}`,
        'content-type': 'application/json',
        accept: 'text/event-stream',
      },
      body: JSON.stringify({ query: GRAPHQL['Subscription.scanCreated']!.query }),
    });
    expect(allowed.status).toBe(200);
    // The stream stays open (it waits for scans) instead of answering an error at once.
    const reader = allowed.body!.getReader();
    const first = await Promise.race([
      reader.read().then((r) => new TextDecoder().decode(r.value)),
      new Promise<string>((r) => setTimeout(() => r(''), 300)),
    ]);
    expect(first).not.toContain('FORBIDDEN');
    controller.abort();
  });

  it('analytics fields of a code need analytics:read too, and nothing of the query leaks without it', async () => {
    const readOnly = (await app.services.accounts.issueKey('scopes-fields', { scopes: ['codes:read', 'codes:write'] }))
      .key;
    const withAnalytics = (
      await app.services.accounts.issueKey('scopes-fields', { scopes: ['codes:read', 'analytics:read'] })
    ).key;
    await createCode(app, readOnly, { content: 'https://example.com/secret-content' });
    for (const field of ['scanCount', 'uniqueScanCount', 'scans { totalScans }']) {
      const query = `{ codes(first: 5) { edges { node { content ${field} } } } }`;
      const denied = await app.graphql(readOnly, query);
      expect(denied.body.errors?.[0]?.extensions?.code, denied.text).toBe('FORBIDDEN');
      expect(denied.text).not.toContain('secret-content');
      const allowed = await app.graphql(withAnalytics, query);
      expect(allowed.body.errors, allowed.text).toBeUndefined();
      expect(allowed.text).toContain('secret-content');
    }
  });
});
