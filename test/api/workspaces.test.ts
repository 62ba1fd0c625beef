// Workspaces and roles over a session cookie: a role's scopes (a viewer's write is a 403 naming
// the scope), the Qr-Workspace header (another workspace is a 404), member management by role
// (admins never touch owners, the last owner stays), a role change or removal applying on the
// next request, audit entries with the user as actor, pages of members, and keys kept out.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getTestApp, type TestApp } from '../support/app.ts';
import { newUser, type TestUser } from '../support/users.ts';

let app: TestApp;
let owner: TestUser;

beforeAll(async () => {
  app = await getTestApp();
  owner = await newUser(app);
});
afterAll(() => app.close());

const member = (role: 'owner' | 'admin' | 'editor' | 'viewer', accountId = owner.workspaceId) =>
  newUser(app, { accountId, role });
const setRole = (by: TestUser, target: TestUser, role: string, accountId = owner.workspaceId) =>
  by.request('PATCH', `/v1/workspaces/${accountId}/members/${target.id}`, { body: { role } });

describe('roles at work', { timeout: 60_000 }, () => {
  it('a viewer reads codes and is refused a write with a 403 naming the scope', async () => {
    const code = await owner.request('POST', '/v1/codes', { body: { content: 'https://example.com/v' } });
    expect(code.status, code.text).toBe(201);
    const viewer = await member('viewer');
    expect((await viewer.request('GET', `/v1/codes/${code.body.id}`)).status).toBe(200);
    const write = await viewer.request('POST', '/v1/codes', { body: { content: 'https://example.com/x' } });
    expect(write.status).toBe(403);
    expect(write.body.detail).toContain("'codes:write'");
    expect((await viewer.request('GET', '/v1/api-keys')).status).toBe(403);
  });

  it('a member of workspace A cannot see workspace B’s codes, by id or by header', async () => {
    const keyB = await app.newAccountKey('workspace-b');
    const codeB = await app.request('POST', '/v1/codes', { key: keyB, body: { content: 'https://example.com/b' } });
    const accountB = (await app.services.accounts.findAccount('workspace-b'))!.id;
    expect((await owner.request('GET', `/v1/codes/${codeB.body.id}`)).status).toBe(404);
    // Naming a workspace one is no member of is a 404 like one that does not exist.
    const named = await owner.request('GET', '/v1/codes', { workspace: accountB });
    expect(named.status).toBe(404);
    const missing = await owner.request('GET', '/v1/codes', { workspace: 'acct_00000000000000000000' });
    expect(missing.status).toBe(404);
    expect(missing.body.detail).toBe(named.body.detail.replace(accountB, 'acct_00000000000000000000'));
    expect((await owner.request('GET', `/v1/workspaces/${accountB}`)).status).toBe(404);
    expect((await owner.request('GET', `/v1/workspaces/${accountB}/members`)).status).toBe(404);
  });

  it('acts in the workspace Qr-Workspace names, else in the latest used', async () => {
    const person = await newUser(app);
    const created = await person.request('POST', '/v1/workspaces', { body: { name: 'Second' } });
    expect(created.status, created.text).toBe(201);
    expect(created.body).toMatchObject({ object: 'workspace', name: 'Second', role: 'owner' });
    const second = created.body.id as string;
    const code = await person.request('POST', '/v1/codes', {
      body: { content: 'https://example.com/second' },
      workspace: second,
    });
    expect(code.status, code.text).toBe(201);
    const inFirst = await person.request('GET', '/v1/codes', { workspace: person.workspaceId });
    expect(inFirst.body.data).toHaveLength(0);
    const inSecond = await person.request('GET', '/v1/codes', { workspace: second });
    expect(inSecond.body.data.map((c: { id: string }) => c.id)).toEqual([code.body.id]);
    const list = await person.request('GET', '/v1/workspaces?limit=1');
    expect(list.body.data).toHaveLength(1);
    const next = await person.request('GET', `/v1/workspaces?limit=1&cursor=${list.body.next_cursor}`);
    expect([list.body.data[0].id, next.body.data[0].id].sort()).toEqual([person.workspaceId, second].sort());
    expect(next.body.next_cursor).toBeNull();
    expect((await person.request('GET', '/v1/workspaces?cursor=nonsense')).status).toBe(422);
  });
});

