// A key of account A never sees, changes or counts account B's codes: B's ids answer 404.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getTestApp, type TestApp } from '../support/app.ts';
import { createCode } from '../support/factories.ts';

let app: TestApp;
let keyA: string;
let keyB: string;
let codeOfB: any;

beforeAll(async () => {
  app = await getTestApp();
  keyA = await app.newAccountKey('isolation-a');
  keyB = await app.newAccountKey('isolation-b');
  await createCode(app, keyA, { content: 'https://a.example/mine' });
  codeOfB = await createCode(app, keyB, { content: 'https://b.example/secret' });
});
afterAll(() => app.close());

describe('REST', () => {
  it("A cannot get B's code", async () => {
    expect((await app.request('GET', `/v1/codes/${codeOfB.id}`, { key: keyA })).status).toBe(404);
  });

  it("A does not list or count B's codes, whatever the filter", async () => {
    for (const query of ['', '?q=secret', '?sort=updated_at', '?type=url&limit=500']) {
      const res = await app.request('GET', `/v1/codes${query}`, { key: keyA });
      expect(res.status).toBe(200);
      expect(res.body.data.map((c: { id: string }) => c.id)).not.toContain(codeOfB.id);
      expect(res.text).not.toContain('b.example');
    }
  });

  it("A cannot patch B's code, and B's code is unchanged", async () => {
    const res = await app.request('PATCH', `/v1/codes/${codeOfB.id}`, {
      key: keyA,
      body: { content: 'https://a.example/hijack' },
    });
    expect(res.status).toBe(404);
    expect((await app.request('GET', `/v1/codes/${codeOfB.id}`, { key: keyB })).body).toEqual(codeOfB);
  });

  it("A cannot delete B's code, and it still exists", async () => {
    expect((await app.request('DELETE', `/v1/codes/${codeOfB.id}`, { key: keyA })).status).toBe(404);
    expect((await app.request('GET', `/v1/codes/${codeOfB.id}`, { key: keyB })).status).toBe(200);
  });

  it('B sees exactly its own code', async () => {
    const res = await app.request('GET', '/v1/codes', { key: keyB });
    expect(res.body.data.map((c: { id: string }) => c.id)).toEqual([codeOfB.id]);
  });
});

describe('GraphQL', () => {
  it("A gets null for B's code and does not list it", async () => {
    const res = await app.graphql(
      keyA,
      'query($id: ID!) { code(id: $id) { id } codes(first: 500) { edges { node { id content } } } }',
      { id: codeOfB.id },
    );
    expect(res.body.errors).toBeUndefined();
    expect(res.body.data.code).toBeNull();
    expect(res.text).not.toContain(codeOfB.id);
  });

  it("A cannot update or delete B's code", async () => {
    const update = await app.graphql(
      keyA,
      'mutation($id: ID!) { updateCode(id: $id, input: { content: "https://a.example/x" }) { id } }',
      { id: codeOfB.id },
    );
    expect(update.body.errors[0].extensions.code).toBe('NOT_FOUND');
    const del = await app.graphql(keyA, 'mutation($id: ID!) { deleteCode(id: $id) { deletedId } }', { id: codeOfB.id });
    expect(del.body.errors[0].extensions.code).toBe('NOT_FOUND');
    expect((await app.request('GET', `/v1/codes/${codeOfB.id}`, { key: keyB })).body).toEqual(codeOfB);
  });
});
