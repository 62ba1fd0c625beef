// Who made a change, as the audit log records it: a kind and an id, so that people (users) can
// act later beside today's credentials without reshaping the log. Services never learn which
// HTTP request it was: the edge (http/auth.ts) puts the actor, with the caller's address already
// hashed, on the principal it hands them.
export const ACTOR_KINDS = ['api_key', 'oauth_client', 'cli', 'user'] as const;
export type ActorKind = (typeof ACTOR_KINDS)[number];

export interface Actor {
  readonly kind: ActorKind;
  /** `key_…` for an API key, `client_…` for an OAuth client, `user_…` for a person, `cli` for the command line. */
  readonly id: string;
  /** The caller's address hashed as scans hash visitors (a daily-salted HMAC), or null (none known). */
  readonly addressHash: string | null;
}

/** The command line acts with no credential: it runs on the server, by whoever may run it. */
export const CLI_ACTOR: Actor = Object.freeze({ kind: 'cli', id: 'cli', addressHash: null });

/**
 * A key id tells its kind: an OAuth access token's principal carries the client's id, a
 * session's the user's.
 */
export const actorOfKey = (keyId: string, addressHash: string | null = null): Actor => ({
  kind: keyId.startsWith('client_') ? 'oauth_client' : keyId.startsWith('user_') ? 'user' : 'api_key',
  id: keyId,
  addressHash,
});
