import type { Actor } from './actor.ts';
import { DomainError } from './errors.ts';

/**
 * What a credential may do. Every REST route and GraphQL field names the one it needs; the
 * list is closed so a typo fails to compile rather than locking everyone out.
 */
export const SCOPES = [
  'codes:read',
  'codes:write',
  'analytics:read',
  'webhooks:read',
  'webhooks:write',
  'keys:manage',
  'audit:read',
] as const;
export type Scope = (typeof SCOPES)[number];

export const isScope = (value: string): value is Scope => (SCOPES as readonly string[]).includes(value);

/** Who is calling: every service function takes this first and scopes its queries by account. */
export interface Principal {
  readonly accountId: string;
  /**
   * The API key (`key_…`), for an OAuth access token the client (`client_…`) acting, for a
   * session cookie the signed-in user (`user_…`).
   */
  readonly keyId: string;
  readonly scopes: ReadonlySet<Scope>;
  /**
   * Who acts, for the audit log, with the caller's hashed address: set by the edge on every
   * authenticated request. Without it (a service called from inside) the key id tells the actor.
   */
  readonly actor?: Actor;
}

/**
 * Whose calls a rate limit counts together: one API key, or one OAuth client acting for one
 * account (a client used by many accounts must not put them all in one bucket).
 */
export const rateLimitSubject = (principal: Principal) => `${principal.accountId}/${principal.keyId}`;

/** The signed-in user behind a session's principal, or null for a key or an OAuth token. */
export const userIdOf = (principal: Principal): string | null =>
  principal.keyId.startsWith('user_') ? principal.keyId : null;

/** Throws the 403 that names the missing scope; REST and GraphQL render it alike. */
export function requireScope(principal: Principal, scope: Scope): void {
  if (principal.scopes.has(scope)) return;
  const held = [...principal.scopes].join(', ') || 'none';
  throw new DomainError('forbidden', `This needs the scope '${scope}'. The credential has: ${held}.`);
}
