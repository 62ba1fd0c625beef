// The document and the routers describe the same API: every versioned route is an operation
// with the route's scope, every operation is a route, and /v1 and /v2 register the same routes.
import { readdirSync, readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openApiDocument } from '../../src/api/openapi-document.ts';
import { API_VERSIONS, type ApiVersion } from '../../src/http/versions.ts';
import { apiRoutes } from '../support/routes.ts';
import { getTestApp, type TestApp } from '../support/app.ts';

let app: TestApp;
beforeAll(async () => {
  app = await getTestApp();
});
afterAll(() => app.close());

/** `METHOD /path/{param}` -> required scope, for every route of a version's router. */
function routerRoutes(version: ApiVersion): Record<string, string | undefined> {
  const openApiPath = (path: string) => path.replace(`/${version}`, '').replace(/:(\w+)/g, '{$1}');
  return Object.fromEntries(
    apiRoutes(version, app.services).map((route) => [`${route.method} ${openApiPath(route.path)}`, route.scope]),
  );
}

/** The same, for every authenticated operation of the document (scope from its OAuth2 requirement). */
function documentedRoutes(version: ApiVersion): Record<string, string | undefined> {
  const routes: Record<string, string | undefined> = {};
  for (const [path, item] of Object.entries<any>(openApiDocument(version).paths ?? {})) {
    for (const [method, op] of Object.entries<any>(item)) {
      if (!op?.operationId) continue;
      const security: Record<string, string[]>[] = op.security ?? [];
      // The API's public operations (sign-in, setup) are routes of its router; those at the root and
      // the document itself (Operations) are served outside it.
      if (security.length === 0 && (item.servers || op.tags?.includes('Operations'))) continue;
      routes[`${method.toUpperCase()} ${path}`] =
        security.length === 0
          ? 'public'
          : security.some((s) => s.OAuth2)
            ? security.find((s) => s.OAuth2)!.OAuth2![0]
            : 'session';
    }
  }
  return routes;
}

describe('the OpenAPI document and the routers', () => {
  it.each(API_VERSIONS)('%s: documents exactly the routes the router registers, each with its scope', (version) => {
    expect(documentedRoutes(version)).toEqual(routerRoutes(version));
  });

  it('/v1 and /v2 register the same routes today', () => {
    expect(routerRoutes('v2')).toEqual(routerRoutes('v1'));
  });

  it('gives every operation a unique operationId, a summary and a tag the document lists', () => {
    const document = openApiDocument('v1');
    const tags = new Set(document.tags!.map((tag) => tag.name));
    const ids: string[] = [];
    for (const item of Object.values<any>(document.paths ?? {})) {
      for (const op of Object.values<any>(item)) {
        if (!op?.operationId) continue;
        ids.push(op.operationId);
        expect(op.summary, op.operationId).toEqual(expect.any(String));
        expect(tags.has(op.tags[0]), `${op.operationId} tag ${op.tags[0]}`).toBe(true);
      }
    }
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('has a contract suite walking every tag: each tag is checked by expectTagCovered in test/contract', () => {
    const folder = new URL('./', import.meta.url);
    const covered = readdirSync(folder)
      .filter((file) => file.endsWith('.test.ts'))
      .flatMap((file) =>
        [...readFileSync(new URL(file, folder), 'utf8').matchAll(/expectTagCovered\('([^']+)'\)/g)].map((m) => m[1]!),
      );
    expect(covered.sort()).toEqual(
      openApiDocument('v1')
        .tags!.map((tag) => tag.name)
        .sort(),
    );
  });
});
