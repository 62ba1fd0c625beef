import type { Knex } from 'knex';
import type { Queryable } from '../../db/transaction.ts';
import { isUniqueViolation, whereContainsIgnoringCase } from '../../db/dialect.ts';
import { fromJson, fromMillis, toJson, toMillis } from '../../db/rows.ts';
import { addToCodeCount, codeCountOf } from './code-counts.ts';
import { lockCodes } from './code-locks.ts';
import type { RoutingStore } from '../routing/index.ts';
import type { CursorPosition } from './cursor.ts';
import {
  lifecycleFromRow,
  lifecycleOf,
  lifecyclePatchRow,
  lifecycleRow,
  LISTED_BY_DEFAULT,
  type LifecycleInput,
  type LifecycleRow,
} from './lifecycle.ts';
import { appLinksOf, type AppLinks } from './app-links.ts';
import type { Code } from './model.ts';
import type { Preview } from './preview.ts';
import type { Page } from './page.ts';
import type { Utm } from './utm.ts';
import type { CodeContent, CodeType, CreateCodeInput, DesignInput, ListCodesQuery } from './schemas.ts';
import type { CodeTagging } from './tagging.ts';

/** A url code stores its URL as is (so `q` searches it plainly); static content is JSON. */
const storeContent = (type: CodeType, content: CodeContent) => (type === 'url' ? (content as string) : toJson(content));
const loadContent = (type: CodeType, text: string): CodeContent =>
  type === 'url' ? text : fromJson<Record<string, unknown>>(text)!;

interface CodeRow extends LifecycleRow {
  id: string;
  account_id: string;
  type: string;
  content: string;
  name: string | null;
  notes: string | null;
  forward_query: number | boolean;
  password_hash: string | null;
  app_links: string | null;
  page: string | null;
  utm: string | null;
  preview: string | null;
  design: string;
  routing_enabled: number | boolean;
  slug: string | null;
  /** '' for the service's own domain (never NULL, for the unique key). */
  domain: string;
  logo_id: string | null;
  imported_scans: number | string;
  created_at: number | string;
  updated_at: number | string;
}

const sortColumns = { created_at: 'created_at', updated_at: 'updated_at' } as const;

/** Rows per multi-row INSERT: 21 columns x 500 stays well under SQLite's variable limit. */
const CODE_INSERT_CHUNK = 500;

export type NewCode = Omit<Code, 'routing' | 'tags'> & { routingEnabled: boolean; batchId?: string | null };

/** The row a create body makes, alone or in a bulk call. */
export function newCodeOf(
  body: CreateCodeInput,
  where: {
    id: string;
    accountId: string;
    logoId: string | null;
    slug: string | null;
    domain?: string | null;
    now: Date;
    batchId?: string;
    /** An imported code's history: its creation date there and its scans there. */
    imported?: { createdAt: Date | null; scans: number };
    /** The hash of body.password (hashed before the transaction: it takes a while). */
    passwordHash?: string | null;
  },
): NewCode {
  return {
    id: where.id,
    accountId: where.accountId,
    type: body.type,
    content: body.content,
    name: body.name ?? null,
    notes: body.notes ?? null,
    forwardQuery: body.forward_query ?? false,
    passwordHash: where.passwordHash ?? null,
    appLinks: body.app_links ? appLinksOf(body.app_links) : null,
    utm: body.utm ?? null,
    preview: body.preview ?? null,
    page: body.page ?? null,
    lifecycle: lifecycleOf(body),
    design: body.design,
    logoId: where.logoId,
    // Rules given without `enabled` are meant to work, so they switch routing on.
    routingEnabled: body.routing.enabled ?? (body.routing.rules?.length ?? 0) > 0,
    slug: where.slug,
    domain: where.domain ?? null,
    batchId: where.batchId ?? null,
    importedScans: where.imported?.scans ?? 0,
    createdAt: where.imported?.createdAt ?? where.now,
    updatedAt: where.now,
  };
}

/** Whether a code row counts in its account's `total_codes` (code-counts.ts): archived ones do not. */
const counted = (row: { status: string }) => row.status !== 'archived';

