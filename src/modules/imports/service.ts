// Imports from other link services: parse the export into rows, check each row as a create would
// (destination, slug, tags, title, domain), match rows already here by (domain, slug) in the
// account, and create the rest through bulk creation, so its validation, slug reservation, tags
// and `codes.bulk_created` webhook all apply. A dry run stops before writing.
import { DomainError, validationFailed } from '../../shared/errors.ts';
import type { Principal } from '../../shared/principal.ts';
import type { BulkService, ImportedHistory } from '../bulk/index.ts';
import { MAX_BULK_CODES } from '../bulk/index.ts';
import { parseCreateCode, type CodesStore, type CreateCodeInput, type VerifiedDomainOf } from '../codes/index.ts';
import type { ImportFormat, ImportRow } from './model.ts';
import { PARSERS } from './parse.ts';
import type { ImportBody } from './schemas.ts';

/** Titles longer than a code's name may be are cut, not refused: the link still works. */
const MAX_TITLE = 200;
/** A create body's fields, as the export calls them. */
const SOURCE_NAMES: Record<string, string> = { content: 'destination', name: 'title' };

export type ImportStatus = 'would_create' | 'created' | 'exists' | 'failed';

export interface ImportOutcome {
  row: number;
  status: ImportStatus;
  domain: string | null;
  slug: string | null;
  destination: string | null;
  /** The code made, or the one already here for `exists`. */
  codeId: string | null;
  /** Why the row cannot be created (failed rows only). */
  reason: string | null;
}

export interface ImportReport {
  format: ImportFormat;
  dryRun: boolean;
  batchId: string | null;
  rows: ImportOutcome[];
}

export interface ImportsServiceDeps {
  codes: Pick<CodesStore, 'codesWithSlugs' | 'takenSlugs'>;
  bulk: Pick<BulkService, 'create'>;
  verifiedDomainOf: VerifiedDomainOf;
}

interface Planned {
  outcome: ImportOutcome;
  body?: CreateCodeInput;
  history?: ImportedHistory;
  problems: string[];
}

const key = (domain: string | null, slug: string) => `${domain ?? ''}/${slug}`;

