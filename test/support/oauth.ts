// Talking to the OAuth server as a browser or an app does: form posts, cookies across the
// consent page, PKCE and HTTP Basic client authentication.
import { createHash, randomBytes } from 'node:crypto';
import { expect } from 'vitest';

/** RFC 6749 §2.3.1: client id and secret are form-encoded before Basic encoding. */
export const basic = (id: string, secret: string) =>
  `Basic ${Buffer.from(`${encodeURIComponent(id)}:${encodeURIComponent(secret)}`).toString('base64')}`;

/** A form POST to `url`, as an app sends it: no Authorization header unless given. */
export async function postForm(url: string, fields: Record<string, string>, headers: Record<string, string> = {}) {
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
    body: new URLSearchParams(fields),
    redirect: 'manual',
  });
  const text = await res.text();
  return {
    status: res.status,
    headers: res.headers,
    text,
    body: text && res.headers.get('content-type')?.includes('json') ? JSON.parse(text) : undefined,
  };
}

/** Cookies of one user agent, enough for the provider's interaction and session cookies. */
export function cookieJar() {
  const cookies = new Map<string, string>();
  return {
    take(headers: Headers) {
      for (const line of headers.getSetCookie()) {
        const [pair] = line.split(';');
        const eq = pair!.indexOf('=');
        cookies.set(pair!.slice(0, eq), pair!.slice(eq + 1));
      }
    },
    header: () => [...cookies].map(([name, value]) => `${name}=${value}`).join('; '),
  };
}

export type CookieJar = ReturnType<typeof cookieJar>;

/** A PKCE verifier and its S256 challenge. */
export function pkce() {
  const verifier = randomBytes(32).toString('base64url');
  return { verifier, challenge: createHash('sha256').update(verifier).digest('base64url') };
}

/**
 * Posts the consent form, then follows the redirect back to the authorization endpoint:
 * `final` is where the server sends the browser at the end (null when the post was refused).
 */
export async function consent(origin: string, jar: CookieJar, consentUrl: string | URL, fields: [string, string][]) {
  const posted = await fetch(consentUrl, {
    method: 'POST',
    headers: { cookie: jar.header(), 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(fields),
    redirect: 'manual',
  });
  if (posted.status !== 303) return { posted, final: null };
  jar.take(posted.headers);
  const resumed = await fetch(new URL(posted.headers.get('location')!, origin), {
    headers: { cookie: jar.header() },
    redirect: 'manual',
  });
  expect(resumed.status).toBe(303);
  return { posted, final: new URL(resumed.headers.get('location')!) };
}

/** Starts an authorization request in a new browser (cookie jar): where its consent page is. */
export async function authorize(
  origin: string,
  params: { clientId: string; scope: string; challenge: string; redirectUri: string; state?: string },
) {
  const jar = cookieJar();
  const query = new URLSearchParams({
    client_id: params.clientId,
    response_type: 'code',
    redirect_uri: params.redirectUri,
    scope: params.scope,
    state: params.state ?? 'st-123',
    code_challenge: params.challenge,
    code_challenge_method: 'S256',
  });
  const start = await fetch(`${origin}/oauth/auth?${query}`, { redirect: 'manual' });
  expect(start.status).toBe(303);
  jar.take(start.headers);
  return { jar, consentUrl: new URL(start.headers.get('location')!, origin).href };
}
