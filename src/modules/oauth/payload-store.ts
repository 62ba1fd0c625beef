// The store of oauth_payloads, in the shape of oidc-provider's storage adapter: the OAuth
// server's records (authorization codes, refresh tokens, grants, sessions, interactions), one row
// per model and id, so every process of the service sees the same ones. Clients are not stored
// here: they are read from oauth_clients (./store.ts), registered through our API only.
import type { Knex } from 'knex';
import type { Adapter, AdapterPayload } from 'oidc-provider';
import { fromJson, toJson, type DbRow } from '../../db/rows.ts';
import { retryOnWriteConflict } from '../../db/transaction.ts';

/** Expired rows are deleted at most this often per process, on a write. */
const SWEEP_INTERVAL_MS = 60_000;

export function createAdapterClass(
  db: Knex,
  findClient: (id: string) => Promise<AdapterPayload | undefined>,
  /** Told when the library ends a grant (a refresh token revoked, a code replayed): its access tokens end too. */
  grantEnded: (grantId: string) => void,
): new (model: string) => Adapter {
  let lastSweep = 0;

  async function sweep(now: number): Promise<void> {
    if (now - lastSweep < SWEEP_INTERVAL_MS) return;
    lastSweep = now;
    await db('oauth_payloads').where('expires_at', '<=', now).delete();
  }

  function rowToPayload(row: DbRow | undefined): AdapterPayload | undefined {
    if (!row) return undefined;
    if (row.expires_at !== null && Number(row.expires_at) <= Date.now()) return undefined;
    const payload = fromJson<AdapterPayload>(row.payload)!;
    // The library reads `consumed` (epoch seconds) to refuse a code used twice.
    if (row.consumed_at !== null) payload.consumed = Math.floor(Number(row.consumed_at) / 1000);
    return payload;
  }

  return class KnexAdapter implements Adapter {
    constructor(private readonly model: string) {}

    async upsert(id: string, payload: AdapterPayload, expiresIn: number): Promise<void> {
      if (this.model === 'Client') throw new Error('OAuth clients are registered through /v1/oauth-clients');
      const now = Date.now();
      const row = {
        model: this.model,
        id,
        payload: toJson(payload),
        grant_id: payload.grantId ?? null,
        // Grants, refresh tokens and codes name their account: grants are listed by it.
        account_id: typeof payload.accountId === 'string' ? payload.accountId : null,
        uid: payload.uid ?? null,
        user_code: payload.userCode ?? null,
        expires_at: expiresIn ? now + expiresIn * 1000 : null,
      };
      await db('oauth_payloads')
        .insert({ ...row, consumed_at: null })
        .onConflict(['model', 'id'])
        .merge(row);
      await sweep(now);
    }

    async find(id: string): Promise<AdapterPayload | undefined> {
      if (this.model === 'Client') return findClient(id);
      return rowToPayload(await db('oauth_payloads').where({ model: this.model, id }).first());
    }

    async findByUid(uid: string): Promise<AdapterPayload | undefined> {
      return rowToPayload(await db('oauth_payloads').where({ model: this.model, uid }).first());
    }

    async findByUserCode(userCode: string): Promise<AdapterPayload | undefined> {
      return rowToPayload(await db('oauth_payloads').where({ model: this.model, user_code: userCode }).first());
    }

    async consume(id: string): Promise<void> {
      await db('oauth_payloads').where({ model: this.model, id }).update({ consumed_at: Date.now() });
    }

    // The library ends a grant with several of these at once (a replayed refresh token: the
    // token, then each model's rows of its grant and the grant itself, all in parallel). On
    // MariaDB, deletes by primary key and by grant_id racing over the same rows can deadlock;
    // a delete is safe to run again, so a lost one is retried rather than answered 500.
    async destroy(id: string): Promise<void> {
      await retryOnWriteConflict(() => db('oauth_payloads').where({ model: this.model, id }).delete());
      if (this.model === 'Grant') grantEnded(id);
    }

    /** This model's records issued under the grant (the library calls it once per model). */
    async revokeByGrantId(grantId: string): Promise<void> {
      await retryOnWriteConflict(() => db('oauth_payloads').where({ model: this.model, grant_id: grantId }).delete());
    }
  };
}
