// The one way the dashboard talks to the server: POST /graphql on this origin, with the tab's
// key or OAuth access token. XMLHttpRequest rather than fetch because only it reports upload
// progress (bulk CSV).
import { renewAccessToken } from './oauth/refresh.ts';
import { currentCredential, signOut } from './session.ts';

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

function post(body: string, key: string, onUploadProgress?: (fraction: number) => void): Promise<XMLHttpRequest> {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open('POST', '/graphql');
    xhr.setRequestHeader('Content-Type', 'application/json');
    xhr.setRequestHeader('Accept', 'application/json');
    xhr.setRequestHeader('Authorization', `Bearer ${key}`);
    if (onUploadProgress)
      xhr.upload.onprogress = (event) => event.lengthComputable && onUploadProgress(event.loaded / event.total);
    xhr.onload = () => resolve(xhr);
    xhr.onerror = () =>
      reject(new ApiError('The server could not be reached. Check the connection and try again.', 'NETWORK'));
    xhr.send(body);
  });
}

/** The HTTP edge answers problem+json before GraphQL runs: a bad key, a rate limit, a body too large. */
function problemOf(xhr: XMLHttpRequest): ApiError {
  let detail = `The server answered ${xhr.status} ${xhr.statusText}.`;
  try {
    detail = (JSON.parse(xhr.responseText) as { detail?: string }).detail ?? detail;
  } catch {
    // not JSON: the status line says enough
  }
  const code = xhr.status === 401 ? 'UNAUTHORIZED' : xhr.status === 429 ? 'RATE_LIMITED' : `HTTP_${xhr.status}`;
  return new ApiError(detail, code);
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
  resend: (bearer: string) => Promise<XMLHttpRequest>,
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
    const again = await resend(renewal.token);
    if (again.status === 401 && isProblem(again)) signOut(`Signed out: ${problemOf(again).message}`);
    return again;
  }
  // The key stopped working (revoked, expired): back to the sign-in page.
  signOut(`Signed out: ${problemOf(xhr).message}`);
  return xhr;
}

/** Runs one operation; resolves with its data or rejects with an ApiError. */
export async function graphql<T>(
  query: string,
  variables: Record<string, unknown> = {},
  options: RequestOptions = {},
): Promise<T> {
  const bearer = options.key ?? currentCredential()?.token;
  if (!bearer) throw new ApiError('Sign in first.', 'UNAUTHORIZED');
  const body = JSON.stringify({ query, variables });
  const send = (token: string) => post(body, token, options.onUploadProgress);
  let xhr = await send(bearer);
  if (xhr.status === 401 && isProblem(xhr) && options.key === undefined) xhr = await afterRefusal(xhr, bearer, send);
  if (isProblem(xhr)) throw problemOf(xhr);
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
  if (!answer.data) throw new ApiError('The server answered without data.', 'ERROR');
  return answer.data;
}