function codeRow(code: NewCode) {
  return {
    id: code.id,
    account_id: code.accountId,
    type: code.type,
    content: storeContent(code.type, code.content),
    name: code.name,
    notes: code.notes,
    forward_query: code.forwardQuery,
    password_hash: code.passwordHash,
    app_links: code.appLinks && toJson(code.appLinks),
    utm: code.utm && toJson(code.utm),
    preview: code.preview && toJson(code.preview),
    page: code.page && toJson(code.page),
    ...lifecycleRow(code.lifecycle),
    design: toJson(code.design),
    logo_id: code.logoId,
    routing_enabled: code.routingEnabled,
    slug: code.slug,
    domain: code.domain ?? '',
    batch_id: code.batchId ?? null,
    imported_scans: code.importedScans,
    created_at: toMillis(code.createdAt),
    updated_at: toMillis(code.updatedAt),
  };
}

/** A code without its routing and tags (what rendering needs; no rules or tags query). */
export type CodeWithoutRouting = Omit<Code, 'routing' | 'tags'>;

function codeOf(row: CodeRow, scansCounted = 0): CodeWithoutRouting {
  return {
    id: row.id,
    accountId: row.account_id,
    type: row.type as CodeType,
    content: loadContent(row.type as CodeType, row.content),
    name: row.name ?? null,
    notes: row.notes ?? null,
    forwardQuery: Boolean(row.forward_query),
    passwordHash: row.password_hash ?? null,
    appLinks: fromJson<AppLinks>(row.app_links ?? null),
    utm: fromJson<Utm>(row.utm ?? null),
    preview: fromJson<Preview>(row.preview ?? null),
    page: fromJson<Page>(row.page ?? null),
    lifecycle: lifecycleFromRow(row, scansCounted),
    design: fromJson<DesignInput>(row.design) ?? {},
    logoId: row.logo_id,
    slug: row.slug,
    domain: row.domain || null,
    importedScans: Number(row.imported_scans ?? 0),
    createdAt: fromMillis(row.created_at),
    updatedAt: fromMillis(row.updated_at),
  };
}

/**
 * The non-bot scans that went to each code's destination (what max_scans counts), for the codes
 * among `ids`. The scans module owns those counts; services.ts hands its reader in.
 */
export type CountLimitedScans = (ids: string[], q: Queryable) => Promise<Map<string, number>>;

