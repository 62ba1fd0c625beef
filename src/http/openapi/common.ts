// Building blocks of the OpenAPI document that every module's openapi.ts uses: the problem
// body, the answers every authenticated call may get, parameters, lists, and `operation()`,
// which adds what the edge does to every route (auth, scope, rate limit, body parsing) so a
// module only describes its own behaviour.
import { z } from 'zod';
import type {
  ZodOpenApiOperationObject,
  ZodOpenApiPathsObject,
  ZodOpenApiResponseObject,
  ZodOpenApiResponsesObject,
} from 'zod-openapi';
import type { Scope } from '../../shared/principal.ts';
import { PROBLEM_CONTENT_TYPE } from '../problem.ts';
import {
  edgeHeaders,
  idempotentReplayedHeader,
  rateLimitHeaders,
  retryAfterHeader,
  scopeChallengeHeader,
  withHeaders,
  wwwAuthenticateHeader,
} from './headers.ts';

/** One module's part of the document: its tag and its operations (paths relative to the version). */
export interface OpenApiModule {
  tag: { name: string; description: string };
  paths: ZodOpenApiPathsObject;
  /** Requests this service sends (OpenAPI 3.1 `webhooks`), keyed by event name. */
  webhooks?: ZodOpenApiPathsObject;
}

/** Paths answered at the server's root rather than under a version (health, the scan redirect). */
export const ROOT_SERVER = [{ url: '/', description: 'The server root, outside the versioned API' }];

export const fieldErrorSchema = z
  .object({
    path: z
      .string()
      .meta({ description: 'Dotted path into the input; empty for the body as a whole.', example: 'design.fg_color' }),
    message: z.string().meta({ example: 'must be a color in the form #rrggbb' }),
  })
  .meta({ id: 'FieldError' });

export const problemSchema = z
  .object({
    type: z
      .string()
      .meta({ description: 'A relative URI per kind of problem.', example: '/problems/validation-failed' }),
    title: z.string().meta({ example: 'Validation failed' }),
    status: z.int().meta({ example: 422 }),
    detail: z.string().meta({ example: 'design.fg_color: must be a color in the form #rrggbb' }),
    instance: z.string().optional().meta({ description: 'The request path.', example: '/v1/codes' }),
    request_id: z.string().optional().meta({ description: 'Also in the X-Request-Id header and the server log.' }),
    errors: z.array(fieldErrorSchema).optional().meta({ description: 'Every invalid field at once (422 only).' }),
    supported_versions: z
      .array(z.string())
      .optional()
      .meta({ description: 'On a 404 for an API version that does not exist.' }),
    challenge: z.string().optional().meta({
      description:
        'On a 401 `/problems/second-factor-required`: send it with the code to POST /v1/sessions/second-factor.',
    }),
    challenge_expires_at: z.iso
      .datetime()
      .optional()
      .meta({ description: 'With `challenge`: after this (5 minutes) the password is needed again.' }),
  })
  .meta({ id: 'Problem', description: 'An RFC 9457 problem: the one error body of the REST API.' });

/** The problem answers, by status, each a reusable component. */
const PROBLEMS = {
  400: ['BadRequest', 'The body is not valid JSON, or the request is malformed.'],
  401: ['Unauthorized', 'No credential, or one that is unknown, expired or revoked (WWW-Authenticate: Bearer).'],
  403: ['Forbidden', 'The credential lacks the scope this operation needs (WWW-Authenticate names it).'],
  404: ['NotFound', 'No such resource in this account; another account’s resources are never visible.'],
  409: ['Conflict', 'The request conflicts with the current state (e.g. an Idempotency-Key reused with another body).'],
  413: ['PayloadTooLarge', 'The body is larger than the limit.'],
  415: ['UnsupportedMediaType', 'The Content-Type is not one this operation accepts.'],
  422: ['ValidationFailed', 'The input is invalid; `errors` lists every problem.'],
  429: [
    'TooManyRequests',
    'Over the rate limit, or past the expensive calls (analytics, raw exports, bulk imports) the account may run ' +
      'and queue at once (HEAVY_CALLS_PER_ACCOUNT, HEAVY_QUEUE_PER_ACCOUNT); Retry-After says when to try again.',
  ],
  501: ['NotImplemented', 'The service is not set up for this (a password reset by mail: SMTP_URL is not set).'],
  503: [
    'ServiceUnavailable',
    'A read ran past its statement timeout (ANALYTICS_STATEMENT_TIMEOUT_MS) and was stopped, so that it would not ' +
      'hold the database; Retry-After says when to try again, or ask for less (a shorter range).',
  ],
} as const;
export type ProblemStatus = keyof typeof PROBLEMS;

