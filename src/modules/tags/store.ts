// The only code that runs SQL on `tags` and `code_tags`. Codes reach it through the small
// CodeTagging functions services.ts hands them (see tagging.ts), never directly.
import type { Knex } from 'knex';
import { isSqlite } from '../../db/knex.ts';
import { fromMillis, toMillis } from '../../db/rows.ts';
import type { Queryable } from '../../db/transaction.ts';

export interface Tag {
  id: string;
  accountId: string;
  name: string;
  color: string | null;
  /** How many of the account's codes carry it, when it was read. */
  codeCount: number;
  createdAt: Date;
}

export interface NewTag {
  id: string;
  accountId: string;
  name: string;
  /** tagKey(name): what makes two names one tag. */
  key: string;
  color: string | null;
  createdAt: Date;
}

/** A link between a code and a tag made (+1) or removed (-1). */
export interface LinkChange {
  codeId: string;
  tagId: string;
  sign: 1 | -1;
}

interface TagRow {
  id: string;
  account_id: string;
  name: string;
  name_key: string;
  color: string | null;
  created_at: number | string;
}

/** Keys or ids per IN list: well inside every engine's limit on bound parameters. */
const CHUNK = 500;

function chunks<T>(items: readonly T[]): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += CHUNK) out.push(items.slice(i, i + CHUNK));
  return out;
}

/** Each code's tag ids (codes without tags are absent), on `q` (the scan writer's transaction too). */
export async function tagIdsOfCodes(codeIds: readonly string[], q: Queryable): Promise<Map<string, string[]>> {
  const ids = new Map<string, string[]>();
  for (const part of chunks(codeIds)) {
    const rows: { code_id: string; tag_id: string }[] = await q('code_tags')
      .whereIn('code_id', part)
      .select('code_id', 'tag_id');
    for (const row of rows) ids.set(row.code_id, [...(ids.get(row.code_id) ?? []), row.tag_id]);
  }
  return ids;
}

