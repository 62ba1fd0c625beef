import type { Knex } from 'knex';
import { inTransaction } from '../../db/transaction.ts';
import { DomainError, notFound, validationFailed, type FieldError } from '../../shared/errors.ts';
import { newId } from '../../shared/ids.ts';
import type { Principal } from '../../shared/principal.ts';
import { parseInput } from '../../shared/validation.ts';
import type { RecordAudit } from '../audit/index.ts';
import type { RoutingStore } from '../routing/index.ts';
import { codeChanges, codeSummary } from './audit-summary.ts';
import type { PayloadSource } from './payload.ts';
import { decodeCursor, encodeCursor, type CursorPosition } from './cursor.ts';
import { notAVerifiedDomain, type VerifiedDomainOf } from './domain-field.ts';
import type { CodeImageCheck } from './image-check.ts';
import { designProblems, mergeDesign, type ChangedCode, type Code } from './model.ts';
import {
  contentFieldSchema,
  type CodeContent,
  type CodeSort,
  type CodeType,
  type CreateCodeInput,
  type DesignInput,
  type ListCodesQuery,
  type UpdateCodeInput,
} from './schemas.ts';
import { expiryProblems, staticLifecycleProblems } from './lifecycle.ts';
import { appLinksOf } from './app-links.ts';
import { hashPassword } from './password.ts';
import type { Utm } from './utm.ts';
import { PREVIEW_SLUG, withNewSlug } from './slug.ts';
import { newCodeOf, type CodesStore } from './store.ts';
import type { CodeTagging } from './tagging.ts';

export interface CodePage {
  data: Code[];
  nextCursor: string | null;
  /** Cursor of any item of this page, for Relay edges. */
  cursorOf(code: Code): string;
}

/** A change for the webhook outbox. */
export type CodeEvent =
  | { type: 'code.created' | 'code.updated' | 'code.deleted'; code: Code }
  | { type: 'codes.bulk_created'; accountId: string; batchId: string; codes: Code[] };

export interface CodesServiceDeps {
  db: Knex;
  codes: CodesStore;
  routing: RoutingStore;
  /** The tags module's part in saving a code's `tags` (services.ts hands it in). */
  tagging: CodeTagging;
  /** The images module's part in saving a code: logo fetch, scannability check, preview (services.ts hands it in). */
  images: CodeImageCheck;
  /** Runs after a code was created, changed or deleted, so caches (scan route, images) drop it. */
  onCodeChanged: (code: ChangedCode) => void;
  /** Writes the change's webhook event inside the change's transaction, so both commit or neither does. */
  emit: (event: CodeEvent, trx: Knex.Transaction) => Promise<void>;
  /** Whether the account may put codes on a hostname (a verified domain of its own). */
  verifiedDomainOf: VerifiedDomainOf;
  /** The fields of the account's UTM template of that id, or null (the utm-templates module's, handed in). */
  utmTemplateOf: (accountId: string, id: string) => Promise<Utm | null>;
  /** Records the change in the audit log, in the change's transaction. */
  audit: RecordAudit;
}

function checkDesign(design: DesignInput): void {
  const problems = designProblems(design);
  if (problems.length > 0) throw validationFailed(problems);
}

function positionOf(code: Code, sort: CodeSort): CursorPosition {
  const key = sort.endsWith('updated_at') ? code.updatedAt : code.createdAt;
  return { sort, key: key.getTime(), id: code.id };
}

/** A 409: slugs are never handed out twice, whoever held one and whether its code still exists. */
export const slugTaken = (slug: string, domain: string | null = null) =>
  new DomainError(
    'conflict',
    `The slug '${slug}' is taken${domain ? ` on ${domain}` : ''} (a slug is never used twice); choose another.`,
    [{ path: 'slug', message: 'is taken' }],
  );

const urlOnly = (path: string, type: CodeType): FieldError => ({
  path,
  message: `applies to url codes only; a ${type} code encodes its content directly`,
});

