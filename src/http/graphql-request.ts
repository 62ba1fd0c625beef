// What /graphql takes and answers (GraphQL over HTTP), checked before yoga runs anything. yoga
// answers an unsupported Content-Type with a bodiless 415 (which Koa turns into a 204), and an
// Accept it cannot serve with a bodiless 406 only after executing the operation, so a mutation
// would have run behind an error.
import { DomainError } from '../shared/errors.ts';
import type { AppContext } from './context.ts';

/**
 * The answers yoga can give, each in UTF-8 only: one result (the spec's media type, then the
 * legacy one), a subscription over server-sent events, incremental delivery.
 */
const ANSWER_TYPES = ['application/graphql-response+json', 'application/json', 'text/event-stream', 'multipart/mixed'];

function unsupportedBody(contentType: string): DomainError {
  return new DomainError(
    'unsupported_media_type',
    'Send a GraphQL request as JSON ({"query", "variables", "operationName", "extensions"}) with Content-Type: ' +
      `application/json (UTF-8), or as GET query parameters (got ${contentType ? `'${contentType}'` : 'none'}).`,
  );
}

export function notAcceptable(accept: string): DomainError {
  return new DomainError(
    'not_acceptable',
    `GraphQL answers in ${ANSWER_TYPES.join(', ')} (UTF-8), which Accept '${accept}' refuses.`,
  );
}

/**
 * A POST carries JSON in UTF-8 and nothing else (yoga would also take a form, multipart or a bare
 * document): the edge reads the body as UTF-8 and checks its nesting as JSON, which an encoded
 * form would hide, and one body format is one to document and test.
 */
function checkBodyType(ctx: AppContext): void {
  if (ctx.method !== 'POST') return;
  const charset = ctx.request.charset.toLowerCase();
  if (ctx.request.type.trim().toLowerCase() !== 'application/json' || (charset !== '' && charset !== 'utf-8')) {
    throw unsupportedBody(ctx.get('Content-Type'));
  }
  // Media types are case-insensitive, yoga's match is not; what is read here is UTF-8 JSON.
  ctx.req.headers['content-type'] = 'application/json';
}

/**
 * Refuses a request in a method other than GET and POST, whose body /graphql cannot read, or
 * whose answer the client would not accept.
 */
export function checkGraphQLRequest(ctx: AppContext): void {
  if (ctx.method !== 'GET' && ctx.method !== 'POST') {
    ctx.set('Allow', 'GET, POST');
    throw new DomainError('method_not_allowed', `GraphQL is served over GET and POST (got ${ctx.method}).`);
  }
  checkBodyType(ctx);
  // Offered with the charset, so an Accept that names another charset does not match.
  if (!ctx.accepts(ANSWER_TYPES.map((type) => `${type}; charset=utf-8`))) throw notAcceptable(ctx.get('Accept'));
}
