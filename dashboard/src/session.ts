// The credential of this browser tab: an API key pasted on the sign-in page, or the tokens of
// an OAuth sign-in (oauth/). It lives in sessionStorage only: it goes when the tab closes, is
// never written to localStorage or a cookie, and each tab signs in on its own.
import { useEffect, useState } from 'preact/hooks';

const STORAGE_KEY = 'qr-dashboard.credential';

export type Credential =
  | { kind: 'api-key'; token: string }
  /** An OAuth access token (10 minutes), the refresh token if the client has that grant, and whose they are. */
  | { kind: 'oauth'; token: string; refreshToken: string | null; clientId: string };

export interface Session {
  credential: Credential | null;
  /** Why the last session ended, when the server ended it (a revoked key, an expired token). */
  notice: string | null;
}

let notice: string | null = null;
const listeners = new Set<() => void>();
const changed = () => listeners.forEach((listener) => listener());

function isCredential(value: unknown): value is Credential {
  if (typeof value !== 'object' || value === null) return false;
  const c = value as Record<string, unknown>;
  if (typeof c.token !== 'string' || c.token === '') return false;
  if (c.kind === 'api-key') return true;
  return (
    c.kind === 'oauth' &&
    typeof c.clientId === 'string' &&
    (c.refreshToken === null || typeof c.refreshToken === 'string')
  );
}

/** The tab's credential; anything unreadable in storage counts as signed out. */
export function currentCredential(): Credential | null {
  try {
    const stored: unknown = JSON.parse(sessionStorage.getItem(STORAGE_KEY) ?? 'null');
    return isCredential(stored) ? stored : null;
  } catch {
    return null;
  }
}

/** What goes in `Authorization: Bearer …`: the key or the access token. */
export function currentBearer(): string | null {
  return currentCredential()?.token ?? null;
}

const current = (): Session => ({ credential: currentCredential(), notice });

export function signIn(credential: Credential): void {
  notice = null;
  sessionStorage.setItem(STORAGE_KEY, JSON.stringify(credential));
  changed();
}

/** Keeps new OAuth tokens (after a refresh) without re-rendering: the pages stay as they are. */
export function replaceOAuthTokens(token: string, refreshToken: string | null): void {
  const credential = currentCredential();
  if (credential?.kind !== 'oauth') return;
  sessionStorage.setItem(STORAGE_KEY, JSON.stringify({ ...credential, token, refreshToken }));
}

/** Forgets the credential; `reason` is shown on the sign-in page. */
export function signOut(reason: string | null = null): void {
  notice = reason;
  sessionStorage.removeItem(STORAGE_KEY);
  changed();
}

/** The session, re-rendering the caller when it signs in or out. */
export function useSession(): Session {
  const [session, setSession] = useState(current);
  useEffect(() => {
    const update = () => setSession(current());
    listeners.add(update);
    return () => void listeners.delete(update);
  }, []);
  return session;
}
