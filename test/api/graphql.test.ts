// GraphQL at /graphql: same auth, same services, same validation as REST.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getTestApp, type TestApp } from '../support/app.ts';
import { createCode } from '../support/factories.ts';

let app: TestApp;
let key: string;

beforeAll(async () => {
  app = await getTestApp();
  key = await app.newAccountKey();
});
afterAll(() => app.close());

const CODE_FIELDS =
  'id type content scanUrl createdAt updatedAt design { fgColor bgColor style logoUrl errorCorrection } routing { ' +
  'enabled rules { ruleId type priority condition destination } }';

describe('auth', () => {
  it('answers an operation without a key with 401 problem+json', async () => {
    const res = await app.graphql(undefined, '{ codes(first: 1) { edges { node { id } } } }');
    expect(res.status).toBe(401);
    expect(res.headers.get('content-type')).toContain('application/problem+json');
  });

  it('answers a bad key with 401', async () => {
    const res = await app.graphql('qrk_nope', '{ codes(first: 1) { edges { node { id } } } }');
    expect(res.status).toBe(401);
  });

  it('serves GraphiQL to a browser without a key, from local assets, executing nothing', async () => {
    const existing = await createCode(app, key);
    const res = await app.request('GET', '/graphql?query=%7Bcodes%7Bedges%7Bnode%7Bid%7D%7D%7D%7D', {
      headers: { accept: 'text/html' },
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('text/html');
    expect(res.text).toContain('GraphiQL');
    expect(res.text).not.toContain('unpkg.com');
    expect(res.text).not.toContain(existing.id);
  });
});

describe('mutations and queries', () => {
  it('createCode returns the same code REST returns', async () => {
    const res = await app.graphql(
      key,
      `mutation($input: CreateCodeInput!) { createCode(input: $input) { ${CODE_FIELDS} } }`,
      {
        input: {
          content: 'https://example.com/gql',
          design: { style: 'branded', fgColor: '#FF0000' },
          routing: { rules: [{ condition: 'country:CA', destination: 'https://example.ca/' }] },
        },
      },
    );
    expect(res.body.errors).toBeUndefined();
    const code = res.body.data.createCode;
    const rest = (await app.request('GET', `/v1/codes/${code.id}`, { key })).body;
    expect(code).toMatchObject({
      type: 'url',
      content: 'https://example.com/gql',
      scanUrl: rest.scan_url,
      createdAt: rest.created_at,
      design: { fgColor: '#ff0000', bgColor: '#ffffff', style: 'branded', logoUrl: null, errorCorrection: 'M' },
      routing: {
        enabled: true,
        rules: [
          {
            ruleId: rest.routing.rules[0].ruleId,
            type: 'geo',
            priority: 1,
            condition: 'country:CA',
            destination: 'https://example.ca/',
          },
        ],
      },
    });
  });

  it('reports validation failures with the field paths of the GraphQL input', async () => {
    const res = await app.graphql(
      key,
      'mutation { createCode(input: { content: "javascript:alert(1)", design: { fgColor: "blue" } }) { id } }',
    );
    expect(res.status).toBe(200);
    expect(res.body.data).toBeNull();
    const error = res.body.errors[0];
    expect(error.extensions.code).toBe('VALIDATION_FAILED');
    expect(error.extensions.status).toBe(422);
    expect(error.extensions.errors.map((e: { path: string }) => e.path).sort()).toEqual(['content', 'design.fgColor']);
  });

  it('code(id) returns a code and null for an unknown id', async () => {
    const created = await createCode(app, key);
    const res = await app.graphql(
      key,
      `query($a: ID!, $b: ID!) { a: code(id: $a) { id content } b: code(id: $b) { id } }`,
      { a: created.id, b: 'qr_unknown' },
    );
    expect(res.body).toEqual({ data: { a: { id: created.id, content: created.content }, b: null } });
  });

  it('updateCode changes content, resets a design field with null, replaces rules', async () => {
    const created = await createCode(app, key, {
      design: { style: 'dots', fg_color: '#123456' },
      routing: { rules: [{ condition: 'country:US', destination: 'https://example.com/us' }] },
    });
    const res = await app.graphql(
      key,
      `mutation($id: ID!, $input: UpdateCodeInput!) { updateCode(id: $id, input: $input) { ${CODE_FIELDS} } }`,
      {
        id: created.id,
        input: {
          content: 'https://example.com/changed',
          design: { style: null },
          routing: { enabled: false, rules: [] },
        },
      },
    );
    expect(res.body.errors).toBeUndefined();
    expect(res.body.data.updateCode).toMatchObject({
      content: 'https://example.com/changed',
      design: { style: 'square', fgColor: '#123456' },
      routing: { enabled: false, rules: [] },
    });
  });

  it('deleteCode deletes, and a second delete is NOT_FOUND', async () => {
    const created = await createCode(app, key);
    const first = await app.graphql(key, 'mutation($id: ID!) { deleteCode(id: $id) { deletedId } }', {
      id: created.id,
    });
    expect(first.body.data.deleteCode.deletedId).toBe(created.id);
    expect((await app.request('GET', `/v1/codes/${created.id}`, { key })).status).toBe(404);
    const second = await app.graphql(key, 'mutation($id: ID!) { deleteCode(id: $id) { deletedId } }', {
      id: created.id,
    });
    expect(second.body.errors[0].extensions).toMatchObject({ code: 'NOT_FOUND', status: 404 });
  });
});

describe('images and static types', () => {
  it('creates a static wifi code with a designed image and reads its payload', async () => {
    const res = await app.graphql(
      key,
      `mutation($input: CreateCodeInput!) { createCode(input: $input) { type content payload scanUrl routing { ` +
        `enabled } design { style eyeStyle eyeColor margin frame frameText gradient { type from to angle } } } }`,
      {
        input: {
          type: 'wifi',
          content: { ssid: 'Lobby', password: 'correct horse' },
          design: {
            style: 'branded',
            frame: 'banner',
            frameText: 'Join the Wi-Fi',
            gradient: { type: 'radial', from: '#1d4ed8', to: '#7c3aed' },
          },
        },
      },
    );
    expect(res.body.errors).toBeUndefined();
    expect(res.body.data.createCode).toEqual({
      type: 'wifi',
      content: { ssid: 'Lobby', password: 'correct horse', encryption: 'WPA' },
      payload: 'WIFI:T:WPA;S:Lobby;P:correct horse;;',
      scanUrl: null,
      routing: { enabled: false },
      design: {
        style: 'branded',
        eyeStyle: 'rounded',
        eyeColor: '#1d4ed8',
        margin: 4,
        frame: 'banner',
        frameText: 'Join the Wi-Fi',
        gradient: { type: 'radial', from: '#1d4ed8', to: '#7c3aed', angle: 0 },
      },
    });
  });

  it('reports static content errors under content', async () => {
    const res = await app.graphql(
      key,
      'mutation { createCode(input: { type: geo, content: { latitude: 95, longitude: 0 } }) { id } }',
    );
    expect(res.body.errors[0].extensions).toMatchObject({
      code: 'VALIDATION_FAILED',
      errors: [{ path: 'content.latitude' }],
    });
  });
});

describe('codes connection', () => {
  it('pages forward with first/after, filters and sorts like REST', async () => {
    const own = await app.newAccountKey();
    const made = [];
    for (let i = 0; i < 5; i++) made.push(await createCode(app, own, { content: `https://conn.example/${i}` }));
    const query = `query($after: String, $sort: CodeSort, $filter: CodeFilter) {
      codes(first: 2, after: $after, sort: $sort, filter: $filter) {
        edges { cursor node { id } } pageInfo { hasNextPage hasPreviousPage endCursor }
      }
    }`;
    const seen: string[] = [];
    let after: string | null = null;
    for (let page = 0; page < 5; page++) {
      const res: any = await app.graphql(own, query, { after, sort: 'CREATED_AT_ASC' });
      expect(res.body.errors).toBeUndefined();
      const conn = res.body.data.codes;
      seen.push(...conn.edges.map((e: any) => e.node.id));
      expect(conn.pageInfo.hasPreviousPage).toBe(after !== null);
      if (!conn.pageInfo.hasNextPage) break;
      after = conn.pageInfo.endCursor;
    }
    expect(seen).toEqual(made.map((c) => c.id));

    const filtered = await app.graphql(own, query, { filter: { q: 'conn.example/3' } });
    expect(filtered.body.data.codes.edges.map((e: any) => e.node.id)).toEqual([made[3].id]);
  });

  it('refuses backward pagination and out-of-range first with a validation error', async () => {
    const back = await app.graphql(key, '{ codes(last: 2) { edges { node { id } } } }');
    expect(back.body.errors[0].extensions.code).toBe('VALIDATION_FAILED');
    const big = await app.graphql(key, '{ codes(first: 501) { edges { node { id } } } }');
    expect(big.body.errors[0].extensions.errors[0].path).toBe('limit');
  });

  it('answers GraphQL syntax errors without crashing', async () => {
    const res = await app.graphql(key, '{ codes(first: ');
    // application/json clients get 200 (GraphQL over HTTP's legacy rule), never a 5xx.
    expect(res.status).toBe(200);
    expect(res.body.data).toBeUndefined();
    expect(res.body.errors[0].message).toMatch(/Syntax Error/);
  });
});
