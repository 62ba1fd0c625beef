// The session cookie `qr_session`: HttpOnly (no script reads it), SameSite=Lax (not sent on
// cross-site POSTs), Path=/, and Secure unless the service is served over plain http on the
// loopback (a development machine). Written by hand rather than through Koa's cookies, which
// refuse a Secure cookie when the request came in over http behind a TLS-terminating proxy.
// Beside it goes `qr_signed_in=1`, readable by script and holding nothing secret: the dashboard
// asks the server for the session (GET /v1/session) only when it is there, so that a signed-out
// visitor's page does not start with a refused request.
import { SESSION_COOKIE } from '../shared/session-token.ts';
import type { AppContext } from './context.ts';

const LOOPBACK = new Set(['localhost', '127.0.0.1', '[::1]']);
/** Says that the browser holds a session cookie; see above. */
export const SIGNED_IN_HINT = 'qr_signed_in';

export interface SessionCookie {
  /** Sets the cookie for `maxAgeSeconds` (the session's absolute lifetime: it survives browser restarts). */
  set(ctx: AppContext, token: string, maxAgeSeconds: number): void;
  /** Tells the browser to drop the cookie. */
  clear(ctx: AppContext): void;
  /** The cookie's value on the request, if any. */
  read(ctx: AppContext): string | undefined;
}

export function sessionCookie(publicBaseUrl: string): SessionCookie {
  const url = new URL(publicBaseUrl);
  const secure = !(url.protocol === 'http:' && LOOPBACK.has(url.hostname));
  const hintAttributes = `Path=/; SameSite=Lax${secure ? '; Secure' : ''}`;
  const attributes = `${hintAttributes}; HttpOnly`;
  return {
    set(ctx, token, maxAgeSeconds) {
      ctx.append('Set-Cookie', `${SESSION_COOKIE}=${token}; Max-Age=${maxAgeSeconds}; ${attributes}`);
      ctx.append('Set-Cookie', `${SIGNED_IN_HINT}=1; Max-Age=${maxAgeSeconds}; ${hintAttributes}`);
    },
    clear(ctx) {
      ctx.append('Set-Cookie', `${SESSION_COOKIE}=; Max-Age=0; ${attributes}`);
      ctx.append('Set-Cookie', `${SIGNED_IN_HINT}=; Max-Age=0; ${hintAttributes}`);
    },
    read: (ctx) => ctx.cookies.get(SESSION_COOKIE) || undefined,
  };
}