export function createTagsStore(db: Knex) {
  async function withCounts(rows: TagRow[], q: Queryable): Promise<Tag[]> {
    const counts = new Map<string, number>();
    for (const ids of chunks(rows.map((r) => r.id))) {
      const found: { tag_id: string; n: number | string }[] = await q('code_tags')
        .whereIn('tag_id', ids)
        .select('tag_id')
        .count({ n: '*' })
        .groupBy('tag_id');
      for (const row of found) counts.set(row.tag_id, Number(row.n));
    }
    return rows.map((row) => ({
      id: row.id,
      accountId: row.account_id,
      name: row.name,
      color: row.color,
      codeCount: counts.get(row.id) ?? 0,
      createdAt: fromMillis(row.created_at),
    }));
  }

  const rowOf = (t: NewTag) => ({
    id: t.id,
    account_id: t.accountId,
    name: t.name,
    name_key: t.key,
    color: t.color,
    created_at: toMillis(t.createdAt),
  });

  return {
    /** One new tag; a name the account has (same key) fails on the unique key. */
    async insertOne(tag: NewTag, q: Queryable = db): Promise<void> {
      await q('tags').insert(rowOf(tag));
    },

    /** New tags, skipping any whose key the account has meanwhile (made by a concurrent request). */
    async insert(tags: readonly NewTag[], q: Queryable = db): Promise<void> {
      for (const part of chunks(tags))
        await q('tags').insert(part.map(rowOf)).onConflict(['account_id', 'name_key']).ignore();
    },

    async findById(accountId: string, id: string, q: Queryable = db): Promise<Tag | null> {
      const row: TagRow | undefined = await q('tags').where({ account_id: accountId, id }).first();
      return row ? (await withCounts([row], q))[0]! : null;
    },

    /**
     * The account's tags with these keys, as key -> id. With `latest`, a locking read on
     * MariaDB, so that a tag another transaction committed after this one began is seen (a plain
     * read would use the transaction's older snapshot). Only for keys known to exist: a locking
     * read of a missing key takes a gap lock, and two transactions holding one and then
     * inserting into that gap deadlock.
     */
    async idsByKeys(
      accountId: string,
      keys: readonly string[],
      q: Queryable = db,
      latest = false,
    ): Promise<Map<string, string>> {
      const ids = new Map<string, string>();
      for (const part of chunks(keys)) {
        const query = q('tags').where('account_id', accountId).whereIn('name_key', part).select('id', 'name_key');
        const rows: { id: string; name_key: string }[] = await (latest && !isSqlite(db) ? query.forShare() : query);
        for (const row of rows) ids.set(row.name_key, row.id);
      }
      return ids;
    },

    /** The id of the account's tag with this key, if any. */
    async idOfKey(accountId: string, key: string, q: Queryable = db): Promise<string | null> {
      const row: { id: string } | undefined = await q('tags')
        .where({ account_id: accountId, name_key: key })
        .first('id');
      return row?.id ?? null;
    },

    async countForAccount(accountId: string, q: Queryable = db): Promise<number> {
      const row = await q('tags').where('account_id', accountId).count({ n: '*' }).first();
      return Number(row?.n ?? 0);
    },

    /** One page in name order (case ignored), the `limit` tags after the key `afterKey`. */
    async list(accountId: string, afterKey: string | null, limit: number): Promise<Tag[]> {
      const builder = db('tags').where('account_id', accountId);
      if (afterKey !== null) builder.andWhere('name_key', '>', afterKey);
      const rows: TagRow[] = await builder.orderBy('name_key', 'asc').limit(limit);
      return withCounts(rows, db);
    },

    async update(
      accountId: string,
      id: string,
      changes: { name?: string; key?: string; color?: string | null },
      q: Queryable = db,
    ): Promise<void> {
      const row: Record<string, unknown> = {};
      if (changes.name !== undefined) Object.assign(row, { name: changes.name, name_key: changes.key });
      if (changes.color !== undefined) row.color = changes.color;
      if (Object.keys(row).length > 0) await q('tags').where({ account_id: accountId, id }).update(row);
    },

    /** The ids of the codes carrying the account's tag. */
    async codeIdsOf(accountId: string, id: string, q: Queryable = db): Promise<string[]> {
      return q('code_tags')
        .join('tags', 'tags.id', 'code_tags.tag_id')
        .where({ 'tags.account_id': accountId, 'tags.id': id })
        .pluck('code_tags.code_id');
    },

    /** Deletes the tag; its links to codes and its rollups go with it (cascade). */
    async delete(accountId: string, id: string, q: Queryable = db): Promise<boolean> {
      return (await q('tags').where({ account_id: accountId, id }).delete()) > 0;
    },

    /** Each code's tag names, sorted by name ignoring case (codes without tags are absent). */
    async namesForCodes(codeIds: readonly string[], q: Queryable = db): Promise<Map<string, string[]>> {
      const names = new Map<string, string[]>();
      for (const ids of chunks(codeIds)) {
        const rows: { code_id: string; name: string }[] = await q('code_tags')
          .join('tags', 'tags.id', 'code_tags.tag_id')
          .whereIn('code_tags.code_id', ids)
          .select('code_tags.code_id', 'tags.name')
          .orderBy([{ column: 'tags.name_key' }, { column: 'tags.id' }]);
        for (const row of rows) names.set(row.code_id, [...(names.get(row.code_id) ?? []), row.name]);
      }
      return names;
    },

    /**
     * Replaces the tags of these codes with the given tag ids: only the links that go are deleted
     * (by their keys) and only the new ones inserted. A range delete of links a code does not
     * have would take gap locks on MariaDB, and transactions tagging other codes at the same
     * time would deadlock inserting into those gaps. Answers the links made and removed.
     */
    async replaceCodeTags(
      links: readonly { codeId: string; tagIds: readonly string[] }[],
      q: Queryable = db,
    ): Promise<LinkChange[]> {
      const had = await tagIdsOfCodes(
        links.map((l) => l.codeId),
        q,
      );
      const changes: LinkChange[] = [];
      for (const link of links) {
        for (const tagId of (had.get(link.codeId) ?? []).filter((id) => !link.tagIds.includes(id))) {
          // Only a link this transaction removed is a change (one another removed meanwhile is not).
          if ((await q('code_tags').where({ code_id: link.codeId, tag_id: tagId }).delete()) > 0)
            changes.push({ codeId: link.codeId, tagId, sign: -1 });
        }
      }
      const rows = links.flatMap((l) =>
        [...new Set(l.tagIds)]
          .filter((tagId) => !had.get(l.codeId)?.includes(tagId))
          .map((tagId) => ({ code_id: l.codeId, tag_id: tagId })),
      );
      for (const part of chunks(rows)) await q('code_tags').insert(part);
      changes.push(...rows.map((r) => ({ codeId: r.code_id, tagId: r.tag_id, sign: 1 as const })));
      return changes;
    },

    /** A subquery of the ids of the account's codes carrying a tag with any of these keys. */
    codeIdsWithAnyKey(accountId: string, keys: readonly string[]): Knex.QueryBuilder {
      return db('code_tags')
        .join('tags', 'tags.id', 'code_tags.tag_id')
        .where('tags.account_id', accountId)
        .whereIn('tags.name_key', [...keys])
        .select('code_tags.code_id');
    },
  };
}

export type TagsStore = ReturnType<typeof createTagsStore>;
