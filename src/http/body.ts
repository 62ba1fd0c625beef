// JSON request bodies: 415 for anything but JSON, 400 for malformed JSON, 413 over the limit.
import parse from 'co-body';
import type { Middleware } from 'koa';
import { DomainError } from '../shared/errors.ts';
import type { AppState } from './context.ts';

declare module 'koa' {
  interface Request {
    body?: unknown;
  }
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
    ctx.request.body = await parse.json(ctx, { limit: limitBytes, strict: true });
    await next();
  };
}