const problemResponses = new Map<ProblemStatus, ZodOpenApiResponseObject>();

/** The problem answer for a status, registered once as a component and referenced after. */
export function problemResponse(status: ProblemStatus): ZodOpenApiResponseObject {
  let response = problemResponses.get(status);
  if (!response) {
    const [id, description] = PROBLEMS[status];
    // A 401 was charged to no credential, so it carries the challenge instead of the rate limit.
    const headers =
      status === 401
        ? { ...edgeHeaders, 'WWW-Authenticate': wwwAuthenticateHeader }
        : {
            ...edgeHeaders,
            ...rateLimitHeaders,
            ...(status === 403 ? { 'WWW-Authenticate': scopeChallengeHeader } : {}),
            ...(status === 429 || status === 503 ? { 'Retry-After': retryAfterHeader } : {}),
          };
    response = { id, description, content: { [PROBLEM_CONTENT_TYPE]: { schema: problemSchema } } };
    response.headers = z.object(headers);
    problemResponses.set(status, response);
  }
  return response;
}

/** A JSON answer. */
export function jsonResponse(schema: z.ZodType, description: string): ZodOpenApiResponseObject {
  return { description, content: { 'application/json': { schema } } };
}

export const noContent: ZodOpenApiResponseObject = { description: 'Done; no body.' };

/** `{ object: "list", data, next_cursor }`: every paginated answer. */
export function listOf(item: z.ZodType, id: string) {
  return z
    .object({
      object: z.literal('list'),
      data: z.array(item),
      next_cursor: z
        .string()
        .nullable()
        .meta({ description: 'Pass as `cursor` for the next page; null on the last page.' }),
    })
    .meta({ id });
}

/** Path parameters, each a non-empty string with an example id. */
export function pathParams<K extends string>(params: Record<K, { description: string; example: string }>) {
  const shape = Object.fromEntries(
    Object.entries<{ description: string; example: string }>(params).map(([name, meta]) => [
      name,
      z.string().min(1).meta(meta),
    ]),
  );
  return z.object(shape as Record<K, z.ZodString>);
}

export const idempotencyKeyHeader = z.object({
  'Idempotency-Key': z
    .string()
    .regex(/^[\x21-\x7e]{1,191}$/)
    .optional()
    .meta({
      description:
        'Retrying with the same key answers the first result (with `Idempotent-Replayed: true`) instead of acting ' +
        'again; the same key with another body is a 422, and a 409 while the first request is still running.',
    }),
});

export interface OperationSpec extends Omit<ZodOpenApiOperationObject, 'responses' | 'security' | 'tags'> {
  operationId: string;
  summary: string;
  tag: string;
  scope: Scope;
  responses: ZodOpenApiResponsesObject;
  /** Problem statuses of this operation beyond those every authenticated call may get. */
  problems?: ProblemStatus[];
}

/**
 * An authenticated operation. Adds the security requirement for its scope, the problems the
 * edge answers for every route (401, 403 and 429, and 400/413/415 when it takes a body) and the
 * headers the edge sets on every answer (headers.ts).
 */
export function operation({ tag, scope, problems = [], responses, ...rest }: OperationSpec): ZodOpenApiOperationObject {
  const statuses = new Set<ProblemStatus>([401, 403, 429, ...problems]);
  if (rest.requestBody) for (const status of [400, 413, 415] as const) statuses.add(status);
  const idempotent = rest.requestParams?.header === idempotencyKeyHeader;
  const successHeaders = {
    ...edgeHeaders,
    ...rateLimitHeaders,
    ...(idempotent ? { 'Idempotent-Replayed': idempotentReplayedHeader } : {}),
  };
  const all: ZodOpenApiResponsesObject = Object.fromEntries(
    Object.entries(responses).map(([status, response]) => [status, withHeaders(response, successHeaders)]),
  );
  for (const status of [...statuses].sort()) all[`${status}`] = problemResponse(status);
  // A session cookie works too, with the scopes of the person's role in the workspace.
  const security: Record<string, string[]>[] = [{ ApiKey: [scope] }, { OAuth2: [scope] }, { Session: [scope] }];
  return { ...rest, tags: [tag], security, responses: all };
}

