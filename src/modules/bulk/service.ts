// Bulk creation: up to 10,000 codes in one transaction. Every item is validated like a single
// create and every problem is reported by item index; if any item is invalid, nothing is made.
import { z } from 'zod';
import { inTransaction } from '../../db/transaction.ts';
import { DomainError, validationFailed, type FieldError } from '../../shared/errors.ts';
import { newId, randomBase62 } from '../../shared/ids.ts';
import type { Principal } from '../../shared/principal.ts';
import { mapInTurns, takeTurn } from '../../shared/turns.ts';
import { designProblems, resolveDesign, type Code } from '../codes/index.ts';
import { parseCreateCode, type CreateCodeInput } from '../codes/index.ts';
import { isReservedPath, PREVIEW_SLUG, SLUG_LENGTH } from '../codes/index.ts';
import type { CodesServiceDeps } from '../codes/index.ts';
import { newCodeOf, type NewCode } from '../codes/index.ts';
import type { Logos } from '../images/index.ts';
import type { ImagesService } from '../images/index.ts';
import { groupByDomain, resolveItemDomains, slugKey } from './domains.ts';

export const MAX_BULK_CODES = 10_000;
/** Problems listed in one 422 at most; the detail says how many there were in all. */
const MAX_LISTED_ERRORS = 1000;
const SLUG_ATTEMPTS = 5;

export const bulkBodySchema = z.strictObject({
  codes: z.array(z.unknown(), { error: 'must be an array of codes' }).min(1, 'must hold at least one code'),
});
/**
 * The envelope, parsed at the transport; its items are parsed here one by one, so each one's problems are reported
 * under its index.
 */
export type BulkBody = z.output<typeof bulkBodySchema>;

/** An imported item's history (the imports module): its creation date and scan total at its source. */
export interface ImportedHistory {
  createdAt: Date | null;
  scans: number;
}

export interface BulkResult {
  batchId: string;
  codes: Code[];
}

/**
 * Bulk creation needs what single creation needs, the images service and logos themselves (it
 * checks many designs at once, above codes), and a bound on the logos one call fetches; no UTM
 * templates (each item gives its own utm).
 */
export type BulkServiceDeps = Omit<CodesServiceDeps, 'images' | 'utmTemplateOf'> & {
  images: ImagesService;
  logos: Logos;
  maxLogoFetches: number;
};

function drawSlugs(count: number): string[] {
  const slugs = new Set<string>();
  while (slugs.size < count) {
    const slug = randomBase62(SLUG_LENGTH);
    if (!isReservedPath(slug)) slugs.add(slug);
  }
  return [...slugs];
}

/** A 409 naming every item whose slug is taken on its domain (`taken` holds slugKeys). */
function slugsTaken(bodies: CreateCodeInput[], domains: (string | null)[], taken: Set<string>): DomainError {
  const errors = bodies.flatMap((body, index) =>
    body.slug !== undefined && taken.has(slugKey(domains[index]!, body.slug))
      ? [{ path: `codes.${index}.slug`, message: 'is taken' }]
      : [],
  );
  return new DomainError(
    'conflict',
    `${errors.length === 1 ? 'A slug is' : `${errors.length} slugs are`} taken (a slug is never used twice): ` +
      `${errors.map((e) => e.path).join(', ')}.`,
    errors,
  );
}

/**
 * Uploaded images (a logo's design.logo_image_id, a business card's page.photo_image_id) are for
 * codes made one at a time: a bulk call checks its logos by URL, once per distinct URL.
 */
function refuseUploadedImages(bodies: CreateCodeInput[]): void {
  const problems = bodies.flatMap((body, index) => [
    ...(body.design.logo_image_id ? [{ path: `codes.${index}.design.logo_image_id`, message: UPLOADS_ALONE }] : []),
    ...(body.page?.kind === 'business_card' && body.page.photo_image_id
      ? [{ path: `codes.${index}.page.photo_image_id`, message: UPLOADS_ALONE }]
      : []),
  ]);
  if (problems.length > 0) throw validationFailed(problems);
}

const UPLOADS_ALONE = 'an uploaded image is not taken in a bulk call; create this code alone, or use design.logo_url';

