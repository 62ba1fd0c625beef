// GET /v1/openapi.json, /v2/openapi.json: the document of each version; GET /docs: the
// interactive reference (Redoc's standalone bundle, served by us, no CDN).
import { readFile } from 'node:fs/promises';
import { Router } from '@koa/router';
import type { AppState } from '../http/context.ts';
import { DOCS_CSP, HTML_SECURITY_HEADERS } from '../http/security-headers.ts';
import { API_VERSIONS, CURRENT_API_VERSION } from '../http/versions.ts';
import { fromProjectRoot } from '../shared/build-layout.ts';
import { openApiDocument } from './openapi-document.ts';

/**
 * Copied out of the redoc package by `npm run build` (build:docs): redoc is a dev dependency,
 * since the rest of its tree (React, core-js, styled-components: ~30 MB) is never read at run time.
 */
const REDOC_BUNDLE = fromProjectRoot('dist/docs/redoc.standalone.js');

const DOCS_PAGE = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>QR code service API reference</title>
<link rel="icon" href="data:,">
</head>
<body>
<div id="redoc"></div>
<script src="/docs/redoc.standalone.js"></script>
<script src="/docs/init.js"></script>
</body>
</html>
`;

// A file rather than an inline script, so the policy needs no hash. ?version=v1 shows v1.
const DOCS_INIT = `(function () {
  var versions = ${JSON.stringify(API_VERSIONS)};
  var asked = new URLSearchParams(location.search).get('version');
  var version = versions.indexOf(asked) >= 0 ? asked : ${JSON.stringify(CURRENT_API_VERSION)};
  var options = { expandResponses: '200,201', pathInMiddlePanel: true };
  Redoc.init('/' + version + '/openapi.json', options, document.getElementById('redoc'));
})();
`;

let redocBundle: Promise<Buffer> | undefined;

export function createOpenApiRouter(): Router<AppState> {
  const router = new Router<AppState>();

  for (const version of API_VERSIONS) {
    // GET /v1/openapi.json: this version's OpenAPI 3.1 document; no credential needed
    router.get(`/${version}/openapi.json`, (ctx) => {
      ctx.set('Cache-Control', 'no-cache');
      ctx.body = openApiDocument(version);
    });
  }

  // GET /docs: the interactive API reference
  router.get('/docs', (ctx) => {
    ctx.set({ ...HTML_SECURITY_HEADERS, 'Content-Security-Policy': DOCS_CSP, 'Cache-Control': 'no-cache' });
    ctx.type = 'text/html; charset=utf-8';
    ctx.body = DOCS_PAGE;
  });

  router.get('/docs/init.js', (ctx) => {
    ctx.set({ 'X-Content-Type-Options': 'nosniff', 'Cache-Control': 'no-cache' });
    ctx.type = 'application/javascript; charset=utf-8';
    ctx.body = DOCS_INIT;
  });

  router.get('/docs/redoc.standalone.js', async (ctx) => {
    redocBundle ??= readFile(REDOC_BUNDLE);
    ctx.set({ 'X-Content-Type-Options': 'nosniff', 'Cache-Control': 'public, max-age=3600' });
    ctx.type = 'application/javascript; charset=utf-8';
    ctx.body = await redocBundle;
  });

  return router;
}