describe('member management', { timeout: 60_000 }, () => {
  it('the last owner can neither leave nor be demoted (409); with a second owner both work', async () => {
    const person = await newUser(app);
    const ws = person.workspaceId;
    const leave = await person.request('DELETE', `/v1/workspaces/${ws}/members/${person.id}`);
    expect(leave.status).toBe(409);
    expect(leave.body.detail).toContain('at least one owner');
    const demote = await setRole(person, person, 'admin', ws);
    expect(demote.status).toBe(409);
    const second = await newUser(app, { accountId: ws, role: 'owner' });
    expect((await setRole(person, person, 'admin', ws)).status).toBe(200);
    expect((await second.request('DELETE', `/v1/workspaces/${ws}/members/${person.id}`)).status).toBe(204);
    expect((await person.request('GET', `/v1/workspaces/${ws}`)).status).toBe(404);
  });

  it('an admin cannot change or remove an owner, nor make one; changes those below', async () => {
    const admin = await member('admin');
    const editor = await member('editor');
    const ws = owner.workspaceId;
    const onOwner = await setRole(admin, owner, 'viewer');
    expect(onOwner.status).toBe(403);
    expect(onOwner.body.detail).toContain('admin cannot');
    expect((await admin.request('DELETE', `/v1/workspaces/${ws}/members/${owner.id}`)).status).toBe(403);
    expect((await setRole(admin, editor, 'owner')).status).toBe(403);
    const changed = await setRole(admin, editor, 'viewer');
    expect(changed.status, changed.text).toBe(200);
    expect(changed.body).toMatchObject({ object: 'member', role: 'viewer', user: { id: editor.id } });
    // An editor manages nobody.
    expect((await setRole(editor, admin, 'viewer')).status).toBe(403);
    expect((await setRole(owner, owner, 'nonsense')).status).toBe(422);
    expect((await setRole(owner, { id: 'user_00000000000000000000' } as TestUser, 'viewer')).status).toBe(404);
  });

  it('a role change and a removal apply on the next request', async () => {
    const editor = await member('editor');
    const write = () => editor.request('POST', '/v1/codes', { body: { content: 'https://example.com/e' } });
    expect((await write()).status).toBe(201);
    expect((await setRole(owner, editor, 'viewer')).status).toBe(200);
    expect((await write()).status).toBe(403);
    expect((await owner.request('DELETE', `/v1/workspaces/${owner.workspaceId}/members/${editor.id}`)).status).toBe(
      204,
    );
    expect((await editor.request('GET', '/v1/codes', { workspace: owner.workspaceId })).status).toBe(404);
    // Without the header: the user is a member of nothing now.
    expect((await editor.request('GET', '/v1/codes')).status).toBe(403);
  });

  it('records role changes and removals with the user as actor, old and new role', async () => {
    const viewer = await member('viewer');
    await setRole(owner, viewer, 'editor');
    await owner.request('DELETE', `/v1/workspaces/${owner.workspaceId}/members/${viewer.id}`);
    const log = await owner.request('GET', `/v1/audit-log?object_id=${viewer.id}`);
    expect(log.status, log.text).toBe(200);
    expect(log.body.data.map((e: { action: string }) => e.action)).toEqual([
      'member.removed',
      'member.role_changed',
      'member.added',
    ]);
    expect(log.body.data[1]).toMatchObject({
      object_type: 'member',
      actor: { kind: 'user', id: owner.id },
      summary: { changes: { role: { old: 'viewer', new: 'editor' } } },
    });
    expect(log.body.data[0].summary).toMatchObject({ role: 'editor' });
  });

  it('removing a member revokes the API keys they made there, unless kept; keys say who made them', async () => {
    const ws = owner.workspaceId;
    const leaving = await newUser(app, { accountId: ws, role: 'admin' });
    const staying = await newUser(app, { accountId: ws, role: 'admin' });
    const keyOf = async (user: TestUser, scopes = ['codes:read']) => {
      const made = await user.request('POST', '/v1/api-keys', {
        workspace: ws,
        body: { name: 'integration', scopes },
      });
      expect(made.status, made.text).toBe(201);
      expect(made.body.created_by).toBe(user.id);
      return made.body as { id: string; key: string };
    };
    const revokedKey = await keyOf(leaving, ['codes:read', 'keys:manage']);
    // A key made with the member's key is the member's too: it goes with them.
    const madeByKey = await app.request('POST', '/v1/api-keys', {
      key: revokedKey.key,
      body: { name: 'made by a key', scopes: ['codes:read'] },
    });
    expect(madeByKey.status, madeByKey.text).toBe(201);
    expect(madeByKey.body.created_by).toBe(revokedKey.id);
    const keptKey = await keyOf(staying);
    const ownerKey = await owner.request('POST', '/v1/api-keys', { body: { name: 'own', scopes: ['codes:read'] } });
    const works = async (key: string) => (await app.request('GET', '/v1/codes', { key })).status;
    expect(await works(revokedKey.key)).toBe(200);

    expect((await owner.request('DELETE', `/v1/workspaces/${ws}/members/${leaving.id}`)).status).toBe(204);
    expect(await works(revokedKey.key)).toBe(401);
    expect(await works(madeByKey.body.key)).toBe(401);
    const keep = await owner.request('DELETE', `/v1/workspaces/${ws}/members/${staying.id}?keep_keys=true`);
    expect(keep.status).toBe(204);
    expect(await works(keptKey.key)).toBe(200);
    expect(await works(ownerKey.body.key)).toBe(200);
    expect((await owner.request('DELETE', `/v1/workspaces/${ws}/members/${staying.id}?keep_keys=maybe`)).status).toBe(
      422,
    );

    const audit = await owner.request('GET', '/v1/audit-log?object_type=member&limit=10');
    const removals = audit.body.data.filter((e: { action: string }) => e.action === 'member.removed');
    expect(removals.slice(0, 2).map((e: { summary: unknown }) => e.summary)).toEqual([
      expect.objectContaining({ user_id: staying.id, kept_keys: true, revoked_keys: 0 }),
      expect.objectContaining({ user_id: leaving.id, kept_keys: false, revoked_keys: 2 }),
    ]);
  });

  it('lists members in pages, renames for owners only, and keeps keys out', async () => {
    const ws = owner.workspaceId;
    const first = await owner.request('GET', `/v1/workspaces/${ws}/members?limit=2`);
    expect(first.status).toBe(200);
    expect(first.body.data).toHaveLength(2);
    const rest = await owner.request('GET', `/v1/workspaces/${ws}/members?limit=200&cursor=${first.body.next_cursor}`);
    const ids = [...first.body.data, ...rest.body.data].map((m: { user: { id: string } }) => m.user.id);
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids).toContain(owner.id);
    const admin = await member('admin');
    expect((await admin.request('PATCH', `/v1/workspaces/${ws}`, { body: { name: 'Nope' } })).status).toBe(403);
    const renamed = await owner.request('PATCH', `/v1/workspaces/${ws}`, { body: { name: 'Renamed' } });
    expect(renamed.body).toMatchObject({ id: ws, name: 'Renamed', role: 'owner' });
    const key = await app.newAccountKey();
    expect((await app.request('GET', `/v1/workspaces/${ws}/members`, { key })).status).toBe(403);
    const byKey = await app.request('PATCH', `/v1/workspaces/${ws}/members/${admin.id}`, {
      key,
      body: { role: 'viewer' },
    });
    expect(byKey.status).toBe(403);
  });
});

