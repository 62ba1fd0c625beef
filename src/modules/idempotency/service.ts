// Idempotency-Key handling for POST creates, per the IETF httpapi Idempotency-Key draft:
// the same key and body within 24 h replays the first answer without doing the work again;
// the same key with another body is a 422; a retry while the first is still running is a 409.
// The HTTP edge (http/idempotent.ts) hashes the request and calls run().
import { isUniqueViolation } from '../../db/dialect.ts';
import { DomainError } from '../../shared/errors.ts';
import type { Principal } from '../../shared/principal.ts';
import type { IdempotencyStore } from './store.ts';

export const IDEMPOTENCY_TTL_MS = 24 * 60 * 60 * 1000;
const KEY_PATTERN = /^[\x21-\x7e]{1,191}$/;

export interface StoredAnswer {
  status: number;
  body: unknown;
  /** True when this answer is a replay of an earlier request's. */
  replayed: boolean;
}

export function createIdempotency(store: IdempotencyStore) {
  return {
    /**
     * Runs `work` once per (account, key); later calls with the same key get the stored answer.
     * A failed run (any thrown error) releases the key so the client can retry.
     */
    async run(
      principal: Principal,
      key: string,
      hash: string,
      work: () => Promise<{ status: number; body: unknown }>,
    ): Promise<StoredAnswer> {
      if (!KEY_PATTERN.test(key)) {
        throw new DomainError('bad_request', 'Idempotency-Key must be 1 to 191 visible ASCII characters.');
      }
      const { accountId } = principal;
      const now = Date.now();
      await store.forgetOlderThan(accountId, key, now - IDEMPOTENCY_TTL_MS);
      try {
        await store.claim(accountId, key, hash, now);
      } catch (err) {
        if (!isUniqueViolation(err)) throw err;
        const existing = await store.find(accountId, key);
        if (!existing) throw new DomainError('conflict', 'This Idempotency-Key was just released; retry the request.');
        if (existing.requestHash !== hash) {
          throw new DomainError('validation_failed', 'This Idempotency-Key was used with a different request body.', [
            { path: 'Idempotency-Key', message: 'was already used with a different request body' },
          ]);
        }
        if (existing.state !== 'done')
          throw new DomainError('conflict', 'A request with this Idempotency-Key is still being processed.');
        return { status: existing.responseStatus!, body: JSON.parse(existing.responseBody!), replayed: true };
      }
      try {
        const answer = await work();
        await store.complete(accountId, key, answer.status, JSON.stringify(answer.body));
        return { ...answer, replayed: false };
      } catch (err) {
        await store.release(accountId, key);
        throw err;
      }
    },
  };
}

export type Idempotency = ReturnType<typeof createIdempotency>;
