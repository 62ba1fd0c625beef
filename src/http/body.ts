// JSON request bodies: 415 for anything but JSON, 400 for malformed JSON or nesting deeper than
// MAX_JSON_DEPTH, 413 over the limit.
import parse from 'co-body';
import type { Middleware } from 'koa';
import { DomainError } from '../shared/errors.ts';
import type { AppState } from './context.ts';

declare module 'koa' {
  interface Request {
    body?: unknown;
  }
}

/**
 * Deepest nesting of objects and arrays a JSON body may have. No input of the API comes close;
 * a deeper body can only be an attack on code that walks it recursively (validation, logging).
 */
export const MAX_JSON_DEPTH = 32;

/** True when JSON text nests objects or arrays deeper than `max`: one linear scan, no recursion. */
export function jsonDepthExceeds(text: string, max: number = MAX_JSON_DEPTH): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c)
        i++; // backslash: skip the escaped character
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x7b || c === 0x5b) {
      if (++depth > max) return true;
    } else if (c === 0x7d || c === 0x5d) depth--;
  }
  return false;
}

export function tooDeep(): DomainError {
  return new DomainError('bad_request', `The JSON body nests objects and arrays deeper than ${MAX_JSON_DEPTH} levels.`);
}

export function hasBody(ctx: { get(name: string): string }): boolean {
  const length = ctx.get('Content-Length');
  return ctx.get('Transfer-Encoding') !== '' || (length !== '' && length !== '0');
}

export function jsonBody(limitBytes: number): Middleware<AppState> {
  return async (ctx, next) => {
    if (!hasBody(ctx)) {
      throw new DomainError('bad_request', 'This request needs a JSON body.');
    }
    if (!ctx.is('application/json', '+json')) {
      throw new DomainError(
        'unsupported_media_type',
        `Send the body as JSON with Content-Type: application/json (got '${ctx.get('Content-Type') || 'none'}').`,
      );
    }
    // strict: only objects and arrays at the top level, as JSON APIs expect.
    const { parsed, raw } = await parse.json(ctx, { limit: limitBytes, strict: true, returnRawBody: true });
    if (jsonDepthExceeds(raw)) throw tooDeep();
    ctx.request.body = parsed;
    await next();
  };
}
