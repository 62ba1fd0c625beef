// The check of an access token the OAuth server issued (a JWT, RFC 9068), in one place for the
// two that ask: the API authenticating a request, and introspection (RFC 7662) answering a
// client. One check, so introspection calls active exactly the tokens the API honours.
import { createLocalJWKSet, jwtVerify, type JWK, type JWTPayload } from 'jose';
import { isScope, type Scope } from '../../shared/principal.ts';
import { GRANT_ID_CLAIM, SIGNING_ALG } from './provider.ts';
import type { OAuthClient } from './store.ts';

/** Three base64url parts; anything else is not worth a signature check. */
const JWT_SHAPE = /^[\w-]+\.[\w-]+\.[\w-]+$/;

export interface VerifiedAccessToken {
  claims: JWTPayload & { sub: string; client_id: string };
  client: OAuthClient;
  /** What the token may do now: its scopes that its client is still allowed. */
  scopes: Scope[];
  /** The account it acts for: the client's own (client credentials, `sub` is the client) or the consenting one. */
  accountId: string;
}

export interface AccessTokenVerifierDeps {
  issuer: string;
  resource: string;
  /** Public JWKs of every signing key in the key file: a token signed by any of them verifies. */
  verificationKeys: JWK[];
  /** The client of this id, or null once deleted. */
  clientOf: (clientId: string) => Promise<OAuthClient | null>;
  /** Whether the grant an access token was issued under still stands (grants.ts). */
  grantIsLive: (grantId: string) => Promise<boolean>;
}

export function createAccessTokenVerifier({
  issuer,
  resource,
  verificationKeys,
  clientOf,
  grantIsLive,
}: AccessTokenVerifierDeps) {
  const jwks = createLocalJWKSet({ keys: verificationKeys });

  /**
   * The token, verified in the process (signature, issuer, audience, type, expiry), or null; its
   * client must still exist, and a token from a grant (the authorization code flow) ends with
   * its grant (tokens issued before grants were named in them expire on their own).
   */
  return async function verifyAccessToken(token: string): Promise<VerifiedAccessToken | null> {
    if (token.length > 4096 || !JWT_SHAPE.test(token)) return null;
    let claims;
    try {
      ({ payload: claims } = await jwtVerify(token, jwks, {
        issuer,
        audience: resource,
        typ: 'at+jwt',
        algorithms: [SIGNING_ALG],
      }));
    } catch {
      return null;
    }
    const { sub, client_id: clientId } = claims;
    if (typeof clientId !== 'string' || typeof sub !== 'string') return null;
    const client = await clientOf(clientId);
    if (!client) return null;
    const grantId = claims[GRANT_ID_CLAIM];
    if (grantId !== undefined && !(typeof grantId === 'string' && (await grantIsLive(grantId)))) return null;
    const allowed = new Set(client.scopes);
    const scopes = String(claims.scope ?? '')
      .split(' ')
      .filter(isScope)
      .filter((scope) => allowed.has(scope));
    return {
      claims: { ...claims, sub, client_id: clientId },
      client,
      scopes,
      accountId: sub === client.id ? client.accountId : sub,
    };
  };
}

/** What introspection (RFC 7662 §2.2) answers of an active access token: its claims, its scope as the API takes it. */
export function introspectionOf({ claims, scopes }: VerifiedAccessToken): Record<string, unknown> {
  const { iss, sub, aud, exp, iat, jti, client_id } = claims;
  return { active: true, scope: scopes.join(' '), client_id, sub, aud, iss, exp, iat, jti, token_type: 'Bearer' };
}
