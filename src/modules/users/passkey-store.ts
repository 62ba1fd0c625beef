// The passkeys table (a user's WebAuthn credentials) and the challenges of their ceremonies. A
// challenge is used up by the DELETE that takes it: of two requests racing with one challenge,
// the row count lets one win. Credentials are found by their id's SHA-256 (the id itself may be
// longer than an indexable column).
import type { Queryable } from '../../db/transaction.ts';
import { fromMillis, fromMillisOrNull, toMillis, type DbRow } from '../../db/rows.ts';
import { hashToken } from '../../shared/token-hash.ts';

export interface PasskeyRecord {
  id: string;
  userId: string;
  /** base64url, as WebAuthn's JSON carries it. */
  credentialId: string;
  /** The COSE public key, base64url. */
  publicKey: string;
  counter: number;
  transports: string[];
  name: string;
  createdAt: Date;
  lastUsedAt: Date | null;
}

export type ChallengePurpose = 'registration' | 'authentication';

/** Credential ids are public, not secrets; the token hash is just a short, indexable stand-in. */
const credentialHash = hashToken;

function passkeyOf(row: DbRow): PasskeyRecord {
  return {
    id: row.id,
    userId: row.user_id,
    credentialId: row.credential_id,
    publicKey: row.public_key,
    counter: Number(row.counter),
    transports: JSON.parse(row.transports) as string[],
    name: row.name,
    createdAt: fromMillis(row.created_at),
    lastUsedAt: fromMillisOrNull(row.last_used_at),
  };
}

export function createPasskeyStore(db: Queryable) {
  return {
    async insert(passkey: PasskeyRecord): Promise<void> {
      await db('passkeys').insert({
        id: passkey.id,
        user_id: passkey.userId,
        credential_id_hash: credentialHash(passkey.credentialId),
        credential_id: passkey.credentialId,
        public_key: passkey.publicKey,
        counter: passkey.counter,
        transports: JSON.stringify(passkey.transports),
        name: passkey.name,
        created_at: toMillis(passkey.createdAt),
        last_used_at: null,
      });
    },

    /** The user's passkeys, oldest first. */
    async listByUser(userId: string): Promise<PasskeyRecord[]> {
      const rows = await db('passkeys')
        .where({ user_id: userId })
        .orderBy([{ column: 'created_at' }, { column: 'id' }]);
      return rows.map(passkeyOf);
    },

    async findByCredentialId(credentialId: string): Promise<PasskeyRecord | null> {
      const row = await db('passkeys')
        .where({ credential_id_hash: credentialHash(credentialId) })
        .first();
      return row ? passkeyOf(row) : null;
    },

    async findOfUser(userId: string, id: string): Promise<PasskeyRecord | null> {
      const row = await db('passkeys').where({ id, user_id: userId }).first();
      return row ? passkeyOf(row) : null;
    },

    /** False when the user has no passkey with this id. */
    async rename(userId: string, id: string, name: string): Promise<boolean> {
      return (await db('passkeys').where({ id, user_id: userId }).update({ name })) === 1;
    },

    /** False when the user has no passkey with this id. */
    async delete(userId: string, id: string): Promise<boolean> {
      return (await db('passkeys').where({ id, user_id: userId }).delete()) === 1;
    },

    /**
     * Records a sign-in with the passkey. The counter moves only forward (a request with an older
     * one that lost a race changes nothing): false when it did not.
     */
    async recordUse(id: string, counter: number, at: Date): Promise<boolean> {
      const updated = await db('passkeys')
        .where({ id })
        .where((w) => w.where('counter', '<', counter).orWhere('counter', 0))
        .update({ counter, last_used_at: toMillis(at) });
      return updated === 1;
    },

    async insertChallenge(challenge: {
      hash: string;
      purpose: ChallengePurpose;
      userId: string | null;
      createdAt: Date;
      expiresAt: Date;
    }): Promise<void> {
      await db('passkey_challenges').insert({
        challenge_hash: challenge.hash,
        purpose: challenge.purpose,
        user_id: challenge.userId,
        created_at: toMillis(challenge.createdAt),
        expires_at: toMillis(challenge.expiresAt),
      });
    },

    /**
     * Takes an unexpired challenge of this purpose, once: its user (null for a sign-in that named
     * nobody), or undefined when it is unknown, used, expired or of the other ceremony. Expired
     * challenges of anyone are dropped on the way.
     */
    async takeChallenge(hash: string, purpose: ChallengePurpose, at: Date): Promise<string | null | undefined> {
      await db('passkey_challenges').where('expires_at', '<=', toMillis(at)).delete();
      const row = await db('passkey_challenges').where({ challenge_hash: hash, purpose }).first('user_id');
      if (!row) return undefined;
      const taken = await db('passkey_challenges').where({ challenge_hash: hash, purpose }).delete();
      return taken === 1 ? ((row.user_id as string | null) ?? null) : undefined;
    },
  };
}

export type PasskeyStore = ReturnType<typeof createPasskeyStore>;