describe('GraphQL', { timeout: 60_000 }, () => {
  const gql = (user: TestUser, query: string, variables?: Record<string, unknown>) =>
    user.request('POST', '/graphql', { body: { query, variables } });

  it('me: the user and their workspaces with the role; null for a key', async () => {
    const res = await gql(owner, '{ me { user { id email } workspaces { id role } } }');
    expect(res.body.errors, res.text).toBeUndefined();
    expect(res.body.data.me.user).toEqual({ id: owner.id, email: owner.email });
    expect(res.body.data.me.workspaces).toContainEqual({ id: owner.workspaceId, role: 'owner' });
    const key = await app.newAccountKey();
    expect((await app.graphql(key, '{ me { user { id } } }')).body.data).toEqual({ me: null });
  });

  it('changeMemberRole and removeMember follow the role rules; keys are refused', async () => {
    const viewer = await member('viewer');
    const change = `mutation($w: ID!, $u: ID!, $r: Role!) {
      changeMemberRole(workspaceId: $w, userId: $u, role: $r) { role user { id } } }`;
    const vars = { w: owner.workspaceId, u: viewer.id, r: 'editor' };
    const byViewer = await gql(viewer, change, { ...vars, u: owner.id, r: 'viewer' });
    expect(byViewer.body.errors?.[0]?.extensions).toMatchObject({ code: 'FORBIDDEN' });
    const changed = await gql(owner, change, vars);
    expect(changed.body.data.changeMemberRole, changed.text).toEqual({ role: 'editor', user: { id: viewer.id } });
    const key = await app.newAccountKey();
    const byKey = await app.graphql(key, change, vars);
    expect(byKey.body.errors?.[0]?.message).toContain('signed-in people');
    const remove = 'mutation($w: ID!, $u: ID!) { removeMember(workspaceId: $w, userId: $u) }';
    const lastOwner = await gql(owner, remove, { w: owner.workspaceId, u: owner.id });
    expect(lastOwner.body.errors?.[0]?.extensions).toMatchObject({ code: 'CONFLICT' });
    const removed = await gql(owner, remove, { w: owner.workspaceId, u: viewer.id });
    expect(removed.body.data, removed.text).toEqual({ removeMember: viewer.id });
  });
});
