// The public scan redirect in the OpenAPI document. It is answered at the server's root, before
// the versioned API (scan-route.ts), needs no credential, and is what a code's scan URL points at.
import { z } from 'zod';
import type { ZodOpenApiOperationObject, ZodOpenApiResponseObject } from 'zod-openapi';
import { problemSchema, ROOT_SERVER, type OpenApiModule } from '../../http/openapi/common.ts';
import { retryAfterHeader } from '../../http/openapi/headers.ts';
import { PROBLEM_CONTENT_TYPE } from '../../http/problem.ts';
import { CUSTOM_SLUG } from '../codes/index.ts';

const TAG = 'Scans';

// Every slug a code can have: random ones (7 base62 characters) are custom slugs' shape too.
const slugParams = z.object({
  slug: z
    .string()
    .regex(CUSTOM_SLUG)
    .meta({
      description:
        'The code’s slug: the path of its `scan_url`. Random slugs are 7 characters of `A-Z a-z 0-9`; custom ones ' +
        '3-64 of `A-Z a-z 0-9 _ -`. The server’s own paths (`v1`, `graphql`, `healthz`, `docs`, …) are never slugs.',
      example: 'aB3dE5f',
    }),
});

const redirectHeaders = z.object({
  Location: z.string().meta({
    description: 'Where the scan goes: the destination the code’s routing chose, or a fallback.',
    example: 'https://example.com/spring',
  }),
  'Cache-Control': z.string().meta({
    description: 'Every scan must reach the server, so the answer is not reused.',
    example: 'private, max-age=0',
  }),
});

function redirect(description: string): ZodOpenApiResponseObject {
  return { description, headers: redirectHeaders };
}

const htmlPage = (description: string) => ({ schema: z.string().meta({ description }) });

// The scan limit counts scans per visitor address, not a credential's points: its own headers,
// present on every 429 since only an enabled limit refuses.
const limitHeaders = z.object({
  'Retry-After': retryAfterHeader,
  'RateLimit-Limit': z.int().min(0).meta({ description: 'Scans allowed per minute from one address.', example: 6000 }),
  'RateLimit-Remaining': z.int().min(0).meta({ example: 0 }),
  'RateLimit-Reset': z.int().min(0).meta({ description: 'Seconds until the window resets.', example: 42 }),
});

/** GET's answers; HEAD's are the same without bodies. */
const responses: Record<string, ZodOpenApiResponseObject> = {
  '302': redirect(
    'To the chosen destination (the default redirect status); for a paused or archived code, to its ' +
      '`paused_destination`; for an expired or used-up one (`expires_at`, `max_scans`), to its ' +
      '`expired_destination`. Routing rules do not apply to those fallbacks; forward_query does.',
  ),
  '301': redirect('To the chosen destination, when SCAN_REDIRECT_STATUS is 301.'),
  '307': redirect('To the chosen destination, when SCAN_REDIRECT_STATUS is 307.'),
  '404': {
    description:
      'No active code has this slug: it never existed, or the code was deleted (static codes have no scan URL); or ' +
      'the code is paused or archived and has no `paused_destination` (problem type `/problems/code-paused`; a ' +
      '404, not a 410, because a pause is temporary). The scan of a paused code is recorded, with outcome ' +
      '`paused`.',
    content: {
      'text/html': htmlPage('A short page saying the code is not active, or that it is paused.'),
      [PROBLEM_CONTENT_TYPE]: { schema: problemSchema },
    },
  },
  '410': {
    description:
      'The code expired (`expires_at` passed) or reached `max_scans`, and has no `expired_destination` (problem ' +
      'type `/problems/code-expired`). The scan is recorded, with outcome `expired` or `limit_reached`. Each use ' +
      'of `max_scans` is claimed in the database before the redirect, so exactly `max_scans` scans go to the ' +
      'destination across every instance.',
    content: {
      'text/html': htmlPage('A short page saying the code has expired.'),
      [PROBLEM_CONTENT_TYPE]: { schema: problemSchema },
    },
  },
  '429': {
    description: 'Too many scans from this address in the last minute; unknown slugs count too.',
    headers: limitHeaders,
    content: {
      'text/html': htmlPage('A short page asking to try again in a minute.'),
      [PROBLEM_CONTENT_TYPE]: { schema: problemSchema },
    },
  },
  '503': {
    description:
      'The code could not be looked up, or a use of its `max_scans` could not be claimed (the database did not ' +
      'answer); try again shortly.',
    headers: z.object({ 'Retry-After': retryAfterHeader }),
    content: { [PROBLEM_CONTENT_TYPE]: { schema: problemSchema } },
  },
};

