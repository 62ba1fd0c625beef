// Recording and reading the audit log. Services that change an account's things call `record`
// with their own transaction (so nothing is changed unrecorded, and nothing rolled back is
// recorded); owners of the `audit:read` scope page through it or export it.
import { validationFailed } from '../../shared/errors.ts';
import { actorOfKey, type Actor } from '../../shared/actor.ts';
import type { Queryable } from '../../db/transaction.ts';
import { newId } from '../../shared/ids.ts';
import type { Principal } from '../../shared/principal.ts';
import type { AuditAction, AuditFilter, AuditObjectType, ListAuditQuery } from './schemas.ts';
import type { AuditStore, StoredAuditEntry } from './store.ts';

/** Who acts: a principal (its actor, or one its key id tells), or the CLI on an account's behalf. */
export type AuditedCaller = Pick<Principal, 'accountId' | 'actor'> & { keyId?: string };

export interface AuditChange {
  action: AuditAction;
  objectType: AuditObjectType;
  objectId: string;
  /** What changed, e.g. `{ changes: { destination: { old, new } } }`; never a secret. */
  summary: Record<string, unknown>;
}

/** Writes one entry in the caller's transaction (services take this as a dependency). */
export type RecordAudit = (by: AuditedCaller, change: AuditChange, trx: Queryable) => Promise<void>;

export interface AuditPage {
  data: StoredAuditEntry[];
  nextCursor: string | null;
  cursorOf(entry: StoredAuditEntry): string;
}

const cursorOf = (entry: { seq: number }) => Buffer.from(`a${entry.seq}`).toString('base64url');

function decodeCursor(cursor: string): number {
  const match = /^a([1-9]\d{0,15})$/.exec(Buffer.from(cursor, 'base64url').toString('utf8'));
  if (!match) throw validationFailed([{ path: 'cursor', message: 'is not a cursor returned by this list' }]);
  return Number(match[1]);
}

function actorOf(by: AuditedCaller): Actor {
  if (by.actor) return by.actor;
  if (by.keyId) return actorOfKey(by.keyId);
  throw new Error('An audited change needs an actor or a key id');
}

/** Rows read per page of a CSV export. */
const EXPORT_PAGE = 500;

export function createAuditService({ store, now = Date.now }: { store: AuditStore; now?: () => number }) {
  async function page(accountId: string, filter: AuditFilter, before: number | null, limit: number) {
    // One extra row tells whether another page exists without a COUNT.
    const rows = await store.list(accountId, filter, before, limit + 1);
    const data = rows.slice(0, limit);
    const last = data.at(-1);
    return { data, nextCursor: rows.length > limit && last ? cursorOf(last) : null, cursorOf };
  }

  const record: RecordAudit = async (by, change, trx) => {
    await store.append(
      { id: newId('aud'), accountId: by.accountId, at: new Date(now()), actor: actorOf(by), ...change },
      trx,
    );
  };

  return {
    record,

    /** One page of the caller's account's entries, newest first, with the cursor of the next page. */
    list(principal: Principal, query: ListAuditQuery): Promise<AuditPage> {
      const before = query.cursor ? decodeCursor(query.cursor) : null;
      return page(principal.accountId, query, before, query.limit);
    },

    /** Every matching entry, newest first, a page at a time (the CSV export pulls as it writes). */
    async *export(principal: Principal, filter: AuditFilter): AsyncGenerator<StoredAuditEntry[]> {
      let before: number | null = null;
      for (;;) {
        const rows = await store.list(principal.accountId, filter, before, EXPORT_PAGE);
        if (rows.length > 0) yield rows;
        if (rows.length < EXPORT_PAGE) return;
        before = rows.at(-1)!.seq;
      }
    },
  };
}

export type AuditService = ReturnType<typeof createAuditService>;
