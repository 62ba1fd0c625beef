// Client-side routes under /dashboard. The server answers index.html for every path under it,
// so each page has a real URL (reload, back, share) and navigation uses the History API.
import { useEffect, useState } from 'preact/hooks';

export const BASE = '/dashboard';

export type Route =
  | { page: 'codes' }
  | { page: 'new-code' }
  | { page: 'code'; id: string }
  | { page: 'code-analytics'; id: string }
  | { page: 'analytics' }
  | { page: 'bulk' }
  | { page: 'import' }
  | { page: 'connected-apps' }
  | { page: 'domains' }
  | { page: 'audit-log' }
  | { page: 'members' }
  /** The signed-in person's password, sessions and second factor (pages/profile.tsx). */
  | { page: 'profile' }
  /** Where the OAuth server sends the browser back after the consent page (oauth/callback.ts). */
  | { page: 'oauth-callback' }
  /** The first run's setup link (pages/setup.tsx). */
  | { page: 'setup' }
  /** An invitation's link (pages/invite.tsx). */
  | { page: 'invite' }
  /** Forgot your password, and the mailed link (pages/reset-password.tsx). */
  | { page: 'reset-password' }
  /** The mailed link that verifies an email address (pages/verify-email.tsx). */
  | { page: 'verify-email' }
  | { page: 'not-found'; path: string };

export function parseRoute(pathname: string): Route {
  const path = pathname.slice(BASE.length).replace(/\/+$/, '') || '/';
  if (path === '/' || path === '/codes') return { page: 'codes' };
  if (path === '/codes/new') return { page: 'new-code' };
  if (path === '/analytics') return { page: 'analytics' };
  if (path === '/bulk') return { page: 'bulk' };
  if (path === '/import') return { page: 'import' };
  if (path === '/apps') return { page: 'connected-apps' };
  if (path === '/domains') return { page: 'domains' };
  if (path === '/audit-log') return { page: 'audit-log' };
  if (path === '/members') return { page: 'members' };
  if (path === '/profile') return { page: 'profile' };
  if (path === '/oauth/callback') return { page: 'oauth-callback' };
  if (path === '/setup') return { page: 'setup' };
  if (path === '/invite') return { page: 'invite' };
  if (path === '/reset-password') return { page: 'reset-password' };
  if (path === '/verify-email') return { page: 'verify-email' };
  const code = /^\/codes\/([\w-]+)(\/analytics)?$/.exec(path);
  if (code) return code[2] ? { page: 'code-analytics', id: code[1]! } : { page: 'code', id: code[1]! };
  return { page: 'not-found', path };
}

/** The URL of a dashboard path, e.g. href('/codes/new'). */
export const href = (path: string) => BASE + path;

/** A message for the next page (after a delete, say), passed in the history entry and taken once. */
export function flashMessage(): string | null {
  const flash = (history.state as { flash?: string } | null)?.flash ?? null;
  if (flash) history.replaceState(null, '');
  return flash;
}

export function navigate(path: string, flash?: string): void {
  history.pushState(flash ? { flash } : null, '', href(path));
  dispatchEvent(new PopStateEvent('popstate'));
  scrollTo(0, 0);
}

/** Like navigate, but in place of the current history entry (a URL that must not be revisited). */
export function replaceRoute(path: string): void {
  history.replaceState(null, '', href(path));
  dispatchEvent(new PopStateEvent('popstate'));
}

export function useRoute(): Route {
  const [route, setRoute] = useState(() => parseRoute(location.pathname));
  useEffect(() => {
    const update = () => setRoute(parseRoute(location.pathname));
    addEventListener('popstate', update);
    return () => removeEventListener('popstate', update);
  }, []);
  return route;
}
