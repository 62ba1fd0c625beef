// Files compressed ahead of time (the dashboard's, at build; GraphiQL's, once in memory): the
// variant the client accepts, chosen like koa-compress chooses (brotli before gzip), and
// `Vary: Accept-Encoding` on every answer so that caches keep the variants apart.
import type { AppContext } from './context.ts';

export type Precompressed = 'br' | 'gzip';

/** Which of the `available` encodings to send, or null for the identity bytes. */
export function chooseEncoding(ctx: AppContext, available: readonly Precompressed[]): Precompressed | null {
  ctx.vary('Accept-Encoding');
  if (available.length === 0) return null;
  const chosen = ctx.acceptsEncodings([...available, 'identity']);
  return chosen === 'br' || chosen === 'gzip' ? chosen : null;
}