/**
 * An operation of a signed-in person (their sessions, profile, workspaces, members): a session
 * cookie, no scope; or, `anonymous`, one that needs no credential (sign-in, setup).
 */
export function personOperation({
  tag,
  problems = [],
  responses,
  anonymous = false,
  ...rest
}: Omit<OperationSpec, 'scope'> & { anonymous?: boolean }): ZodOpenApiOperationObject {
  const statuses = new Set<ProblemStatus>([...(anonymous ? [] : ([401, 403] as const)), ...problems]);
  if (rest.requestBody) for (const status of [400, 413, 415] as const) statuses.add(status);
  const all: ZodOpenApiResponsesObject = Object.fromEntries(
    Object.entries(responses).map(([status, response]) => [status, withHeaders(response, edgeHeaders)]),
  );
  for (const status of [...statuses].sort()) all[`${status}`] = problemResponse(status);
  return { ...rest, tags: [tag], security: anonymous ? [] : [{ Session: [] }], responses: all };
}

/** One operation of a resource's set: what differs between modules. */
export interface ResourceOperationDoc {
  operationId: string;
  summary: string;
  description?: string;
  /** Problem statuses beyond those every authenticated call may get. */
  problems: ProblemStatus[];
  /** The description of the success answer. */
  answered: string;
}

/** A resource answered at /things and /things/{id} the usual way: create, list, get, update, delete. */
export interface ResourceDoc {
  tag: string;
  /** The resource's JSON. */
  resource: z.ZodType;
  /** The `{id}` path parameter. */
  idParams: z.ZodObject;
  read: Scope;
  write: Scope;
  /** POST /things: 201 with the Location header; `answer` when it is not the resource itself. */
  create: ResourceOperationDoc & { body: z.ZodType; location: z.ZodObject; answer?: z.ZodType };
  /** GET /things: a `listOf` page named `listId`. */
  list: ResourceOperationDoc & { query?: z.ZodObject; listId: string };
  get: ResourceOperationDoc;
  /** PATCH /things/{id}. */
  update: ResourceOperationDoc & { body: z.ZodType };
  /** DELETE /things/{id}: 204. */
  remove: Omit<ResourceOperationDoc, 'answered'>;
}

/** The path items of a resource's five usual operations, for `paths['/things']` and `paths['/things/{id}']`. */
export function resourceOperations({
  tag,
  resource,
  idParams,
  read,
  write,
  create,
  list,
  get,
  update,
  remove,
}: ResourceDoc) {
  const described = ({ operationId, summary, description }: Omit<ResourceOperationDoc, 'problems' | 'answered'>) => ({
    operationId,
    summary,
    ...(description === undefined ? {} : { description }),
    tag,
  });
  const body = (schema: z.ZodType) => ({ required: true, content: { 'application/json': { schema } } });
  return {
    collection: {
      post: operation({
        ...described(create),
        scope: write,
        requestBody: body(create.body),
        responses: { '201': { ...jsonResponse(create.answer ?? resource, create.answered), headers: create.location } },
        problems: create.problems,
      }),
      get: operation({
        ...described(list),
        scope: read,
        ...(list.query ? { requestParams: { query: list.query } } : {}),
        responses: { '200': jsonResponse(listOf(resource, list.listId), list.answered) },
        problems: list.problems,
      }),
    },
    item: {
      get: operation({
        ...described(get),
        scope: read,
        requestParams: { path: idParams },
        responses: { '200': jsonResponse(resource, get.answered) },
        problems: get.problems,
      }),
      patch: operation({
        ...described(update),
        scope: write,
        requestParams: { path: idParams },
        requestBody: body(update.body),
        responses: { '200': jsonResponse(resource, update.answered) },
        problems: update.problems,
      }),
      delete: operation({
        ...described(remove),
        scope: write,
        requestParams: { path: idParams },
        responses: { '204': noContent },
        problems: remove.problems,
      }),
    },
  };
}
