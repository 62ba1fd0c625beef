// The one way the dashboard talks to the server: POST /graphql on this origin (and the few REST
// calls GraphQL cannot carry, a file upload), with the tab's credential (session.ts: a person's
// cookie with its CSRF token, a key or an OAuth access token). XMLHttpRequest rather than fetch
// because only it reports upload progress (bulk CSV).
import { currentMessages } from './i18n/index.ts';
import { renewAccessToken } from './oauth/refresh.ts';
import {
  authHeaders,
  currentCredential,
  sessionCredentialOf,
  signIn,
  signOut,
  type Credential,
  type SignedInAnswer,
} from './session.ts';

export interface FieldProblem {
  /** Path into the input, in GraphQL's names (`design.fgColor`, `row 3.content`). */
  path: string;
  message: string;
}

/** A failed request, with what the server said: a message, a code, and per-field problems. */
export class ApiError extends Error {
  constructor(
    message: string,
    readonly code: string,
    readonly problems: FieldProblem[] = [],
  ) {
    super(message);
  }
}

export interface RequestOptions {
  /** Another key than the session's: the sign-in page tries a key before keeping it. */
  key?: string;
  /** Fraction of the request body sent, 0 to 1. */
  onUploadProgress?: (fraction: number) => void;
}

interface GraphQLAnswer<T> {
  data?: T | null;
  errors?: { message: string; extensions?: { code?: string; errors?: FieldProblem[] } }[];
}

/** A request to this origin: a JSON body, or a form the browser encodes (multipart, with its boundary). */
interface Outgoing {
  method: string;
  path: string;
  body: string | FormData;
}

function send(
  outgoing: Outgoing,
  credential: Credential,
  onUploadProgress?: (fraction: number) => void,
): Promise<XMLHttpRequest> {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open(outgoing.method, outgoing.path);
    if (typeof outgoing.body === 'string') xhr.setRequestHeader('Content-Type', 'application/json');
    xhr.setRequestHeader('Accept', 'application/json');
    for (const [name, value] of Object.entries(authHeaders(credential))) xhr.setRequestHeader(name, value);
    if (onUploadProgress)
      xhr.upload.onprogress = (event) => event.lengthComputable && onUploadProgress(event.loaded / event.total);
    xhr.onload = () => resolve(xhr);
    xhr.onerror = () => reject(new ApiError(currentMessages().api.unreachable, 'NETWORK'));
    xhr.send(outgoing.body);
  });
}

/**
 * The HTTP edge answers problem+json before GraphQL runs (a bad key, a rate limit, a body too
 * large), and REST answers every refusal so: its detail, and its per-field problems when it has them.
 */
export function problemOf(xhr: { status: number; statusText: string; responseText: string }): ApiError {
  let problem: { detail?: string; errors?: FieldProblem[] } = {};
  try {
    problem = (JSON.parse(xhr.responseText) as typeof problem | null) ?? {};
  } catch {
    // not JSON: the status line says enough
  }
  const detail = problem.detail ?? currentMessages().api.answered(xhr.status, xhr.statusText);
  const code = xhr.status === 401 ? 'UNAUTHORIZED' : xhr.status === 429 ? 'RATE_LIMITED' : `HTTP_${xhr.status}`;
  return new ApiError(detail, code, Array.isArray(problem.errors) ? problem.errors : []);
}

const isProblem = (xhr: XMLHttpRequest) =>
  xhr.getResponseHeader('Content-Type')?.includes('application/problem+json') ?? false;

/**
 * The session's credential was refused (401): an OAuth sign-in is renewed once with its refresh
 * token and the request sent again; otherwise, or if that fails too, the tab is signed out.
 */
