// PKCE (RFC 7636) and `state` values, from the browser's WebCrypto: random bytes from
// crypto.getRandomValues, the S256 challenge from crypto.subtle.digest. Nothing hand-rolled.

const base64url = (bytes: Uint8Array): string =>
  btoa(String.fromCharCode(...bytes))
    .replace(/\+/g, '-')
    .replace(/\//g, '_')
    .replace(/=+$/, '');

/** 32 random bytes, base64url: 43 characters, which is also a valid PKCE code verifier. */
export function randomToken(): string {
  return base64url(crypto.getRandomValues(new Uint8Array(32)));
}

/** BASE64URL(SHA-256(verifier)), the `S256` code challenge. */
export async function s256Challenge(verifier: string): Promise<string> {
  // crypto.subtle exists only in secure contexts: https, or http on localhost / 127.0.0.1.
  if (!globalThis.crypto?.subtle) {
    throw new Error(
      'OAuth sign-in needs a secure page (https://, or http:// on localhost or 127.0.0.1): ' +
        'this browser offers no WebCrypto here. Sign in with an API key instead.',
    );
  }
  const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(verifier));
  return base64url(new Uint8Array(digest));
}
