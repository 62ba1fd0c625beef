// The well-known files of an own domain (iOS universal links, Android App Links), over real HTTP:
// set per domain (validated: a 422 changes nothing), served as application/json on that domain
// once it is verified (requests go to 127.0.0.1 with the domain's Host header), a 404 on a
// verified domain without them, on a pending one, and on the service's own host; another
// account neither sees nor changes them.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getTestApp, type TestApp } from '../support/app.ts';
import { fakeDns, requestWithHost } from '../support/dns.ts';

const dns = fakeDns();

let app: TestApp;
let key: string;
let otherKey: string;

beforeAll(async () => {
  app = await getTestApp({}, { resolveTxt: dns.resolveTxt });
  key = await app.newAccountKey('well-known');
  otherKey = await app.newAccountKey('well-known-other');
});
afterAll(() => app.close());

const AASA_PATH = '/.well-known/apple-app-site-association';
const ASSETLINKS_PATH = '/.well-known/assetlinks.json';
const FINGERPRINT = '14:6D:E9:83:C5:73:06:50:D8:EE:B9:95:2F:34:FC:64:16:A0:83:42:E6:1D:BE:A8:8A:04:96:B2:3F:CF:44:E5';

const AASA = {
  applinks: {
    details: [
      {
        appIDs: ['ABCDE12345.com.example.app'],
        components: [
          { '/': '/item/*', comment: 'items' },
          { '/': '/admin/*', exclude: true },
        ],
      },
    ],
  },
  webcredentials: { apps: ['ABCDE12345.com.example.app'] },
};
const ASSETLINKS = [
  {
    relation: ['delegate_permission/common.handle_all_urls'],
    target: { namespace: 'android_app', package_name: 'com.example.app', sha256_cert_fingerprints: [FINGERPRINT] },
  },
];

async function addDomain(hostname: string, apiKey: string, body: Record<string, unknown> = {}) {
  const added = await app.request('POST', '/v1/domains', { key: apiKey, body: { hostname, ...body } });
  expect(added.status, added.text).toBe(201);
  return added.body;
}

async function verify(domain: { id: string; verification: { name: string; value: string } }, apiKey: string) {
  dns.txt.set(domain.verification.name, [[domain.verification.value]]);
  const verified = await app.request('POST', `/v1/domains/${domain.id}/verify`, { key: apiKey });
  expect(verified.status, verified.text).toBe(200);
  return verified.body;
}

const getAt = (host: string, path: string, method = 'GET') => requestWithHost(app.url, host, method, path);