export function createCodesStore(
  db: Queryable,
  routing: RoutingStore,
  tagging: CodeTagging,
  countLimitedScans: CountLimitedScans = async () => new Map(),
) {
  /** The codes of the rows with their routing rules and tag names (one query each). */
  async function withRules(rows: CodeRow[], q: Queryable): Promise<Code[]> {
    const ids = rows.map((row) => row.id);
    const rules = await routing.rulesForCodes(ids, q);
    const tags = rows.length > 0 ? await tagging.namesOf(ids, q) : new Map<string, string[]>();
    // Only codes with a limit need their count (for `state`); the others cost nothing more.
    const limited = rows.filter((row) => row.max_scans !== null).map((row) => row.id);
    const counted = limited.length > 0 ? await countLimitedScans(limited, q) : null;
    return rows.map((row) => ({
      ...codeOf(row, counted?.get(row.id) ?? 0),
      routing: { enabled: Boolean(row.routing_enabled), rules: rules.get(row.id)! },
      tags: tags.get(row.id) ?? [],
    }));
  }

  return {
    /** Reserves a slug on a domain for good. Returns false when it is taken there (now or ever before). */
    async reserveSlug(slug: string, q: Queryable = db, domain: string | null = null): Promise<boolean> {
      try {
        await q('slugs').insert({ slug, domain: domain ?? '', created_at: Date.now() });
        return true;
      } catch (err) {
        if (isUniqueViolation(err)) return false;
        throw err;
      }
    },

    async insert(code: NewCode, q: Queryable = db): Promise<void> {
      const row = codeRow(code);
      await q('codes').insert(row);
      await addToCodeCount(q, code.accountId, counted(row) ? 1 : 0);
    },

    /** Many new codes of one account in multi-row INSERTs (bulk creation). */
    async insertMany(codes: NewCode[], q: Queryable = db): Promise<void> {
      if (codes.length === 0) return;
      const rows = codes.map(codeRow);
      for (let i = 0; i < rows.length; i += CODE_INSERT_CHUNK)
        await q('codes').insert(rows.slice(i, i + CODE_INSERT_CHUNK));
      await addToCodeCount(q, codes[0]!.accountId, rows.filter(counted).length);
    },

    /** Which of these slugs were ever taken on the domain (by any code of any account, deleted ones too). */
    async takenSlugs(slugs: string[], q: Queryable = db, domain: string | null = null): Promise<string[]> {
      if (slugs.length === 0) return [];
      const rows: { slug: string }[] = await q('slugs')
        .where('domain', domain ?? '')
        .whereIn('slug', slugs)
        .select('slug');
      return rows.map((row) => row.slug);
    },

    /** Which of these slugs on the domain are the account's codes: slug -> code id (imports match on them). */
    async codesWithSlugs(
      accountId: string,
      slugs: string[],
      domain: string | null = null,
      q: Queryable = db,
    ): Promise<Map<string, string>> {
      const found = new Map<string, string>();
      for (let i = 0; i < slugs.length; i += CODE_INSERT_CHUNK) {
        const rows: { id: string; slug: string }[] = await q('codes')
          .where({ account_id: accountId, domain: domain ?? '' })
          .whereIn('slug', slugs.slice(i, i + CODE_INSERT_CHUNK))
          .select('id', 'slug');
        for (const row of rows) found.set(row.slug, row.id);
      }
      return found;
    },

    /** Reserves many slugs at once; false when any of them is taken (the caller draws again). */
    async reserveSlugs(slugs: string[], q: Queryable = db, domain: string | null = null): Promise<boolean> {
      const createdAt = Date.now();
      try {
        for (let i = 0; i < slugs.length; i += CODE_INSERT_CHUNK) {
          await q('slugs').insert(
            slugs
              .slice(i, i + CODE_INSERT_CHUNK)
              .map((slug) => ({ slug, domain: domain ?? '', created_at: createdAt })),
          );
        }
        return true;
      } catch (err) {
        if (isUniqueViolation(err)) return false;
        throw err;
      }
    },

    async findById(accountId: string, id: string, q: Queryable = db): Promise<Code | null> {
      const row: CodeRow | undefined = await q('codes').where({ account_id: accountId, id }).first();
      return row ? (await withRules([row], q))[0]! : null;
    },

    /** The account's codes among `ids` (missing ones are left out), in no particular order. */
    async findManyByIds(accountId: string, ids: string[]): Promise<Code[]> {
      if (ids.length === 0) return [];
      const rows: CodeRow[] = await db('codes').where({ account_id: accountId }).whereIn('id', ids);
      return withRules(rows, db);
    },

    /** How many of the account's codes are on the domain (it cannot be removed while any are). */
    async countOnDomain(accountId: string, domain: string): Promise<number> {
      const row = await db('codes').where({ account_id: accountId, domain }).count({ n: '*' }).first();
      return Number(row?.n ?? 0);
    },

    /**
     * How many codes the account has (among the ids of the subquery `only`, when given), archived ones left out (they
     * count against nothing).
     */
    async countForAccount(accountId: string, only?: Knex.QueryBuilder): Promise<number> {
      if (!only) return codeCountOf(db, accountId);
      const query = db('codes').where({ account_id: accountId }).whereNot('status', 'archived').whereIn('id', only);
      const row = await query.count({ n: '*' }).first();
      return Number(row?.n ?? 0);
    },

    /**
     * How many of the account's codes name an uploaded image, as design.logo_image_id or as a
     * business card's page.photo_image_id (both stored in JSON text, written by toJson: no spaces).
     * Image ids are `img_` and base62, so `_` is the only LIKE wildcard to escape.
     */
    async imageUses(accountId: string, imageId: string): Promise<number> {
      const like = (field: string) => `%"${field}":"${imageId.replace(/[!%_]/g, '!$&')}"%`;
      const row = await db('codes')
        .where({ account_id: accountId })
        .andWhere((w) =>
          w
            .whereRaw("design like ? escape '!'", [like('logo_image_id')])
            .orWhereRaw("page like ? escape '!'", [like('photo_image_id')]),
        )
        .count({ n: '*' })
        .first();
      return Number(row?.n ?? 0);
    },

    /** Which of these logos codes use, as (account, logo) pairs: logo collection keeps those. */
    async logosInUse(logoIds: string[]): Promise<{ accountId: string; logoId: string }[]> {
      if (logoIds.length === 0) return [];
      const rows: { account_id: string; logo_id: string }[] = await db('codes')
        .distinct('account_id', 'logo_id')
        .whereIn('logo_id', logoIds);
      return rows.map((row) => ({ accountId: row.account_id, logoId: row.logo_id }));
    },

    /**
     * The code behind a public slug on a domain (null: the service's own), whatever its account (the scan route is
     * public).
     */
    async findBySlug(slug: string, domain: string | null = null): Promise<Code | null> {
      const row: CodeRow | undefined = await db('codes')
        .where({ domain: domain ?? '', slug })
        .first();
      return row ? (await withRules([row], db))[0]! : null;
    },

    /** One page in sort order, fetching `limit` rows after the cursor position. */
    async list(accountId: string, query: ListCodesQuery, after: CursorPosition | null, limit: number): Promise<Code[]> {
      const descending = query.sort.startsWith('-');
      const column = sortColumns[query.sort.replace('-', '') as keyof typeof sortColumns];
      const direction = descending ? 'desc' : 'asc';
      const builder = db('codes').where('account_id', accountId);
      if (query.type) builder.andWhere('type', query.type);
      builder.whereIn('status', query.status ?? LISTED_BY_DEFAULT);
      // `q` finds its text in the content or the name.
      const q = query.q;
      if (q)
        builder.andWhere((w) =>
          whereContainsIgnoringCase(db, w, 'content', q).orWhere((n) => whereContainsIgnoringCase(db, n, 'name', q)),
        );
      // Any of the named tags; a subquery, not a join, so a code with two of them is listed once.
      if (query.tag) builder.whereIn('id', tagging.codeIdsWithAny(accountId, query.tag));
      if (query.created_after) builder.andWhere('created_at', '>', toMillis(query.created_after));
      if (query.created_before) builder.andWhere('created_at', '<', toMillis(query.created_before));
      if (after) {
        const op = descending ? '<' : '>';
        builder.andWhere((w) =>
          w.where(column, op, after.key).orWhere((tie) => tie.where(column, after.key).andWhere('id', op, after.id)),
        );
      }
      const rows: CodeRow[] = await builder
        .orderBy([
          { column, order: direction },
          { column: 'id', order: direction },
        ])
        .limit(limit);
      return withRules(rows, db);
    },

    /**
     * One page of a bulk call's codes in id order (keyset: the `limit` codes after `afterId`),
     * for walking a batch of any size without loading it whole. Routing is left out.
     */
    async batchPage(
      accountId: string,
      batchId: string,
      afterId: string | null,
      limit: number,
    ): Promise<CodeWithoutRouting[]> {
      const builder = db('codes').where({ account_id: accountId, batch_id: batchId });
      if (afterId !== null) builder.andWhere('id', '>', afterId);
      const rows: CodeRow[] = await builder.orderBy('id', 'asc').limit(limit);
      return rows.map(codeOf);
    },

    async update(
      accountId: string,
      id: string,
      changes: {
        type?: CodeType;
        content?: CodeContent;
        slug?: string;
        /** null: back to the service's own domain. */
        domain?: string | null;
        forwardQuery?: boolean;
        /** A new password's hash; null removes the password. */
        passwordHash?: string | null;
        /** null removes them. */
        appLinks?: AppLinks | null;
        /** null removes them. */
        utm?: Utm | null;
        /** null removes it. */
        preview?: Preview | null;
        page?: Page | null;
        lifecycle?: LifecycleInput;
        name?: string | null;
        notes?: string | null;
        design?: DesignInput;
        logoId?: string | null;
        routingEnabled?: boolean;
        updatedAt: Date;
      },
      q: Queryable = db,
    ): Promise<void> {
      const row: Record<string, unknown> = { updated_at: toMillis(changes.updatedAt) };
      if (changes.content !== undefined) row.content = storeContent(changes.type ?? 'url', changes.content);
      if (changes.slug !== undefined) row.slug = changes.slug;
      if (changes.domain !== undefined) row.domain = changes.domain ?? '';
      if (changes.forwardQuery !== undefined) row.forward_query = changes.forwardQuery;
      if (changes.passwordHash !== undefined) row.password_hash = changes.passwordHash;
      if (changes.appLinks !== undefined) row.app_links = changes.appLinks && toJson(changes.appLinks);
      if (changes.utm !== undefined) row.utm = changes.utm && toJson(changes.utm);
      if (changes.preview !== undefined) row.preview = changes.preview && toJson(changes.preview);
      if (changes.page !== undefined) row.page = changes.page && toJson(changes.page);
      if (changes.lifecycle !== undefined) Object.assign(row, lifecyclePatchRow(changes.lifecycle));
      if (changes.name !== undefined) row.name = changes.name;
      if (changes.notes !== undefined) row.notes = changes.notes;
      if (changes.logoId !== undefined) row.logo_id = changes.logoId;
      if (changes.design !== undefined) row.design = toJson(changes.design);
      if (changes.routingEnabled !== undefined) row.routing_enabled = changes.routingEnabled;
      const code = q('codes').where({ account_id: accountId, id });
      if (row.status !== undefined) {
        // Into or out of the archive: the status changes first, only if it crosses, so the count
        // moves once however many such updates of the code race (the row's lock orders them).
        const archiving = row.status === 'archived';
        const crossed = await code
          .clone()
          .modify((b) => (archiving ? b.whereNot('status', 'archived') : b.where('status', 'archived')))
          .update({ status: row.status });
        await addToCodeCount(q, accountId, archiving ? -crossed : crossed);
      }
      await code.update(row);
    },

    /**
     * Deletes the code and (by cascade) its rules; its slug stays reserved. It is untagged first,
     * so that its tags' scan counts drop it.
     */
    async delete(accountId: string, id: string, trx: Knex.Transaction): Promise<boolean> {
      // The row's lock before anything is read: this transaction's snapshot then starts after
      // every change of the code that committed before (a concurrent delete, a tagging), so
      // the tags it removes are the code's current ones (see lockCodes).
      await lockCodes([id], trx, 'update');
      const code = trx('codes').where({ account_id: accountId, id });
      if (!(await code.clone().first('id'))) return false;
      await tagging.set(accountId, [{ codeId: id, names: [] }], trx);
      // A counted (unarchived) code first, so the count knows which of the two it removed.
      const uncounting = await code.clone().whereNot('status', 'archived').delete();
      await addToCodeCount(trx, accountId, -uncounting);
      return uncounting > 0 || (await code.delete()) > 0;
    },
  };
}

export type CodesStore = ReturnType<typeof createCodesStore>;

/** Code ids per existence query: well inside every engine's limit on bound parameters. */
const EXISTENCE_CHUNK = 1000;

/** Which of these ids are codes of the account (deleted and other accounts' ones are left out). */
export type OwnedCodeIds = (accountId: string, ids: readonly string[]) => Promise<Set<string>>;

/**
 * The codes table's answer to other modules (webhook endpoints limited to some codes, analytics'
 * code rankings), so that only this store reads `codes`. Looked up by primary key in chunks.
 */
export function createOwnedCodeIds(db: Queryable): OwnedCodeIds {
  return async (accountId, ids) => {
    const owned = new Set<string>();
    for (let i = 0; i < ids.length; i += EXISTENCE_CHUNK) {
      const found: string[] = await db('codes')
        .where('account_id', accountId)
        .whereIn('id', ids.slice(i, i + EXISTENCE_CHUNK))
        .pluck('id');
      for (const id of found) owned.add(id);
    }
    return owned;
  };
}