/** HEAD's answers: GET's without their bodies. */
const withoutBodiesOf = (answers: Record<string, ZodOpenApiResponseObject>) =>
  Object.fromEntries(Object.entries(answers).map(([status, { content: _body, ...response }]) => [status, response]));

function scanOperation(method: 'get' | 'head'): ZodOpenApiOperationObject {
  const get = method === 'get';
  return {
    operationId: get ? 'scanCode' : 'checkScanCode',
    summary: get ? 'Scan a code (the redirect)' : 'Check a scan URL without scanning',
    description: get
      ? 'What a phone opens when it scans a url code: a redirect to the destination that the code’s routing picks ' +
        'for this visitor (by country, device, time, language, address and query string), else to the code’s ' +
        'content. The scan is recorded for analytics. The redirect status is 302 unless the server sets ' +
        'SCAN_REDIRECT_STATUS to 301 or 307. Errors are small HTML pages for browsers, or problems when Accept ' +
        'asks for JSON. Scans per visitor address are rate limited (SCAN_RATE_LIMIT_PER_MINUTE). On an account’s ' +
        'verified domain (the `Host` header), the slug is looked up among that domain’s codes, and an unknown slug ' +
        'redirects (302, no scan recorded) to the domain’s `fallback_url` when it has one; any other Host is the ' +
        'service’s own domain.'
      : 'Answers like GET, without a body, and records no scan: for link checkers and previews.',
    tags: [TAG],
    security: [],
    requestParams: { path: slugParams },
    responses: get ? responses : withoutBodiesOf(responses),
  };
}

const rootResponses: Record<string, ZodOpenApiResponseObject> = {
  '302': redirect(
    'The service’s own host (any `Host` that is not a verified domain): to `ROOT_REDIRECT_URL`, the dashboard ' +
      '(`/dashboard`) unless the operator set another page. A verified domain with a `fallback_url`: to it. No ' +
      'scan is recorded.',
  ),
  '404': {
    description: 'The `Host` is a verified domain without a `fallback_url`.',
    content: { [PROBLEM_CONTENT_TYPE]: { schema: problemSchema } },
  },
};

function rootOperation(method: 'get' | 'head'): ZodOpenApiOperationObject {
  const get = method === 'get';
  return {
    operationId: get ? 'openDomainRoot' : 'checkDomainRoot',
    summary: get ? 'Open the root: the dashboard, or an own domain’s fallback' : 'Check the root',
    description:
      'The bare address of the service redirects to its dashboard (or the page `ROOT_REDIRECT_URL` names). The ' +
      'bare address of an account’s verified domain (the `Host` header), typed in or scanned from a code printed ' +
      'without its path, redirects to the domain’s `fallback_url`.' +
      (get ? '' : ' Answers like GET, without a body.'),
    tags: [TAG],
    security: [],
    responses: get ? rootResponses : withoutBodiesOf(rootResponses),
  };
}

export const scansOpenApi: OpenApiModule = {
  tag: {
    name: TAG,
    description:
      'The public scan URL of a url code: it records the scan and redirects to the destination its routing picks. ' +
      'No credential needed.',
  },
  paths: {
    '/': {
      servers: ROOT_SERVER,
      get: rootOperation('get'),
      head: rootOperation('head'),
    },
    '/{slug}': {
      servers: ROOT_SERVER,
      get: scanOperation('get'),
      head: scanOperation('head'),
    },
  },
};