describe('well-known files', () => {
  it('are served as application/json on the verified domain, not while it is pending', async () => {
    const domain = await addDomain('links.example', key, { apple_app_site_association: AASA, assetlinks: ASSETLINKS });
    expect(domain.apple_app_site_association).toEqual(AASA);
    expect(domain.assetlinks).toEqual(ASSETLINKS);
    expect((await getAt('links.example', AASA_PATH)).status).toBe(404);

    await verify(domain, key);
    const aasa = await getAt('links.example', AASA_PATH);
    expect(aasa.status).toBe(200);
    expect(aasa.headers.get('content-type')).toBe('application/json');
    expect(JSON.parse(aasa.text)).toEqual(AASA);
    const assetlinks = await getAt('LINKS.example:443', `${ASSETLINKS_PATH}?x=1`);
    expect(assetlinks.status).toBe(200);
    expect(assetlinks.headers.get('content-type')).toBe('application/json');
    expect(JSON.parse(assetlinks.text)).toEqual(ASSETLINKS);
    const head = await getAt('links.example', ASSETLINKS_PATH, 'HEAD');
    expect(head.status).toBe(200);
    expect(head.text).toBe('');
  });

  it('answer 404 on the service’s own host and on another account’s domain without them', async () => {
    await verify(await addDomain('mine.example', key, { assetlinks: ASSETLINKS }), key);
    await verify(await addDomain('theirs.example', otherKey), otherKey);
    expect((await getAt('mine.example', ASSETLINKS_PATH)).status).toBe(200);
    const own = new URL(app.url).host;
    for (const [host, path] of [
      [own, AASA_PATH],
      [own, ASSETLINKS_PATH],
      ['theirs.example', ASSETLINKS_PATH],
      ['theirs.example', AASA_PATH],
      ['mine.example', AASA_PATH],
    ]) {
      const res = await getAt(host!, path!);
      expect(res.status, `${host}${path}`).toBe(404);
      expect(res.text).not.toContain('com.example.app');
    }
  });

  it('are changed and removed by PATCH, and the domain serves the change at once', async () => {
    const domain = await verify(await addDomain('change.example', key, { apple_app_site_association: AASA }), key);
    const changed = {
      applinks: { details: [{ appIDs: ['ZYXWV98765.com.example.other'], components: [{ '/': '/*' }] }] },
    };
    const patched = await app.request('PATCH', `/v1/domains/${domain.id}`, {
      key,
      body: { apple_app_site_association: changed, assetlinks: ASSETLINKS },
    });
    expect(patched.status, patched.text).toBe(200);
    expect(JSON.parse((await getAt('change.example', AASA_PATH)).text)).toEqual(changed);
    expect((await getAt('change.example', ASSETLINKS_PATH)).status).toBe(200);
    const removed = await app.request('PATCH', `/v1/domains/${domain.id}`, {
      key,
      body: { apple_app_site_association: null },
    });
    expect(removed.body.apple_app_site_association).toBeNull();
    expect(removed.body.assetlinks).toEqual(ASSETLINKS);
    expect((await getAt('change.example', AASA_PATH)).status).toBe(404);
  });

  it('refuse what is not the file’s shape with a 422 naming the field, changing nothing', async () => {
    const domain = await verify(await addDomain('strict.example', key, { assetlinks: ASSETLINKS }), key);
    const bad: [Record<string, unknown>, string][] = [
      [{ apple_app_site_association: { applinks: { details: [] } } }, 'apple_app_site_association.applinks.details'],
      [
        { apple_app_site_association: { applinks: { details: [{ appIDs: ['com.example.app'], components: [{}] }] } } },
        'apple_app_site_association.applinks.details.0.appIDs.0',
      ],
      [{ apple_app_site_association: { applinks: {}, extra: true } }, 'apple_app_site_association.extra'],
      [
        {
          assetlinks: [{ ...ASSETLINKS[0], target: { ...ASSETLINKS[0]!.target, sha256_cert_fingerprints: ['AB:CD'] } }],
        },
        'assetlinks.0.target.sha256_cert_fingerprints.0',
      ],
      [
        { assetlinks: [{ ...ASSETLINKS[0], target: { ...ASSETLINKS[0]!.target, namespace: 'web' } }] },
        'assetlinks.0.target.namespace',
      ],
      [
        { assetlinks: [{ ...ASSETLINKS[0], target: { ...ASSETLINKS[0]!.target, package_name: 'no package' } }] },
        'assetlinks.0.target.package_name',
      ],
      [{ assetlinks: [] }, 'assetlinks'],
    ];
    for (const [body, path] of bad) {
      const res = await app.request('PATCH', `/v1/domains/${domain.id}`, {
        key,
        body: { fallback_url: null, ...body },
      });
      expect(res.status, JSON.stringify(body)).toBe(422);
      expect(res.headers.get('content-type')).toContain('application/problem+json');
      expect(
        res.body.errors.map((e: { path: string }) => e.path),
        JSON.stringify(body),
      ).toContain(path);
    }
    const after = await app.request('GET', `/v1/domains/${domain.id}`, { key });
    expect(after.body.assetlinks).toEqual(ASSETLINKS);
    expect(after.body.apple_app_site_association).toBeNull();
    expect(JSON.parse((await getAt('strict.example', ASSETLINKS_PATH)).text)).toEqual(ASSETLINKS);
  });

  it('are neither seen nor changed by another account', async () => {
    const domain = await verify(await addDomain('private.example', key, { assetlinks: ASSETLINKS }), key);
    expect((await app.request('GET', `/v1/domains/${domain.id}`, { key: otherKey })).status).toBe(404);
    const patch = await app.request('PATCH', `/v1/domains/${domain.id}`, { key: otherKey, body: { assetlinks: null } });
    expect(patch.status).toBe(404);
    expect((await getAt('private.example', ASSETLINKS_PATH)).status).toBe(200);
  });

  it('are set and read through GraphQL with the same checks', async () => {
    const domain = await verify(await addDomain('gql.example', key), key);
    const update = (input: Record<string, unknown>) =>
      app.graphql(
        key,
        `mutation($id: ID!, $input: UpdateDomainInput!) {
          updateDomain(id: $id, input: $input) { appleAppSiteAssociation assetlinks }
        }`,
        { id: domain.id, input },
      );
    const set = await update({ assetlinks: ASSETLINKS });
    expect(set.body.errors).toBeUndefined();
    expect(set.body.data.updateDomain).toEqual({ appleAppSiteAssociation: null, assetlinks: ASSETLINKS });
    const invalid = await update({ appleAppSiteAssociation: { applinks: { details: 'x' } } });
    expect(invalid.body.errors[0].extensions.code).toBe('VALIDATION_FAILED');
    expect(JSON.parse((await getAt('gql.example', ASSETLINKS_PATH)).text)).toEqual(ASSETLINKS);
    const cleared = await update({ assetlinks: null });
    expect(cleared.body.data.updateDomain.assetlinks).toBeNull();
    expect((await getAt('gql.example', ASSETLINKS_PATH)).status).toBe(404);
  });
});
