// The idempotency_keys table: one row per (account, key), claimed while its request runs and
// holding the answer once it is done. Only this store runs SQL on it.
import type { Knex } from 'knex';
import type { DbRow } from '../../db/rows.ts';

export interface IdempotencyRecord {
  requestHash: string;
  state: 'running' | 'done';
  responseStatus: number | null;
  responseBody: string | null;
}

export function createIdempotencyStore(db: Knex) {
  const row = (accountId: string, key: string) => db('idempotency_keys').where({ account_id: accountId, key });
  return {
    /** Forgets the key if it was claimed before `before` (epoch ms), as if never used. */
    async forgetOlderThan(accountId: string, key: string, before: number): Promise<void> {
      await row(accountId, key).andWhere('created_at', '<', before).delete();
    },

    /** Claims the key for a running request; a unique violation means it is taken. */
    async claim(accountId: string, key: string, requestHash: string, now: number): Promise<void> {
      await db('idempotency_keys').insert({
        account_id: accountId,
        key,
        request_hash: requestHash,
        state: 'running',
        created_at: now,
      });
    },

    async find(accountId: string, key: string): Promise<IdempotencyRecord | undefined> {
      const found: DbRow | undefined = await row(accountId, key).first();
      if (!found) return undefined;
      return {
        requestHash: found.request_hash,
        state: found.state,
        responseStatus: found.response_status,
        responseBody: found.response_body,
      };
    },

    async complete(accountId: string, key: string, status: number, body: string): Promise<void> {
      await row(accountId, key).update({ state: 'done', response_status: status, response_body: body });
    },

    /** Lets the key go after a failed run, so the client can retry with it. */
    async release(accountId: string, key: string): Promise<void> {
      await row(accountId, key).delete();
    },
  };
}

export type IdempotencyStore = ReturnType<typeof createIdempotencyStore>;
