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

/** Secure unless served over plain http on the loopback (a development machine). */
function secureFor(publicBaseUrl: string): boolean {
  const url = new URL(publicBaseUrl);
  return !(url.protocol === 'http:' && LOOPBACK.has(url.hostname));
}

export function sessionCookie(publicBaseUrl: string): SessionCookie {
  const secure = secureFor(publicBaseUrl);
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

/** The state of a single sign-on under way, kept by the browser between start and callback. */
export const SSO_STATE_COOKIE = 'qr_sso_state';

/**
 * The SSO state cookie: HttpOnly, SameSite=Lax (the provider's redirect back is a top-level GET,
 * which Lax lets through), only on /v1/sso, ten minutes. Binds the sign-in to the browser that
 * started it, so a callback link sent to someone else signs nobody in.
 */
export function ssoStateCookie(publicBaseUrl: string) {
  const secure = secureFor(publicBaseUrl);
  const attributes = `Path=/v1/sso; SameSite=Lax; HttpOnly${secure ? '; Secure' : ''}`;
  return {
    set: (ctx: AppContext, state: string, maxAgeSeconds: number) =>
      ctx.append('Set-Cookie', `${SSO_STATE_COOKIE}=${state}; Max-Age=${maxAgeSeconds}; ${attributes}`),
    clear: (ctx: AppContext) => ctx.append('Set-Cookie', `${SSO_STATE_COOKIE}=; Max-Age=0; ${attributes}`),
    read: (ctx: AppContext) => ctx.cookies.get(SSO_STATE_COOKIE) || undefined,
  };
}