export function createImportsService({ codes, bulk, verifiedDomainOf }: ImportsServiceDeps) {
  /** The domain every row goes on (`domain` given), or undefined: each row's own host. */
  async function overrideOf(accountId: string, body: ImportBody): Promise<string | null | undefined> {
    if (body.domain === undefined || body.domain === null) return body.domain;
    const domain = await verifiedDomainOf(accountId, body.domain);
    if (!domain) throw validationFailed([{ path: 'domain', message: 'is not a verified domain of this account' }]);
    return domain;
  }

  /** A row's create body, or its problems as the export would name them. */
  function bodyOf(row: ImportRow, domain: string | null, problems: string[]): CreateCodeInput | undefined {
    if (!row.destination) problems.push('has no destination');
    if (problems.length > 0) return undefined;
    try {
      return parseCreateCode({
        type: 'url',
        content: row.destination,
        slug: row.slug,
        ...(domain ? { domain } : {}),
        // Cut by code points, so no emoji is split in two.
        ...(row.title ? { name: Array.from(row.title).slice(0, MAX_TITLE).join('') } : {}),
        ...(row.tags.length > 0 ? { tags: row.tags } : {}),
      });
    } catch (err) {
      if (!(err instanceof DomainError) || !err.fieldErrors) throw err;
      for (const e of err.fieldErrors) {
        const [field, ...rest] = e.path.split('.');
        problems.push(`${[SOURCE_NAMES[field!] ?? field, ...rest].join('.')} ${e.message}`);
      }
      return undefined;
    }
  }

  /** Each row's domain, body and status before anything is written. */
  async function plan(accountId: string, rows: ImportRow[], override: string | null | undefined): Promise<Planned[]> {
    const verified = new Map<string, string | null>();
    const planned: Planned[] = [];
    for (const row of rows) {
      const problems = [...row.problems];
      let domain: string | null = override ?? null;
      if (override === undefined && row.host) {
        if (!verified.has(row.host)) verified.set(row.host, await verifiedDomainOf(accountId, row.host));
        domain = verified.get(row.host)!;
        if (!domain)
          problems.push(
            `its domain '${row.host}' is not a verified domain of this account (add and verify it, or import with ` +
              `a domain to put every link on)`,
          );
      }
      const body = bodyOf(row, domain, problems);
      planned.push({
        outcome: {
          row: row.row,
          status: 'would_create',
          domain,
          slug: row.slug,
          destination: row.destination,
          codeId: null,
          reason: null,
        },
        body,
        history: { createdAt: row.createdAt, scans: row.scans ?? 0 },
        problems,
      });
    }
    await matchSlugs(accountId, planned);
    for (const p of planned) {
      if (p.problems.length > 0) Object.assign(p.outcome, { status: 'failed', reason: p.problems.join('; ') });
    }
    return planned;
  }

  /** Slugs repeated in the file, already the account's (`exists`), or taken otherwise. */
  async function matchSlugs(accountId: string, planned: Planned[]): Promise<void> {
    const firstRow = new Map<string, number>();
    const byDomain = new Map<string | null, Planned[]>();
    for (const p of planned) {
      if (!p.body) continue;
      const slugKey = key(p.outcome.domain, p.body.slug!);
      const first = firstRow.get(slugKey);
      if (first !== undefined) {
        p.problems.push(`repeats the slug of row ${first}`);
        continue;
      }
      firstRow.set(slugKey, p.outcome.row);
      const group = byDomain.get(p.outcome.domain) ?? [];
      group.push(p);
      byDomain.set(p.outcome.domain, group);
    }
    for (const [domain, group] of byDomain) {
      const slugs = group.map((p) => p.body!.slug!);
      const mine = await codes.codesWithSlugs(accountId, slugs, domain);
      const taken = new Set(await codes.takenSlugs(slugs, undefined, domain));
      for (const p of group) {
        const codeId = mine.get(p.body!.slug!);
        if (codeId) Object.assign(p.outcome, { status: 'exists', codeId });
        else if (taken.has(p.body!.slug!))
          p.problems.push(
            `slug '${p.body!.slug}' is taken on ${domain ?? 'the service’s domain'} (by another account's code, or a ` +
              `deleted one: a slug is never used twice)`,
          );
      }
    }
  }

  return {
    /**
     * Imports an export into the principal's account: every row it can, each reported with its status; rows
     * already imported (the same slug on the same domain in this account) are left as they are.
     */
    async run(principal: Principal, body: ImportBody): Promise<ImportReport> {
      const rows = PARSERS[body.format](body.content);
      if (rows.length === 0) throw validationFailed([{ path: 'content', message: 'holds no links' }]);
      if (rows.length > MAX_BULK_CODES) {
        throw new DomainError(
          'payload_too_large',
          `One import holds at most ${MAX_BULK_CODES} links; this export has ${rows.length}. Split it.`,
        );
      }
      const planned = await plan(principal.accountId, rows, await overrideOf(principal.accountId, body));
      const report: ImportReport = {
        format: body.format,
        dryRun: body.dry_run,
        batchId: null,
        rows: planned.map((p) => p.outcome),
      };
      const creatable = planned.filter((p) => p.outcome.status === 'would_create');
      if (body.dry_run || creatable.length === 0) return report;
      const result = await bulk.create(
        principal,
        { codes: creatable.map((p) => p.body!) },
        creatable.map((p) => p.history!),
      );
      creatable.forEach((p, i) => Object.assign(p.outcome, { status: 'created', codeId: result.codes[i]!.id }));
      report.batchId = result.batchId;
      return report;
    },
  };
}

export type ImportsService = ReturnType<typeof createImportsService>;