async function afterRefusal(
  xhr: XMLHttpRequest,
  refused: string,
  resend: (credential: Credential) => Promise<XMLHttpRequest>,
): Promise<XMLHttpRequest> {
  const credential = currentCredential();
  // A page sends several requests at once: one refused with them may have signed the tab out
  // already, and its reason (say, no refresh token) stays on screen rather than this one's.
  if (!credential) return xhr;
  if (credential.kind === 'oauth') {
    const renewal = await renewAccessToken(refused);
    if (!renewal.ok) {
      signOut(renewal.reason);
      return xhr;
    }
    const again = await resend({ ...credential, token: renewal.token });
    if (again.status === 401 && isProblem(again)) signOut(currentMessages().api.signedOut(problemOf(again).message));
    return again;
  }
  // The key stopped working (revoked, expired), or the person's session ended: back to the sign-in page.
  signOut(currentMessages().api.signedOut(problemOf(xhr).message));
  return xhr;
}

/**
 * A person's request refused for its CSRF token (403 `/problems/csrf`): another tab signed in
 * again or reset the password, so the cookie is newer than this tab's token. The session is read
 * once more (GET /v1/session) and the request sent again with its token; no session: signed out.
 */
async function afterStaleCsrf(
  xhr: XMLHttpRequest,
  resend: (credential: Credential) => Promise<XMLHttpRequest>,
): Promise<XMLHttpRequest> {
  const credential = currentCredential();
  if (credential?.kind !== 'session') return xhr;
  const res = await fetch('/v1/session', { headers: { Accept: 'application/json' } });
  const fresh = res.ok ? sessionCredentialOf((await res.json()) as SignedInAnswer, credential.workspaceId) : null;
  if (!fresh) {
    signOut(currentMessages().api.endedInAnotherTab);
    return xhr;
  }
  signIn(fresh);
  return resend(fresh);
}

const isStaleCsrf = (xhr: XMLHttpRequest) =>
  xhr.status === 403 && isProblem(xhr) && xhr.responseText.includes('"/problems/csrf"');

/** Sends one request with the tab's credential (renewed or re-read once when refused); a problem rejects. */
async function exchange(outgoing: Outgoing, options: RequestOptions): Promise<XMLHttpRequest> {
  const credential: Credential | null = options.key ? { kind: 'api-key', token: options.key } : currentCredential();
  if (!credential) throw new ApiError(currentMessages().common.signInFirst, 'UNAUTHORIZED');
  const resend = (c: Credential) => send(outgoing, c, options.onUploadProgress);
  let xhr = await resend(credential);
  if (xhr.status === 401 && isProblem(xhr) && options.key === undefined)
    xhr = await afterRefusal(xhr, credential.kind === 'session' ? '' : credential.token, resend);
  else if (isStaleCsrf(xhr)) xhr = await afterStaleCsrf(xhr, resend);
  if (isProblem(xhr)) throw problemOf(xhr);
  return xhr;
}

/** A REST call GraphQL cannot make (a file upload): its JSON answer, or an ApiError with the problem's fields. */
export async function rest<T>(method: string, path: string, body: FormData, options: RequestOptions = {}): Promise<T> {
  const xhr = await exchange({ method, path, body }, options);
  if (xhr.status >= 400) throw problemOf(xhr);
  try {
    return JSON.parse(xhr.responseText) as T;
  } catch {
    throw problemOf(xhr);
  }
}

/** Runs one operation; resolves with its data or rejects with an ApiError. */
export async function graphql<T>(
  query: string,
  variables: Record<string, unknown> = {},
  options: RequestOptions = {},
): Promise<T> {
  const body = JSON.stringify({ query, variables });
  const xhr = await exchange({ method: 'POST', path: '/graphql', body }, options);
  let answer: GraphQLAnswer<T>;
  try {
    answer = JSON.parse(xhr.responseText) as GraphQLAnswer<T>;
  } catch {
    throw problemOf(xhr);
  }
  const [first] = answer.errors ?? [];
  if (first) {
    const problems = (answer.errors ?? []).flatMap((e) => e.extensions?.errors ?? []);
    throw new ApiError(first.message, first.extensions?.code ?? 'ERROR', problems);
  }
  if (!answer.data) throw new ApiError(currentMessages().api.noData, 'ERROR');
  return answer.data;
}
