import type { Knex } from 'knex';
import { inTransaction } from '../../db/transaction.ts';
import { notFound, validationFailed } from '../../shared/errors.ts';
import { newId } from '../../shared/ids.ts';
import type { Principal } from '../../shared/principal.ts';
import { parseInput } from '../../shared/validation.ts';
import type { RoutingStore } from '../routing/store.ts';
import { decodeCursor, encodeCursor, type CursorPosition } from './cursor.ts';
import { designProblems, mergeDesign, type Code } from './model.ts';
import { createCodeSchema, listCodesSchema, updateCodeSchema, type CodeSort, type DesignInput } from './schemas.ts';
import { allocateSlug } from './slug.ts';
import type { CodesStore } from './store.ts';

export interface CodePage {
  data: Code[];
  nextCursor: string | null;
  /** Cursor of any item of this page, for Relay edges. */
  cursorOf(code: Code): string;
}

function checkDesign(design: DesignInput): void {
  const problems = designProblems(design);
  if (problems.length > 0) throw validationFailed(problems);
}

function positionOf(code: Code, sort: CodeSort): CursorPosition {
  const key = sort.endsWith('updated_at') ? code.updatedAt : code.createdAt;
  return { sort, key: key.getTime(), id: code.id };
}

/**
 * onCodeChanged(slug) runs after a code was created, changed or deleted, so the scan route's
 * cache drops it at once.
 */
export function createCodesService(db: Knex, codes: CodesStore, routing: RoutingStore, onCodeChanged: (slug: string) => void) {
  return {
    /** Creates a code with its design and routing rules in one transaction. */
    async create(principal: Principal, input: unknown): Promise<Code> {
      const body = parseInput(createCodeSchema, input);
      checkDesign(body.design);
      const now = new Date();
      const id = newId('qr');
      const code = await inTransaction(db, async (trx) => {
        const slug = await allocateSlug((candidate) => codes.reserveSlug(candidate, trx));
        // Rules given without `enabled` are meant to work, so they switch routing on.
        const routingEnabled = body.routing.enabled ?? (body.routing.rules?.length ?? 0) > 0;
        await codes.insert(
          {
            id,
            accountId: principal.accountId,
            type: body.type,
            content: body.content,
            design: body.design,
            routingEnabled,
            slug,
            createdAt: now,
            updatedAt: now,
          },
          trx,
        );
        await routing.replaceRules(id, body.routing.rules ?? [], trx);
        return (await codes.findById(principal.accountId, id, trx))!;
      });
      // A scan of a slug before it existed may have cached "missing".
      onCodeChanged(code.slug);
      return code;
    },

    /** The caller's code, or a 404 (also for another account's id: ids do not leak). */
    async get(principal: Principal, id: string): Promise<Code> {
      const code = await codes.findById(principal.accountId, id);
      if (!code) throw notFound('code', id);
      return code;
    },

    /** One page of the caller's codes, filtered and sorted, with the cursor of the next page. */
    async list(principal: Principal, query: unknown): Promise<CodePage> {
      const params = parseInput(listCodesSchema, query);
      const after = params.cursor ? decodeCursor(params.cursor, params.sort) : null;
      // One extra row tells whether another page exists without a COUNT.
      const rows = await codes.list(principal.accountId, params, after, params.limit + 1);
      const data = rows.slice(0, params.limit);
      const last = data[data.length - 1];
      const cursorOf = (code: Code) => encodeCursor(positionOf(code, params.sort));
      return { data, nextCursor: rows.length > params.limit && last ? cursorOf(last) : null, cursorOf };
    },

    /** Partial update of content, design and routing; rules given are replaced as a whole. */
    async update(principal: Principal, id: string, input: unknown): Promise<Code> {
      const patch = parseInput(updateCodeSchema, input);
      const code = await inTransaction(db, async (trx) => {
        const current = await codes.findById(principal.accountId, id, trx);
        if (!current) throw notFound('code', id);
        const design = patch.design ? mergeDesign(current.design, patch.design) : undefined;
        if (design) checkDesign(design);
        const rules = patch.routing?.rules;
        await codes.update(
          principal.accountId,
          id,
          {
            content: patch.content ?? patch.destination,
            design,
            // Only an explicit `enabled` switches routing; new rules alone leave it as it was.
            routingEnabled: patch.routing?.enabled,
            updatedAt: new Date(),
          },
          trx,
        );
        if (rules) await routing.replaceRules(id, rules, trx);
        return (await codes.findById(principal.accountId, id, trx))!;
      });
      onCodeChanged(code.slug);
      return code;
    },

    /** Deletes the code for good; its scan URL answers 404 from then on. */
    async remove(principal: Principal, id: string): Promise<void> {
      const code = await codes.findById(principal.accountId, id);
      if (!code || !(await codes.delete(principal.accountId, id))) throw notFound('code', id);
      onCodeChanged(code.slug);
    },
  };
}

export type CodesService = ReturnType<typeof createCodesService>;
