// The credential of this browser tab: a person's session (the server's HttpOnly cookie, with the
// CSRF token and the workspace the tab works in), an API key pasted on the sign-in page, or the
// tokens of an OAuth sign-in (oauth/). What the tab keeps lives in sessionStorage only; a
// person's cookie outlives the tab, so a new tab or a restarted browser finds the session again
// (restoreCookieSession).
import { useEffect, useState } from 'preact/hooks';

const STORAGE_KEY = 'qr-dashboard.credential';

export interface WorkspaceChoice {
  id: string;
  name: string;
  role: string;
}

export type Credential =
  /** Signed in by email and password: the cookie goes by itself, the CSRF token and workspace by header. */
  | { kind: 'session'; csrfToken: string; workspaceId: string; workspaces: WorkspaceChoice[]; user: string }
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
  if (c.kind === 'session')
    return typeof c.csrfToken === 'string' && typeof c.workspaceId === 'string' && Array.isArray(c.workspaces);
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

/**
 * The headers that carry the tab's credential: `Authorization: Bearer …` for a key or an access
 * token; for a session (whose cookie the browser sends) the CSRF token and the workspace.
 */
export function authHeaders(credential: Credential): Record<string, string> {
  if (credential.kind === 'session')
    return { 'X-CSRF-Token': credential.csrfToken, 'Qr-Workspace': credential.workspaceId };
  return { Authorization: `Bearer ${credential.token}` };
}

/** What the server answers a sign-in, a setup and GET /v1/session with (SignedIn). */
export interface SignedInAnswer {
  user: { email: string; display_name: string };
  workspaces: WorkspaceChoice[];
  csrf_token: string;
}

/** The tab's credential for a signed-in person, in `workspaceId` if it is theirs, else their first. */
export function sessionCredentialOf(answer: SignedInAnswer, workspaceId?: string): Credential | null {
  const workspace = answer.workspaces.find((w) => w.id === workspaceId) ?? answer.workspaces[0];
  if (!workspace) return null;
  const workspaces = answer.workspaces.map(({ id, name, role }) => ({ id, name, role }));
  return {
    kind: 'session',
    csrfToken: answer.csrf_token,
    workspaceId: workspace.id,
    workspaces,
    user: answer.user.display_name || answer.user.email,
  };
}

const current = (): Session => ({ credential: currentCredential(), notice });

export function signIn(credential: Credential): void {
  notice = null;
  sessionStorage.setItem(STORAGE_KEY, JSON.stringify(credential));
  changed();
}

/** Works in another of the person's workspaces: every page asks again. */
export function switchWorkspace(workspaceId: string): void {
  const credential = currentCredential();
  if (credential?.kind !== 'session') return;
  sessionStorage.setItem(STORAGE_KEY, JSON.stringify({ ...credential, workspaceId }));
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
