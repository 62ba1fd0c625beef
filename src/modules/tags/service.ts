// Tags of an account: created, listed with their code counts, renamed, recoloured, deleted.
// Codes carry them by name (see tagging.ts for what codes ask of this module).
import type { Knex } from 'knex';
import { isUniqueViolation } from '../../db/dialect.ts';
import { inTransaction } from '../../db/transaction.ts';
import { DomainError, notFound, validationFailed } from '../../shared/errors.ts';
import { newId } from '../../shared/ids.ts';
import type { Principal } from '../../shared/principal.ts';
import type { RecordAudit } from '../audit/index.ts';
import { tagKey, type CreateTagInput, type ListTagsQuery, type UpdateTagInput } from './schemas.ts';
import type { Tag, TagsStore } from './store.ts';
import { tooManyTags } from './tagging.ts';

export interface TagPage {
  data: Tag[];
  nextCursor: string | null;
  /** Cursor of any item of this page, for Relay edges. */
  cursorOf(tag: Tag): string;
}

export interface TagsServiceDeps {
  db: Knex;
  tags: TagsStore;
  maxPerAccount: number;
  /**
   * Locks codes' rows (the codes module's): deleting a tag first waits for the scan batches of
   * its codes in flight, which would add to the tag's rollups as it goes (scans/tag-rollups.ts).
   */
  lockCodes: (codeIds: readonly string[], q: Knex.Transaction, mode: 'update') => Promise<void>;
  /** Records the change in the audit log, in the change's transaction. */
  audit: RecordAudit;
}

/** A 409 naming `name`: tag names are unique in an account, ignoring case. */
const nameTaken = (name: string) =>
  new DomainError('conflict', `The account already has a tag named '${name}' (names are unique ignoring case).`, [
    { path: 'name', message: 'is taken by another tag of the account' },
  ]);

/** Tags are listed by key (unique in the account), so the key alone is the position. */
const cursorOf = (tag: Tag) => Buffer.from(JSON.stringify(['name', tagKey(tag.name)])).toString('base64url');

function decodeCursor(cursor: string): string {
  try {
    const parsed: unknown = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
    if (
      Array.isArray(parsed) &&
      parsed.length === 2 &&
      parsed[0] === 'name' &&
      typeof parsed[1] === 'string' &&
      parsed[1].length <= 400
    )
      return parsed[1];
  } catch {
    // reported below
  }
  throw validationFailed([{ path: 'cursor', message: 'is not a cursor returned by this list' }]);
}

/** The audit entry of a tag change. */
const tagChange = (
  action: 'tag.created' | 'tag.updated' | 'tag.deleted',
  id: string,
  summary: Record<string, unknown>,
) => ({ action, objectType: 'tag', objectId: id, summary }) as const;

export function createTagsService({ db, tags, maxPerAccount, lockCodes, audit }: TagsServiceDeps) {
  async function get(principal: Principal, id: string): Promise<Tag> {
    const tag = await tags.findById(principal.accountId, id);
    if (!tag) throw notFound('tag', id);
    return tag;
  }

  /** Runs a write that may collide with another tag's name, as a 409 naming `name`. */
  async function unlessTaken<T>(name: string, write: () => Promise<T>): Promise<T> {
    try {
      return await write();
    } catch (err) {
      if (isUniqueViolation(err)) throw nameTaken(name);
      throw err;
    }
  }

  return {
    /** Creates a tag; a name the account already has (in any case) is a 409. */
    async create(principal: Principal, body: CreateTagInput): Promise<Tag> {
      const key = tagKey(body.name);
      const id = newId('tag');
      await inTransaction(db, async (trx) => {
        if ((await tags.idOfKey(principal.accountId, key, trx)) !== null) throw nameTaken(body.name);
        if ((await tags.countForAccount(principal.accountId, trx)) >= maxPerAccount)
          throw tooManyTags(maxPerAccount, 'name');
        // Plain insert: a concurrent create of the same name fails on the unique key (409).
        await unlessTaken(body.name, () =>
          tags.insertOne(
            {
              id,
              accountId: principal.accountId,
              name: body.name,
              key,
              color: body.color ?? null,
              createdAt: new Date(),
            },
            trx,
          ),
        );
        await audit(principal, tagChange('tag.created', id, { name: body.name, color: body.color ?? null }), trx);
      });
      return get(principal, id);
    },

    get,

    /** One page of the account's tags in name order, each with its code count. */
    async list(principal: Principal, params: ListTagsQuery): Promise<TagPage> {
      const after = params.cursor ? decodeCursor(params.cursor) : null;
      const rows = await tags.list(principal.accountId, after, params.limit + 1);
      const data = rows.slice(0, params.limit);
      const last = data.at(-1);
      return { data, nextCursor: rows.length > params.limit && last ? cursorOf(last) : null, cursorOf };
    },

    /** Renames or recolours; a name another tag has (in any case) is a 409. */
    async update(principal: Principal, id: string, patch: UpdateTagInput): Promise<Tag> {
      const current = await get(principal, id);
      if (patch.name === undefined && patch.color === undefined) return current;
      const key = patch.name === undefined ? undefined : tagKey(patch.name);
      if (key !== undefined) {
        const holder = await tags.idOfKey(principal.accountId, key);
        if (holder !== null && holder !== id) throw nameTaken(patch.name!);
      }
      await unlessTaken(patch.name ?? current.name, () =>
        inTransaction(db, async (trx) => {
          await tags.update(principal.accountId, id, { name: patch.name, key, color: patch.color }, trx);
          const changes: Record<string, { old: unknown; new: unknown }> = {};
          if (patch.name !== undefined && patch.name !== current.name)
            changes.name = { old: current.name, new: patch.name };
          if (patch.color !== undefined && patch.color !== current.color)
            changes.color = { old: current.color, new: patch.color };
          await audit(principal, tagChange('tag.updated', id, { changes }), trx);
        }),
      );
      return get(principal, id);
    },

    /** Deletes the tag and takes it off its codes; the codes stay. */
    async remove(principal: Principal, id: string): Promise<void> {
      const deleted = await inTransaction(db, async (trx) => {
        const codeIds = await tags.codeIdsOf(principal.accountId, id, trx);
        await lockCodes(codeIds, trx, 'update');
        const tag = await tags.findById(principal.accountId, id, trx);
        if (!tag || !(await tags.delete(principal.accountId, id, trx))) return false;
        await audit(principal, tagChange('tag.deleted', id, { name: tag.name, codes: codeIds.length }), trx);
        return true;
      });
      if (!deleted) throw notFound('tag', id);
    },
  };
}

export type TagsService = ReturnType<typeof createTagsService>;
