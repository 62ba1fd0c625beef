// The contract tests' validator must catch each way an answer can depart from the document, or
// their green would mean nothing: answers built by hand, checked against the real v1 document.
import { describe, expect, it } from 'vitest';
import { openApiDocument } from '../../src/api/openapi-document.ts';
import type { TestResponse } from '../support/app.ts';
import { createOpenApiValidator } from '../support/openapi-validator.ts';

const validator = createOpenApiValidator(JSON.parse(JSON.stringify(openApiDocument('v1'))), 'v1');

function answer(status: number, headers: Record<string, string> = {}, body?: unknown): TestResponse {
  const text = body === undefined ? '' : JSON.stringify(body);
  return { status, headers: new Headers(headers), body, text };
}

function mismatches(method: string, path: string, response: TestResponse): string[] {
  return validator.mismatches(validator.operationFor(method, path)!, path, response);
}

const redirect = { location: 'https://example.com/', 'cache-control': 'private, max-age=0' };
/** What the edge adds to every answer Koa serves (the scan route's are not among them). */
const edge = { 'api-version': 'v1', 'x-request-id': 'req-1' };
const json = { ...edge, 'content-type': 'application/json' };

describe('the OpenAPI validator of the contract tests', () => {
  it('finds operations by method and template, literal paths first, the root ones outside /v1', () => {
    expect(validator.operationFor('POST', '/v1/codes/bulk')?.operationId).toBe('bulkCreateCodes');
    expect(validator.operationFor('GET', '/v1/codes/qr_1?x=1')?.operationId).toBe('getCode');
    expect(validator.operationFor('HEAD', '/spring_sale')?.operationId).toBe('checkScanCode');
    expect(validator.operationFor('GET', '/')?.operationId).toBe('openDomainRoot');
    expect(validator.operationFor('GET', '/healthz')?.operationId).toBe('getHealth');
    expect(validator.operationFor('GET', '/codes/qr_1')).toBeUndefined();
    expect(validator.operationFor('PUT', '/v1/codes/qr_1')).toBeUndefined();
  });

  it('passes a conforming answer', () => {
    expect(mismatches('GET', '/spring_sale-2026', answer(302, redirect))).toEqual([]);
    expect(mismatches('GET', '/healthz', answer(200, json, { status: 'ok', version: '0.1.0' }))).toEqual([]);
  });

  it('refuses an undeclared status, a wrong Content-Type, a body off its schema and an unexpected body', () => {
    expect(mismatches('GET', '/healthz', answer(201, json, { status: 'ok', version: '0.1.0' }))).toEqual([
      expect.stringContaining('status 201 is not declared'),
    ]);
    expect(
      mismatches(
        'GET',
        '/healthz',
        answer(200, { ...edge, 'content-type': 'text/plain' }, { status: 'ok', version: '0.1.0' }),
      ),
    ).toEqual(['Content-Type text/plain is not one of application/json']);
    expect(mismatches('GET', '/healthz', answer(200, json, { status: 'up', version: '0.1.0', extra: 1 }))).toHaveLength(
      2,
    );
    expect(mismatches('HEAD', '/spring', answer(302, redirect, { oops: true }))).toEqual([
      expect.stringContaining('a body where none is declared'),
    ]);
  });

  it('refuses a missing required header and a header value off its schema', () => {
    expect(mismatches('GET', '/spring', answer(302, { 'cache-control': 'private, max-age=0' }))).toEqual([
      'required header Location is missing',
    ]);
    const image = { ...edge, 'content-type': 'image/svg+xml', etag: '"x"', 'cache-control': 'private, no-cache' };
    const svg = (width: string): TestResponse => ({
      ...answer(200, { ...image, 'image-width': width }),
      text: '<svg/>',
    });
    expect(mismatches('GET', '/v1/codes/qr_1/image', svg('512'))).toEqual([]);
    expect(mismatches('GET', '/v1/codes/qr_1/image', svg('wide'))).toEqual([
      expect.stringContaining('header Image-Width: wide'),
    ]);
  });

  it('checks the headers every API answer carries: API-Version, X-Request-Id, the rate limit, Retry-After', () => {
    const list = { object: 'list', data: [], next_cursor: null };
    const limited = { 'ratelimit-limit': '600', 'ratelimit-remaining': '599', 'ratelimit-reset': '42' };
    expect(mismatches('GET', '/v1/tags', answer(200, { ...json, ...limited }, list))).toEqual([]);
    // The rate limit can be off (RATE_LIMIT_PER_MINUTE=0): its headers are optional, the edge's are not.
    expect(mismatches('GET', '/v1/tags', answer(200, json, list))).toEqual([]);
    expect(mismatches('GET', '/v1/tags', answer(200, { ...json, 'api-version': '' }, list))).toEqual([
      expect.stringContaining('header API-Version: : '),
    ]);
    const { 'api-version': _version, ...unversioned } = json;
    expect(mismatches('GET', '/v1/tags', answer(200, unversioned, list))).toEqual([
      'required header API-Version is missing',
    ]);
    expect(mismatches('GET', '/v1/tags', answer(200, { ...json, 'ratelimit-remaining': '-1' }, list))).toEqual([
      expect.stringContaining('header RateLimit-Remaining: -1'),
    ]);
    const problem = { type: '/problems/rate-limited', title: 'Too many requests', status: 429, detail: 'Wait.' };
    const tooMany = { ...edge, 'content-type': 'application/problem+json' };
    expect(mismatches('GET', '/v1/tags', answer(429, { ...tooMany, 'retry-after': '3' }, problem))).toEqual([]);
    expect(mismatches('GET', '/v1/tags', answer(429, tooMany, problem))).toEqual([
      'required header Retry-After is missing',
    ]);
    expect(mismatches('GET', '/v1/tags', answer(429, { ...tooMany, 'retry-after': 'soon' }, problem))).toEqual([
      expect.stringContaining('header Retry-After: soon'),
    ]);
  });

  it('refuses a served query parameter the document does not declare or admit, read by its style', () => {
    const list = answer(200, json, { object: 'list', data: [], next_cursor: null });
    expect(mismatches('GET', '/v1/codes?status=active,archived&tag=a&tag=b&limit=10', list)).toEqual([]);
    expect(mismatches('GET', '/v1/codes?colour=red', list)).toEqual([
      'query parameter colour was served but the document does not declare it',
    ]);
    expect(mismatches('GET', '/v1/codes?limit=ten', list)).toEqual([
      expect.stringContaining('query parameter limit=ten was served but the document refuses it'),
    ]);
    expect(mismatches('GET', '/v1/codes?limit=1&limit=2', list)).toEqual([
      expect.stringContaining('query parameter limit=1&limit=2 was served but the document refuses it'),
    ]);
    // Declared comma-separated (style form, explode false): a repeated name is not that style.
    expect(mismatches('GET', '/v1/codes?status=active&status=paused', list)).toEqual([
      'query parameter status=active&status=paused: repeated, but declared comma-separated (explode: false)',
    ]);
    expect(mismatches('GET', '/v1/codes?status=active,lost', list)).toEqual([
      expect.stringContaining('query parameter status=active,lost was served but the document refuses it'),
    ]);
    // A refused request was not served: its query is the service's to judge, not the document's.
    const problem = { type: '/problems/validation-failed', title: 'Validation failed', status: 422, detail: 'No.' };
    const refused = answer(422, { ...edge, 'content-type': 'application/problem+json' }, problem);
    expect(mismatches('GET', '/v1/codes?colour=red', refused)).toEqual([]);
  });

  it('refuses a served path parameter the document does not admit, but not in a refusal', () => {
    expect(mismatches('GET', '/a.b', answer(302, redirect))).toEqual([
      expect.stringContaining('path parameter slug=a.b was served but the document refuses it'),
    ]);
    const problem = { type: '/problems/not-found', title: 'Not found', status: 404, detail: 'No.' };
    expect(mismatches('GET', '/a.b', answer(404, { 'content-type': 'application/problem+json' }, problem))).toEqual([]);
  });

  it('is strict: a format it does not know is an error, not a pass', () => {
    const document = {
      openapi: '3.1.0',
      components: { schemas: {} },
      paths: {
        '/things': {
          get: {
            operationId: 'listThings',
            tags: ['Things'],
            responses: {
              '200': { content: { 'application/json': { schema: { type: 'string', format: 'colour' } } } },
            },
          },
        },
      },
    };
    const strict = createOpenApiValidator(document, 'v1');
    const ok = answer(200, json, 'red');
    expect(() => strict.mismatches(strict.operationFor('GET', '/v1/things')!, '/v1/things', ok)).toThrow(
      /unknown format "colour"/,
    );
  });
});