export function createBulkService({
  db,
  codes,
  routing,
  tagging,
  images,
  logos,
  onCodeChanged,
  emit,
  verifiedDomainOf,
  maxLogoFetches,
  audit,
}: BulkServiceDeps) {
  /** The custom slugs of the items, per domain. */
  const customSlugs = (bodies: CreateCodeInput[], domains: (string | null)[]) =>
    [...groupByDomain(bodies, domains, (b) => b.slug !== undefined)].map(([domain, indexes]) => ({
      domain,
      slugs: indexes.map((i) => bodies[i]!.slug!),
    }));

  /** Which of the items' custom slugs are taken, as slugKeys. */
  async function takenKeys(bodies: CreateCodeInput[], domains: (string | null)[]): Promise<Set<string>> {
    const taken = new Set<string>();
    for (const { domain, slugs } of customSlugs(bodies, domains))
      for (const slug of await codes.takenSlugs(slugs, db, domain)) taken.add(slugKey(domain, slug));
    return taken;
  }

  /** Parses every item, collecting each one's problems under `codes.<index>` (in turns: 10,000 take a while). */
  async function parseItems(items: unknown[]): Promise<CreateCodeInput[]> {
    const errors: FieldError[] = [];
    const parsed = await mapInTurns(items, (item, index) => {
      try {
        const body = parseCreateCode(item);
        const problems = designProblems(body.design);
        // Hashing up to 10,000 passwords (argon2id) would hold the call for minutes.
        if (body.password != null)
          problems.push({ path: 'password', message: 'is set one code at a time (POST /v1/codes or PATCH)' });
        // A bulk call copies no template: its items give their `utm` themselves.
        if (body.utm_template_id !== undefined)
          problems.push({ path: 'utm_template_id', message: 'is taken one code at a time (POST /v1/codes); give utm' });
        if (problems.length > 0) throw validationFailed(problems);
        return body;
      } catch (err) {
        if (!(err instanceof DomainError) || !err.fieldErrors) throw err;
        for (const e of err.fieldErrors)
          errors.push({ path: `codes.${index}${e.path ? `.${e.path}` : ''}`, message: e.message });
        return null;
      }
    });
    if (errors.length > 0) {
      const failed = new Set(errors.map((e) => e.path.split('.')[1])).size;
      const listed = errors.slice(0, MAX_LISTED_ERRORS);
      throw new DomainError(
        'validation_failed',
        `${failed} of ${items.length} codes are invalid (${errors.length} ` +
          `problems${listed.length < errors.length ? `, first ${listed.length} listed` : ''}); none was created.`,
        listed,
      );
    }
    return parsed as CreateCodeInput[];
  }

  /**
   * The scannability check of every item, per distinct design and payload class (images.verifyAll);
   * url codes are checked with a stand-in slug: every scan URL has the same length and alphabet.
   */
  async function verifyAll(
    accountId: string,
    bodies: CreateCodeInput[],
    domains: (string | null)[],
    logoIds: Map<string, string>,
    logoData: Map<string, Awaited<ReturnType<Logos['forRender']>>>,
  ): Promise<void> {
    const items = bodies.map((body, index) => ({
      // A custom slug is checked as it is (its length may change the QR version); random ones
      // all have the stand-in's length and alphabet.
      payload: images.payloadOf({
        type: body.type,
        content: body.content,
        slug: body.slug ?? PREVIEW_SLUG,
        domain: domains[index],
      }),
      designKey: JSON.stringify(body.design),
      design: resolveDesign(body.design),
      logo: body.design.logo_url ? (logoData.get(logoIds.get(body.design.logo_url)!) ?? null) : null,
    }));
    try {
      await images.verifyAll(accountId, items);
    } catch (err) {
      if (err instanceof DomainError && err.fieldErrors) {
        throw validationFailed(err.fieldErrors.map((e) => ({ path: `codes.${e.path}`, message: e.message })));
      }
      throw err;
    }
  }

  /** Custom slugs: none twice in one call (422), none taken before (409), each named by its item. */
  async function checkCustomSlugs(bodies: CreateCodeInput[], domains: (string | null)[]): Promise<void> {
    const firstAt = new Map<string, number>();
    const repeated: FieldError[] = [];
    bodies.forEach((body, index) => {
      if (body.slug === undefined) return;
      const key = slugKey(domains[index]!, body.slug);
      const first = firstAt.get(key);
      if (first === undefined) firstAt.set(key, index);
      else repeated.push({ path: `codes.${index}.slug`, message: `repeats the slug of codes.${first}` });
    });
    if (repeated.length > 0) throw validationFailed(repeated);
    const taken = await takenKeys(bodies, domains);
    if (taken.size > 0) throw slugsTaken(bodies, domains, taken);
  }

  return {
    /**
     * Creates every code or none; answers them in request order with one batch id. `imported`, when given, holds
     * each item's history at the service it was imported from, in item order.
     */
    async create(principal: Principal, { codes: items }: BulkBody, imported?: ImportedHistory[]): Promise<BulkResult> {
      if (items.length > MAX_BULK_CODES) {
        throw new DomainError(
          'payload_too_large',
          `A bulk call creates at most ${MAX_BULK_CODES} codes; this one has ${items.length}.`,
        );
      }
      const bodies = await parseItems(items);
      refuseUploadedImages(bodies);
      const domains = await resolveItemDomains(principal.accountId, bodies, verifiedDomainOf);
      await checkCustomSlugs(bodies, domains);

      // Each distinct logo is fetched once, before the transaction (it is network I/O), and one
      // call fetches a bounded number of them, one after another.
      const logoUrls = new Set(bodies.map((b) => b.design.logo_url).filter((u): u is string => !!u));
      if (logoUrls.size > maxLogoFetches) {
        throw new DomainError(
          'validation_failed',
          `These codes name ${logoUrls.size} different logo URLs; one bulk call may fetch at most ${maxLogoFetches} ` +
            `(BULK_LOGO_FETCHES_PER_CALL). Use fewer logos, or split the call.`,
        );
      }
      const logoIds = new Map<string, string>();
      const logoData = new Map<string, Awaited<ReturnType<Logos['forRender']>>>();
      for (const url of logoUrls) {
        const id = await logos.ensureFromUrl(principal.accountId, url);
        logoIds.set(url, id);
        logoData.set(id, await logos.forRender(id));
      }
      await verifyAll(principal.accountId, bodies, domains, logoIds, logoData);

      const batchId = newId('batch');
      const now = new Date();
      const created = await inTransaction(db, async (trx) => {
        for (const { domain, slugs } of customSlugs(bodies, domains)) {
          // Taken since the check above: the whole call is refused, as it would have been then.
          if (!(await codes.reserveSlugs(slugs, trx, domain)))
            throw slugsTaken(bodies, domains, await takenKeys(bodies, domains));
        }
        // Random slugs, drawn and reserved per domain.
        const drawn = new Map<number, string>();
        for (const [domain, indexes] of groupByDomain(
          bodies,
          domains,
          (b) => b.type === 'url' && b.slug === undefined,
        )) {
          let slugs: string[] = [];
          for (let attempt = 0; ; attempt++) {
            if (attempt === SLUG_ATTEMPTS) throw new Error('Could not reserve fresh slugs for a bulk call');
            slugs = drawSlugs(indexes.length);
            if (await codes.reserveSlugs(slugs, trx, domain)) break;
          }
          indexes.forEach((index, i) => drawn.set(index, slugs[i]!));
        }
        const newCodes: (NewCode & { rules: CreateCodeInput['routing']['rules'] })[] = await mapInTurns(
          bodies,
          (body, index) => ({
            ...newCodeOf(body, {
              id: newId('qr'),
              accountId: principal.accountId,
              logoId: body.design.logo_url ? logoIds.get(body.design.logo_url)! : null,
              slug: body.type === 'url' ? (body.slug ?? drawn.get(index)!) : null,
              domain: domains[index],
              now,
              batchId,
              imported: imported?.[index],
            }),
            rules: body.routing.rules,
          }),
        );
        await codes.insertMany(newCodes, trx);
        const rules = await routing.insertForNewCodes(
          newCodes.filter((c) => c.rules?.length).map((c) => ({ codeId: c.id, rules: c.rules! })),
          trx,
        );
        // Tags named by the items, the account's missing ones made once for the whole call.
        const tagged = newCodes.flatMap((c, i) =>
          bodies[i]!.tags?.length ? [{ codeId: c.id, names: bodies[i]!.tags! }] : [],
        );
        if (tagged.length > 0) await tagging.set(principal.accountId, tagged, trx, 'codes');
        const tags =
          tagged.length > 0
            ? await tagging.namesOf(
                tagged.map((t) => t.codeId),
                trx,
              )
            : new Map<string, string[]>();
        const made = await mapInTurns(
          newCodes,
          ({ rules: _rules, routingEnabled, batchId: _batch, ...code }): Code => ({
            ...code,
            routing: { enabled: routingEnabled, rules: rules.get(code.id) ?? [] },
            tags: tags.get(code.id) ?? [],
          }),
        );
        // One event for the whole call, committed with it.
        await emit({ type: 'codes.bulk_created', accountId: principal.accountId, batchId, codes: made }, trx);
        // One audit entry per call, with the count, not one per code; an import says so.
        await audit(
          principal,
          {
            action: imported ? 'codes.imported' : 'codes.bulk_created',
            objectType: 'batch',
            objectId: batchId,
            summary: { count: made.length },
          },
          trx,
        );
        return made;
      });
      for (const code of created) {
        await takeTurn();
        onCodeChanged(code);
      }
      return { batchId, codes: created };
    },
  };
}

export type BulkService = ReturnType<typeof createBulkService>;
