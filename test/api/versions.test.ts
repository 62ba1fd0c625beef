// /v1 and /v2: the same resources, every answer naming its version, unknown versions refused
// with the list of supported ones, and the headers a retired version would carry.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API_VERSIONS, versionHeaders } from '../../src/http/versions.ts';
import { getTestApp, type TestApp } from '../support/app.ts';
import { codeBody } from '../support/factories.ts';

let app: TestApp;
let key: string;

beforeAll(async () => {
  app = await getTestApp();
  key = await app.newAccountKey();
});
afterAll(() => app.close());

describe('API versions', () => {
  it('serves the same codes under /v1 and /v2, each answer naming its version', async () => {
    const created = await app.request('POST', '/v2/codes', { key, body: codeBody({ design: { style: 'branded' } }) });
    expect(created.status).toBe(201);
    expect(created.headers.get('api-version')).toBe('v2');
    expect(created.headers.get('location')).toBe(`/v2/codes/${created.body.id}`);

    const viaV1 = await app.request('GET', `/v1/codes/${created.body.id}`, { key });
    expect(viaV1.status).toBe(200);
    expect(viaV1.headers.get('api-version')).toBe('v1');
    expect(viaV1.body).toEqual(created.body);
  });

  it('names the version on problems and on unversioned answers too (the current version)', async () => {
    const missing = await app.request('GET', '/v1/codes/qr_missing', { key });
    expect(missing.status).toBe(404);
    expect(missing.headers.get('api-version')).toBe('v1');
    const unauthenticated = await app.request('GET', '/v2/codes');
    expect(unauthenticated.status).toBe(401);
    expect(unauthenticated.headers.get('api-version')).toBe('v2');
    expect((await app.request('GET', '/healthz')).headers.get('api-version')).toBe('v2');
    expect((await app.graphql(key, '{ __typename }')).headers.get('api-version')).toBe('v2');
  });

  it.each(['/v3/codes', '/v0', '/v10/codes/qr_1/image'])(
    'answers %s with a 404 problem listing the supported versions',
    async (path) => {
      const res = await app.request('GET', path, { key });
      expect(res.status).toBe(404);
      expect(res.headers.get('content-type')).toContain('application/problem+json');
      expect(res.body).toMatchObject({ type: '/problems/not-found', status: 404, supported_versions: ['v1', 'v2'] });
      expect(res.body.detail).toContain('v1, v2');
    },
  );

  it('lets allowed browser origins read the unknown-version problem (CORS runs first)', async () => {
    const cors = await getTestApp({ CORS_ORIGINS: 'https://app.example' });
    try {
      const res = await cors.request('GET', '/v3/codes', { headers: { origin: 'https://app.example' } });
      expect(res.status).toBe(404);
      expect(res.headers.get('access-control-allow-origin')).toBe('https://app.example');
    } finally {
      await cors.close();
    }
  });

  it('takes no path merely starting like a version (/v1abc/codes is an ordinary unknown route)', async () => {
    const res = await app.request('GET', '/v1abc/codes', { key });
    expect(res.status).toBe(404);
    expect(res.body.supported_versions).toBeUndefined();
  });

  it('serves a document per version that differs only in its server and version', async () => {
    const [v1, v2] = await Promise.all(API_VERSIONS.map((version) => app.request('GET', `/${version}/openapi.json`)));
    expect(v1!.body.servers[0].url).toBe('/v1');
    expect(v2!.body.servers[0].url).toBe('/v2');
    const strip = (doc: any) => ({ ...doc, servers: undefined, info: { ...doc.info, version: undefined } });
    expect(strip(v1!.body)).toEqual(strip(v2!.body));
  });
});

describe('versionHeaders', () => {
  it('adds nothing but API-Version to a live version', () => {
    expect(versionHeaders('v2')).toEqual({ 'API-Version': 'v2' });
  });

  it('marks a retired version with Deprecation (RFC 9745), Sunset (RFC 8594) and its successor', () => {
    const headers = versionHeaders('v1', {
      deprecatedAt: new Date('2027-01-01T00:00:00Z'),
      sunsetAt: new Date('2027-07-01T00:00:00Z'),
      successor: 'v2',
    });
    expect(headers).toEqual({
      'API-Version': 'v1',
      Deprecation: '@1798761600',
      Sunset: 'Thu, 01 Jul 2027 00:00:00 GMT',
      Link: '</v2>; rel="successor-version"',
    });
  });
});
