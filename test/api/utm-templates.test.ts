// UTM templates over real HTTP: saved per account, changed and deleted; a code created with
// `utm_template_id` starts from the template's fields (its own `utm` fields win) and keeps them
// when the template changes; another account can neither see nor use a template; GraphQL too.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getTestApp, type TestApp } from '../support/app.ts';

let app: TestApp;
let key: string;
let otherKey: string;

beforeAll(async () => {
  app = await getTestApp();
  key = await app.newAccountKey('utm-templates');
  otherKey = await app.newAccountKey('utm-templates-other');
});
afterAll(() => app.close());

async function createTemplate(body: Record<string, unknown>, apiKey = key) {
  const res = await app.request('POST', '/v1/utm-templates', { key: apiKey, body });
  expect(res.status, res.text).toBe(201);
  return res.body;
}

const locationOf = async (scanUrl: string) => (await fetch(scanUrl, { redirect: 'manual' })).headers.get('location');

describe('UTM templates', () => {
  it('are saved, listed, changed (null removes a field) and deleted', async () => {
    const created = await createTemplate({ name: ' Posters ', utm_source: 'poster', utm_medium: 'print' });
    expect(created).toEqual({
      id: expect.stringMatching(/^utm_/),
      object: 'utm_template',
      name: 'Posters',
      utm_source: 'poster',
      utm_medium: 'print',
      utm_campaign: null,
      utm_term: null,
      utm_content: null,
      created_at: expect.any(String),
      updated_at: expect.any(String),
    });
    const list = await app.request('GET', '/v1/utm-templates', { key });
    expect(list.body.data.map((t: { id: string }) => t.id)).toContain(created.id);
    const changed = await app.request('PATCH', `/v1/utm-templates/${created.id}`, {
      key,
      body: { utm_medium: null, utm_campaign: 'spring' },
    });
    expect(changed.status, changed.text).toBe(200);
    expect([changed.body.utm_source, changed.body.utm_medium, changed.body.utm_campaign]).toEqual([
      'poster',
      null,
      'spring',
    ]);
    expect((await app.request('DELETE', `/v1/utm-templates/${created.id}`, { key })).status).toBe(204);
    expect((await app.request('GET', `/v1/utm-templates/${created.id}`, { key })).status).toBe(404);
  });

  it('refuse a template without fields, unknown keys and a change leaving none, changing nothing', async () => {
    for (const body of [{ name: 'x' }, { name: '', utm_source: 'x' }, { name: 'x', utm_id: 'y' }]) {
      const res = await app.request('POST', '/v1/utm-templates', { key, body });
      expect(res.status, JSON.stringify(body)).toBe(422);
      expect(res.headers.get('content-type')).toContain('application/problem+json');
    }
    const template = await createTemplate({ name: 'one', utm_source: 'a' });
    const emptied = await app.request('PATCH', `/v1/utm-templates/${template.id}`, { key, body: { utm_source: null } });
    expect(emptied.status).toBe(422);
    expect((await app.request('GET', `/v1/utm-templates/${template.id}`, { key })).body.utm_source).toBe('a');
  });

  it('start a code’s utm: copied, the code’s own fields win, later template changes do not reach it', async () => {
    const template = await createTemplate({ name: 'base', utm_source: 'poster', utm_medium: 'print' });
    const code = await app.request('POST', '/v1/codes', {
      key,
      body: { content: 'https://example.com/t', utm_template_id: template.id, utm: { utm_medium: 'flyer' } },
    });
    expect(code.status, code.text).toBe(201);
    expect(code.body.utm).toMatchObject({ utm_source: 'poster', utm_medium: 'flyer', utm_campaign: null });
    expect(code.body).not.toHaveProperty('utm_template_id');
    await app.request('PATCH', `/v1/utm-templates/${template.id}`, { key, body: { utm_source: 'changed' } });
    await app.request('DELETE', `/v1/utm-templates/${template.id}`, { key });
    expect((await app.request('GET', `/v1/codes/${code.body.id}`, { key })).body.utm.utm_source).toBe('poster');
    expect(await locationOf(code.body.scan_url)).toBe('https://example.com/t?utm_source=poster&utm_medium=flyer');
  });

  it('are neither seen, changed nor used by another account', async () => {
    const template = await createTemplate({ name: 'mine', utm_source: 'mine' });
    expect((await app.request('GET', `/v1/utm-templates/${template.id}`, { key: otherKey })).status).toBe(404);
    const list = await app.request('GET', '/v1/utm-templates', { key: otherKey });
    expect(list.body.data.map((t: { id: string }) => t.id)).not.toContain(template.id);
    const patch = await app.request('PATCH', `/v1/utm-templates/${template.id}`, {
      key: otherKey,
      body: { name: 'theirs' },
    });
    expect(patch.status).toBe(404);
    expect((await app.request('DELETE', `/v1/utm-templates/${template.id}`, { key: otherKey })).status).toBe(404);
    const code = await app.request('POST', '/v1/codes', {
      key: otherKey,
      body: { content: 'https://example.com/', utm_template_id: template.id },
    });
    expect(code.status).toBe(422);
    expect(code.body.errors).toEqual([{ path: 'utm_template_id', message: 'is not a UTM template of the account' }]);
    expect((await app.request('GET', `/v1/utm-templates/${template.id}`, { key })).body.name).toBe('mine');
  });

  it('are refused on static codes and in bulk calls, which give utm per item', async () => {
    const template = await createTemplate({ name: 'static', utm_source: 's' });
    const text = await app.request('POST', '/v1/codes', {
      key,
      body: { type: 'text', content: { text: 'hi' }, utm_template_id: template.id },
    });
    expect(text.status).toBe(422);
    const bulk = await app.request('POST', '/v1/codes/bulk', {
      key,
      body: { codes: [{ content: 'https://example.com/', utm_template_id: template.id }] },
    });
    expect(bulk.status).toBe(422);
    expect(JSON.stringify(bulk.body)).toContain('utm_template_id');
  });

  it('work through GraphQL the same way', async () => {
    const created = await app.graphql(
      key,
      'mutation { createUtmTemplate(input: { name: "gql", utmSource: "g", utmTerm: "t" }) { id utmSource utmTerm } }',
    );
    expect(created.body.errors).toBeUndefined();
    const id = created.body.data.createUtmTemplate.id;
    const code = await app.graphql(
      key,
      `mutation($t: String!) {
        createCode(input: { content: "https://example.com/g", utmTemplateId: $t }) { utm { utmSource utmTerm } }
      }`,
      { t: id },
    );
    expect(code.body.errors).toBeUndefined();
    expect(code.body.data.createCode.utm).toEqual({ utmSource: 'g', utmTerm: 't' });
    const updated = await app.graphql(
      key,
      'mutation($id: ID!) { updateUtmTemplate(id: $id, input: { utmTerm: null }) { utmTerm } }',
      { id },
    );
    expect(updated.body.data.updateUtmTemplate.utmTerm).toBeNull();
    const theirs = await app.graphql(otherKey, 'query($id: ID!) { utmTemplate(id: $id) { id } }', { id });
    expect(theirs.body.data.utmTemplate).toBeNull();
    expect((await app.graphql(otherKey, '{ utmTemplates { id } }')).body.data.utmTemplates).toEqual([]);
  });
});
