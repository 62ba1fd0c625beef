// Idempotency-Key handling for POST creates, per the IETF httpapi Idempotency-Key draft:
// the same key and body within 24 h replays the first answer without doing the work again;
// the same key with another body is a 422; a retry while the first is still running is a 409.
import { createHash } from 'node:crypto';
import type { Knex } from 'knex';
import { isUniqueViolation } from '../../db/dialect.ts';
import { DomainError } from '../../shared/errors.ts';
import type { Principal } from '../../shared/principal.ts';

export const IDEMPOTENCY_TTL_MS = 24 * 60 * 60 * 1000;
const KEY_PATTERN = /^[\x21-\x7e]{1,191}$/;

export interface StoredAnswer {
  status: number;
  body: unknown;
  /** True when this answer is a replay of an earlier request's. */
  replayed: boolean;
}

/** Hash of what identifies "the same request": the route and the parsed body. */
export function requestHash(route: string, body: unknown): string {
  return createHash('sha256').update(route).update('\n').update(JSON.stringify(body ?? null)).digest('hex');
}

export function createIdempotency(db: Knex) {
  return {
    /**
     * Runs `work` once per (account, key); later calls with the same key get the stored answer.
     * A failed run (any thrown error) releases the key so the client can retry.
     */
    async run(principal: Principal, key: string, hash: string, work: () => Promise<{ status: number; body: unknown }>): Promise<StoredAnswer> {
      if (!KEY_PATTERN.test(key)) {
        throw new DomainError('bad_request', 'Idempotency-Key must be 1 to 191 visible ASCII characters.');
      }
      const where = { account_id: principal.accountId, key };
      // Keys older than the retention window are forgotten, as if never used.
      await db('idempotency_keys').where(where).andWhere('created_at', '<', Date.now() - IDEMPOTENCY_TTL_MS).delete();
      try {
        await db('idempotency_keys').insert({ ...where, request_hash: hash, state: 'running', created_at: Date.now() });
      } catch (err) {
        if (!isUniqueViolation(err)) throw err;
        const existing = await db('idempotency_keys').where(where).first();
        if (!existing) throw new DomainError('conflict', 'This Idempotency-Key was just released; retry the request.');
        if (existing.request_hash !== hash) {
          throw new DomainError('validation_failed', 'This Idempotency-Key was used with a different request body.', [
            { path: 'Idempotency-Key', message: 'was already used with a different request body' },
          ]);
        }
        if (existing.state !== 'done') throw new DomainError('conflict', 'A request with this Idempotency-Key is still being processed.');
        return { status: existing.response_status, body: JSON.parse(existing.response_body), replayed: true };
      }
      try {
        const answer = await work();
        await db('idempotency_keys').where(where).update({ state: 'done', response_status: answer.status, response_body: JSON.stringify(answer.body) });
        return { ...answer, replayed: false };
      } catch (err) {
        await db('idempotency_keys').where(where).delete();
        throw err;
      }
    },
  };
}

export type Idempotency = ReturnType<typeof createIdempotency>;