export function createCodesService({
  db,
  codes,
  routing,
  tagging,
  images,
  onCodeChanged,
  emit,
  verifiedDomainOf,
  utmTemplateOf,
  audit,
}: CodesServiceDeps) {
  /** A new code's UTM fields: its template's, if it names one, with the fields it gives itself over them. */
  async function startingUtm(accountId: string, body: CreateCodeInput): Promise<Utm | null> {
    if (body.utm_template_id === undefined) return body.utm ?? null;
    const template = await utmTemplateOf(accountId, body.utm_template_id);
    if (!template)
      throw validationFailed([{ path: 'utm_template_id', message: 'is not a UTM template of the account' }]);
    return { ...template, ...body.utm };
  }

  /** Fetches the logo when the design names one (before any transaction: it is network I/O). */
  const logoIdFor = (accountId: string, design: DesignInput) => images.logoIdFor(accountId, design);

  /** Refuses a design that does not decode back to the code's payload. */
  function verifyScans(
    accountId: string,
    code: PayloadSource,
    design: DesignInput,
    logoId: string | null,
  ): Promise<void> {
    return images.verify(accountId, code, design, logoId);
  }

  /** The domain a PATCH moves the code to (null: the service's own), or undefined for no move. */
  async function domainChange(
    accountId: string,
    current: Code,
    requested: string | null | undefined,
  ): Promise<string | null | undefined> {
    if (requested === undefined) return undefined;
    const target = requested === null ? null : await verifiedDomainOf(accountId, requested);
    if (requested !== null && !target) throw notAVerifiedDomain('domain');
    return target === current.domain ? undefined : target;
  }

  /** The caller's code, or a 404 (also for another account's id: ids do not leak). */
  async function get(principal: Principal, id: string): Promise<Code> {
    const code = await codes.findById(principal.accountId, id);
    if (!code) throw notFound('code', id);
    return code;
  }

  return {
    /** Creates a code with its design and routing rules in one transaction (input parsed by parseCreateCode). */
    async create(principal: Principal, given: CreateCodeInput): Promise<Code> {
      checkDesign(given.design);
      const body = { ...given, utm: await startingUtm(principal.accountId, given) };
      const domain = body.domain ? await verifiedDomainOf(principal.accountId, body.domain) : null;
      if (body.domain && !domain) throw notAVerifiedDomain('domain');
      const logoId = await logoIdFor(principal.accountId, body.design);
      await images.checkPhoto(principal.accountId, body.page);
      const passwordHash = body.password ? await hashPassword(body.password) : null;
      // The image is checked with the real scan URL before the transaction (no transaction waits
      // on the render thread); the slug is reserved inside it, so a failed create leaves none.
      const insert = async (slug: string | null): Promise<Code | null> => {
        await verifyScans(
          principal.accountId,
          { type: body.type, content: body.content, slug, domain },
          body.design,
          logoId,
        );
        const now = new Date();
        const id = newId('qr');
        return inTransaction(db, async (trx) => {
          if (slug !== null && !(await codes.reserveSlug(slug, trx, domain))) return null;
          await codes.insert(
            newCodeOf(body, { id, accountId: principal.accountId, logoId, slug, domain, now, passwordHash }),
            trx,
          );
          await routing.replaceRules(id, body.routing.rules ?? [], trx);
          if (body.tags?.length) await tagging.set(principal.accountId, [{ codeId: id, names: body.tags }], trx);
          const created = (await codes.findById(principal.accountId, id, trx))!;
          await emit({ type: 'code.created', code: created }, trx);
          await audit(
            principal,
            { action: 'code.created', objectType: 'code', objectId: id, summary: codeSummary(created) },
            trx,
          );
          return created;
        });
      };
      let code: Code;
      if (body.type !== 'url') code = (await insert(null))!;
      else if (body.slug === undefined) code = await withNewSlug(insert);
      else {
        // Refused before the image is drawn when it is known taken; the insert decides a race.
        if ((await codes.takenSlugs([body.slug], db, domain)).length > 0) throw slugTaken(body.slug, domain);
        const made = await insert(body.slug);
        if (!made) throw slugTaken(body.slug, domain);
        code = made;
      }
      // A scan of a slug before it existed may have cached "missing".
      onCodeChanged(code);
      return code;
    },

    get,

    /** One page of the caller's codes, filtered and sorted, with the cursor of the next page. */
    async list(principal: Principal, params: ListCodesQuery): Promise<CodePage> {
      const after = params.cursor ? decodeCursor(params.cursor, params.sort) : null;
      // One extra row tells whether another page exists without a COUNT.
      const rows = await codes.list(principal.accountId, params, after, params.limit + 1);
      const data = rows.slice(0, params.limit);
      const last = data[data.length - 1];
      const cursorOf = (code: Code) => encodeCursor(positionOf(code, params.sort));
      return { data, nextCursor: rows.length > params.limit && last ? cursorOf(last) : null, cursorOf };
    },

    /**
     * Partial update of content, slug, name, notes, password, tags, lifecycle, design and routing; rules and tags
     * given replace the old ones whole.
     */
    async update(principal: Principal, id: string, patch: UpdateCodeInput): Promise<Code> {
      const current = await codes.findById(principal.accountId, id);
      if (!current) throw notFound('code', id);
      const problems: FieldError[] = [];
      if (current.type !== 'url' && patch.destination !== undefined)
        problems.push(urlOnly('destination', current.type));
      if (current.type !== 'url' && patch.routing !== undefined) problems.push(urlOnly('routing', current.type));
      if (current.type !== 'url' && patch.slug !== undefined) problems.push(urlOnly('slug', current.type));
      if (current.type !== 'url' && patch.domain !== undefined) problems.push(urlOnly('domain', current.type));
      if (current.type !== 'url' && patch.forward_query !== undefined)
        problems.push(urlOnly('forward_query', current.type));
      for (const field of ['password', 'app_links', 'utm', 'preview', 'page'] as const)
        if (current.type !== 'url' && patch[field] !== undefined) problems.push(urlOnly(field, current.type));
      problems.push(
        ...staticLifecycleProblems(current.type, patch),
        ...expiryProblems(patch.expires_at, current.lifecycle.expiresAt),
      );
      if (problems.length > 0) throw validationFailed(problems);
      // The second validation step stays here: what `content` must be depends on the stored code's type.
      const newContent: CodeContent | undefined =
        patch.content !== undefined
          ? parseInput(contentFieldSchema(current.type), { content: patch.content }).content
          : patch.destination;
      const design = patch.design ? mergeDesign(current.design, patch.design) : undefined;
      if (design) checkDesign(design);
      const logoChanged =
        design !== undefined &&
        (design.logo_url !== current.design.logo_url || design.logo_image_id !== current.design.logo_image_id);
      const logoId = logoChanged ? await logoIdFor(principal.accountId, design) : current.logoId;
      await images.checkPhoto(principal.accountId, patch.page);
      // A new slug changes the scan URL, so the image the code encodes changes too.
      const newSlug = patch.slug !== undefined && patch.slug !== current.slug ? patch.slug : undefined;
      // So does another domain: the slug (new or kept) is then reserved on that domain.
      const newDomain = await domainChange(principal.accountId, current, patch.domain);
      const moved = newSlug !== undefined || newDomain !== undefined;
      const slugAfter = newSlug ?? current.slug!;
      const domainAfter = newDomain !== undefined ? newDomain : current.domain;
      if (moved && (await codes.takenSlugs([slugAfter], db, domainAfter)).length > 0)
        throw slugTaken(slugAfter, domainAfter);
      if (newContent !== undefined || design !== undefined || moved) {
        const drawn = {
          ...current,
          content: newContent ?? current.content,
          slug: newSlug ?? current.slug,
          domain: domainAfter,
        };
        await verifyScans(principal.accountId, drawn, design ?? current.design, logoId);
      }
      const passwordHash = patch.password ? await hashPassword(patch.password) : patch.password;
      const rules = patch.routing?.rules;
      const code = await inTransaction(db, async (trx) => {
        // What the audit log calls old is `current`, read before the transaction. Reading it again
        // here would make a read the transaction's first statement: on SQLite a deferred transaction
        // that reads first is refused its first write at once (SQLITE_BUSY) when another process
        // commits in between (two instances on one file answered PATCH with 503 and 500 that way).
        if (moved && !(await codes.reserveSlug(slugAfter, trx, domainAfter))) throw slugTaken(slugAfter, domainAfter);
        await codes.update(
          principal.accountId,
          id,
          {
            type: current.type,
            content: newContent,
            slug: newSlug,
            domain: newDomain,
            forwardQuery: patch.forward_query,
            passwordHash,
            appLinks: patch.app_links && appLinksOf(patch.app_links),
            utm: patch.utm,
            preview: patch.preview,
            page: patch.page,
            lifecycle: patch,
            name: patch.name,
            notes: patch.notes,
            design,
            logoId: logoChanged ? logoId : undefined,
            // Only an explicit `enabled` switches routing; new rules alone leave it as it was.
            routingEnabled: patch.routing?.enabled,
            updatedAt: new Date(),
          },
          trx,
        );
        if (rules) await routing.replaceRules(id, rules, trx);
        if (patch.tags !== undefined) await tagging.set(principal.accountId, [{ codeId: id, names: patch.tags }], trx);
        const updated = await codes.findById(principal.accountId, id, trx);
        // Deleted by a concurrent request between the read above and this transaction.
        if (!updated) throw notFound('code', id);
        await emit({ type: 'code.updated', code: updated }, trx);
        await audit(
          principal,
          {
            action: 'code.updated',
            objectType: 'code',
            objectId: id,
            summary: { changes: codeChanges(current, updated) },
          },
          trx,
        );
        return updated;
      });
      onCodeChanged(code);
      // The retired slug's cached target goes too: it answers 404 from now on.
      if (moved) onCodeChanged(current);
      return code;
    },

    /**
     * The SVG that creating a code from `input` would draw, refused (422) exactly as create would
     * refuse it (fields, contrast, logo fetch, scannability). No code is saved; a logo is
     * stored as on create (logos are content-addressed, so a later create reuses it). With `codeId`, a
     * url code encodes that code's scan URL, so an edited design previews the real image.
     */
    async preview(
      principal: Principal,
      body: CreateCodeInput,
      options: { codeId?: string; size?: number } = {},
    ): Promise<string> {
      const drawSvg = images.previewAt(options.size);
      checkDesign(body.design);
      const saved = options.codeId === undefined ? null : await get(principal, options.codeId);
      const slug = body.type === 'url' ? (saved?.slug ?? PREVIEW_SLUG) : null;
      const logoId = await logoIdFor(principal.accountId, body.design);
      const code = {
        type: body.type,
        content: body.content,
        slug,
        domain: saved?.domain ?? null,
        design: body.design,
        logoId,
      };
      await verifyScans(principal.accountId, code, body.design, logoId);
      return drawSvg(principal.accountId, code);
    },

    /** Deletes the code for good; its scan URL answers 404 from then on. */
    async remove(principal: Principal, id: string): Promise<void> {
      const code = await codes.findById(principal.accountId, id);
      if (!code) throw notFound('code', id);
      const deleted = await inTransaction(db, async (trx) => {
        if (!(await codes.delete(principal.accountId, id, trx))) return false;
        // The code as it was, so receivers learn what went.
        await emit({ type: 'code.deleted', code }, trx);
        await audit(
          principal,
          { action: 'code.deleted', objectType: 'code', objectId: id, summary: codeSummary(code) },
          trx,
        );
        return true;
      });
      if (!deleted) throw notFound('code', id);
      onCodeChanged(code);
    },
  };
}

export type CodesService = ReturnType<typeof createCodesService>;
