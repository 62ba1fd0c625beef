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

const unlockPageContent = {
  'text/html': htmlPage(
    'The unlock page: a form with one password field that posts back to the scan URL (no script, nothing loaded ' +
      'from elsewhere; `Content-Security-Policy` allows only an inline style and a form post to the same origin).',
  ),
};

/** GET's answers; HEAD's are the same without bodies. */
const responses: Record<string, ZodOpenApiResponseObject> = {
  '200': {
    description:
      'The code has a hosted `page` and no routing rule matched: the page (docs/pages.md), recorded as a scan; an ' +
      'app download page sends iOS and Android to their store (302) first. Or the code is password protected ' +
      '(`password_protected`) and the request carries no valid unlock cookie: the unlock page. A GET of it is a ' +
      'locked view, counted apart from scans (`locked_views` in the code’s analytics; webhooks and the live ' +
      'stream send it with outcome `locked`). With a valid cookie the scan is answered as for any code. Paused, ' +
      'expired and used-up codes answer as usual, without asking. Or: the code has a `preview` and the ' +
      'User-Agent is a link-preview crawler (isbot’s list): a page of Open Graph and Twitter card tags with one ' +
      'plain link (to the destination, or to the scan URL for a password-protected code), nothing loaded or run; ' +
      'recorded as a bot scan (a locked view for a password-protected code).',
    content: {
      'text/html': htmlPage(
        'The hosted page, the unlock page or, for a crawler, the preview page: no script, nothing loaded from ' +
          'elsewhere (`Content-Security-Policy`).',
      ),
    },
  },
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

const unlockForm = z.object({
  password: z.string().meta({ description: 'The code’s password, as typed.', example: 'spring-2026' }),
});

const unlockPageResponse = (description: string, headers?: z.ZodObject): ZodOpenApiResponseObject => ({
  description,
  ...(headers ? { headers } : {}),
  content: unlockPageContent,
});

const unlockOperation: ZodOpenApiOperationObject = {
  operationId: 'unlockCode',
  summary: 'Give a password-protected code its password (the unlock form)',
  description:
    'What the unlock page’s form posts. Tries are limited per code and visitor address ' +
    '(UNLOCK_ATTEMPTS_PER_MINUTE, shared through Redis when REDIS_URL is set). The right password sets the ' +
    '`qr_unlock` cookie (signed, HttpOnly, SameSite=Lax, scoped to the scan URL’s path, for ' +
    'UNLOCK_REMEMBER_SECONDS) and redirects as the scan: routing rules, `max_scans` and `forward_query` apply, ' +
    'and the scan is recorded. A POST to a code without a password is sent to its GET (303).',
  tags: [TAG],
  security: [],
  requestParams: { path: slugParams },
  requestBody: { content: { 'application/x-www-form-urlencoded': { schema: unlockForm } } },
  responses: {
    '200': {
      description: 'The right password, for a code with a hosted `page`: the page itself, with `Set-Cookie`.',
      content: { 'text/html': htmlPage('The hosted page (docs/pages.md).') },
    },
    '303': {
      description:
        'The right password: to the destination the code’s routing chose (always 303, so that the browser follows ' +
        'with a GET), with `Set-Cookie`. For a code without a password: to the scan URL itself.',
      headers: redirectHeaders.extend({
        'Set-Cookie': z.string().optional().meta({
          description: 'After the right password: the unlock, remembered as `qr_unlock=<expiry>.<signature>`.',
          example: 'qr_unlock=1767225600.Zx9…; Path=/aB3dE5f; Max-Age=86400; HttpOnly; SameSite=Lax; Secure',
        }),
      }),
    },
    '400': unlockPageResponse('No password was given (or the body was not a form of at most 4 KB): the page again.'),
    '403': unlockPageResponse('The password is not right: the page again, saying so. No scan is recorded.'),
    '404': {
      description: 'No active code has this slug.',
      content: { 'text/html': htmlPage('A short page saying the code is not active.') },
    },
    '429': unlockPageResponse(
      'Too many tries for this code from this address in the last minute: the page, saying how long to wait.',
      limitHeaders,
    ),
    '503': responses['503']!,
  },
};

function contactOperation(method: 'get' | 'head'): ZodOpenApiOperationObject {
  const get = method === 'get';
  const found: ZodOpenApiResponseObject = {
    description:
      'The business card page’s vCard 4.0, as an attachment named after the person. Not a scan: the page’s view ' +
      'was. A protected code’s needs its unlock cookie.',
    ...(get
      ? { content: { 'text/vcard': { schema: z.string().meta({ example: 'BEGIN:VCARD\r\nVERSION:4.0…' }) } } }
      : {}),
  };
  return {
    operationId: get ? 'downloadContact' : 'checkContact',
    summary: get ? 'Download a business card’s contact (vCard)' : 'Check a business card’s contact',
    description:
      'The "Save contact" link of a code whose `page` is a business card.' +
      (get ? '' : ' Answers like GET, without a body.'),
    tags: [TAG],
    security: [],
    requestParams: { path: slugParams },
    responses: {
      '200': found,
      '404': {
        description:
          'No active code has this slug, its page is not a business card, or it is protected and the request has ' +
          'no valid unlock cookie.',
        ...(get ? { content: { 'text/html': htmlPage('A short page saying the code is not active.') } } : {}),
      },
    },
  };
}

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
      post: unlockOperation,
    },
    '/{slug}/contact.vcf': {
      servers: ROOT_SERVER,
      get: contactOperation('get'),
      head: contactOperation('head'),
    },
  },
};
