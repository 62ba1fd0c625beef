// The audit_log table: appended to inside the changes' transactions, read one account at a
// time newest first, and trimmed by retention. No update, and no delete but by age.
import type { Knex } from 'knex';
import type { Queryable } from '../../db/transaction.ts';
import { fromJson, fromMillis, toJson, type DbRow } from '../../db/rows.ts';
import type { Actor, ActorKind } from '../../shared/actor.ts';
import type { AuditAction, AuditFilter, AuditObjectType } from './schemas.ts';

export interface AuditEntry {
  id: string;
  accountId: string;
  at: Date;
  actor: Actor;
  action: AuditAction;
  objectType: AuditObjectType;
  objectId: string;
  summary: Record<string, unknown>;
}

/** An entry as read back, with its place in the log (the cursor). */
export type StoredAuditEntry = AuditEntry & { seq: number };

function fromRow(row: DbRow): StoredAuditEntry {
  return {
    seq: Number(row.seq),
    id: row.id,
    accountId: row.account_id,
    at: fromMillis(row.at),
    actor: { kind: row.actor_kind as ActorKind, id: row.actor_id, addressHash: row.address_hash },
    action: row.action,
    objectType: row.object_type,
    objectId: row.object_id,
    summary: fromJson<Record<string, unknown>>(row.summary) ?? {},
  };
}

export function createAuditStore(db: Knex) {
  return {
    /** Appends one entry; `q` is the change's transaction, so both commit or neither does. */
    async append(entry: AuditEntry, q: Queryable): Promise<void> {
      await q('audit_log').insert({
        id: entry.id,
        account_id: entry.accountId,
        at: entry.at.getTime(),
        actor_kind: entry.actor.kind,
        actor_id: entry.actor.id,
        address_hash: entry.actor.addressHash,
        action: entry.action,
        object_type: entry.objectType,
        object_id: entry.objectId,
        summary: toJson(entry.summary),
      });
    },

    /** Up to `limit` of the account's entries matching the filter, newest first, after `beforeSeq`. */
    async list(
      accountId: string,
      filter: AuditFilter,
      beforeSeq: number | null,
      limit: number,
    ): Promise<StoredAuditEntry[]> {
      const query = db('audit_log').where({ account_id: accountId });
      if (beforeSeq !== null) query.andWhere('seq', '<', beforeSeq);
      if (filter.action) query.andWhere({ action: filter.action });
      if (filter.object_type) query.andWhere({ object_type: filter.object_type });
      if (filter.object_id) query.andWhere({ object_id: filter.object_id });
      if (filter.actor_kind) query.andWhere({ actor_kind: filter.actor_kind });
      if (filter.actor_id) query.andWhere({ actor_id: filter.actor_id });
      if (filter.since !== undefined) query.andWhere('at', '>=', filter.since);
      if (filter.until !== undefined) query.andWhere('at', '<', filter.until);
      const rows: DbRow[] = await query.orderBy('seq', 'desc').limit(limit);
      return rows.map(fromRow);
    },

    /** Deletes up to `limit` of the oldest entries made before `before` (ms); returns how many. */
    async deleteBefore(before: number, limit: number): Promise<number> {
      const seqs: DbRow[] = await db('audit_log').where('at', '<', before).orderBy('seq').limit(limit).select('seq');
      if (seqs.length === 0) return 0;
      return db('audit_log')
        .whereIn(
          'seq',
          seqs.map((row) => row.seq),
        )
        .delete();
    },
  };
}

export type AuditStore = ReturnType<typeof createAuditStore>;
