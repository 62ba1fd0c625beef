// The response headers the edge sends, as reusable components (components/headers) that every
// operation's answers reference, so a client or proxy can read and check them. Whether each is
// `required` says whether every such answer carries it: the Koa answers always name their
// version and request id; the rate-limit headers only come when the limit is on
// (RATE_LIMIT_PER_MINUTE > 0) and the call was charged to a credential.
import { z } from 'zod';
import { API_VERSIONS } from '../versions.ts';

export const apiVersionHeader = z.enum(API_VERSIONS).meta({
  description: 'The version that answered: the one in the path, else the current one.',
  example: 'v1',
  header: { id: 'ApiVersion' },
});

export const requestIdHeader = z
  .string()
  .regex(/^[\w.:-]{1,64}$/)
  .meta({
    description: 'The request’s id in the server log: the caller’s X-Request-Id when it is sane, else a new UUID.',
    header: { id: 'RequestId' },
  });

const points = (description: string, id: string) => z.int().min(0).optional().meta({ description, header: { id } });

/** On every Koa answer, whichever operation: what the version and request-log middleware set first. */
export const edgeHeaders = { 'API-Version': apiVersionHeader, 'X-Request-Id': requestIdHeader };

/** On an authenticated answer when the rate limit is on; in points (a plain call is 1, docs/graphql.md). */
export const rateLimitHeaders = {
  'RateLimit-Limit': points('Points the credential may spend per minute.', 'RateLimitLimit'),
  'RateLimit-Remaining': points('Points left in the current window.', 'RateLimitRemaining'),
  'RateLimit-Reset': points('Seconds until the window resets.', 'RateLimitReset'),
};

export const retryAfterHeader = z
  .int()
  .min(1)
  .meta({ description: 'Seconds to wait before trying again.', example: 42, header: { id: 'RetryAfter' } });

export const wwwAuthenticateHeader = z.string().meta({
  description: 'The Bearer challenge (RFC 6750); on a missing scope it names the scope.',
  example: 'Bearer realm="qr-service"',
  header: { id: 'WWWAuthenticate' },
});

/** On a 403 for a missing scope; other refusals (an action the account may not take) have none. */
export const scopeChallengeHeader = z
  .string()
  .optional()
  .meta({
    description: 'The Bearer challenge naming the scope the call needs (RFC 6750 insufficient_scope).',
    example: 'Bearer realm="qr-service", error="insufficient_scope", scope="codes:write"',
    header: { id: 'ScopeChallenge' },
  });

export const idempotentReplayedHeader = z
  .literal('true')
  .optional()
  .meta({
    description: 'On a retry with the same Idempotency-Key: this is the first call’s answer.',
    header: { id: 'IdempotentReplayed' },
  });

/** A response with more headers: a module's own (a zod object, or none) extended by `extra`. */
export function withHeaders<R extends { headers?: unknown }>(response: R, extra: z.ZodRawShape): R {
  const own = response.headers;
  if (own !== undefined && !(own instanceof z.ZodObject))
    throw new Error('OpenAPI response headers must be a zod object to be extended');
  return { ...response, headers: own ? own.extend(extra) : z.object(extra) };
}
