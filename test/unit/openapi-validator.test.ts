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
    expect(
      mismatches('GET', '/healthz', answer(200, { 'content-type': 'application/json' }, { status: 'ok' })),
    ).toEqual([]);
  });

  it('refuses an undeclared status, a wrong Content-Type, a body off its schema and an unexpected body', () => {
    expect(
      mismatches('GET', '/healthz', answer(201, { 'content-type': 'application/json' }, { status: 'ok' })),
    ).toEqual([expect.stringContaining('status 201 is not declared')]);
    expect(mismatches('GET', '/healthz', answer(200, { 'content-type': 'text/plain' }, { status: 'ok' }))).toEqual([
      'Content-Type text/plain is not one of application/json',
    ]);
    expect(
      mismatches('GET', '/healthz', answer(200, { 'content-type': 'application/json' }, { status: 'up', extra: 1 })),
    ).toHaveLength(2);
    expect(mismatches('HEAD', '/spring', answer(302, redirect, { oops: true }))).toEqual([
      expect.stringContaining('a body where none is declared'),
    ]);
  });

  it('refuses a missing required header and a header value off its schema', () => {
    expect(mismatches('GET', '/spring', answer(302, { 'cache-control': 'private, max-age=0' }))).toEqual([
      'required header Location is missing',
    ]);
    const image = { 'content-type': 'image/svg+xml', etag: '"x"', 'cache-control': 'private, no-cache' };
    const svg = (width: string): TestResponse => ({
      ...answer(200, { ...image, 'image-width': width }),
      text: '<svg/>',
    });
    expect(mismatches('GET', '/v1/codes/qr_1/image', svg('512'))).toEqual([]);
    expect(mismatches('GET', '/v1/codes/qr_1/image', svg('wide'))).toEqual([
      expect.stringContaining('header Image-Width: wide'),
    ]);
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
    const ok = answer(200, { 'content-type': 'application/json' }, 'red');
    expect(() => strict.mismatches(strict.operationFor('GET', '/v1/things')!, '/v1/things', ok)).toThrow(
      /unknown format "colour"/,
    );
  });
});
