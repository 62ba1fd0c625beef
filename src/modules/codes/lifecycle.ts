// A code's lifecycle: paused or archived by its owner, expired at an instant, or out of
// scans after max_scans. The fields' schemas, their rules, and what a scan does now (`state`).
// The scan path has its own compiled copy (scans/lifecycle-answer.ts); this is the API's view.
import { z } from 'zod';
import type { FieldError } from '../../shared/errors.ts';
import { httpUrlSchema } from '../../shared/url.ts';

export const CODE_STATUSES = ['active', 'paused', 'archived'] as const;
export type CodeStatus = (typeof CODE_STATUSES)[number];

/** What a scan of the code does now. */
export const CODE_STATES = ['active', 'paused', 'expired', 'limit_reached'] as const;
export type CodeState = (typeof CODE_STATES)[number];

/** The statuses a list shows when none is asked for: archived codes are hidden. */
export const LISTED_BY_DEFAULT: readonly CodeStatus[] = ['active', 'paused'];

/** The largest max_scans (the column is a 32-bit integer). */
export const MAX_SCANS_LIMIT = 2_147_483_647;

export interface CodeLifecycle {
  status: CodeStatus;
  pausedDestination: string | null;
  expiresAt: Date | null;
  expiredDestination: string | null;
  maxScans: number | null;
  /** Non-bot scans that went to the code's destination (what max_scans counts); 0 when it has no limit. */
  scansCounted: number;
}

export const ACTIVE_LIFECYCLE: CodeLifecycle = {
  status: 'active',
  pausedDestination: null,
  expiresAt: null,
  expiredDestination: null,
  maxScans: null,
  scansCounted: 0,
};

const oneOfStatuses = { error: `must be one of ${CODE_STATUSES.join(', ')}` };

const statusSchema = z.enum(CODE_STATUSES, oneOfStatuses).meta({
  description:
    '`active` (default): scans go to the destination. `paused`: scans go to `paused_destination`, or get a 404 ' +
    '“this code is paused” page. `archived`: hidden from lists unless asked for (`status=archived`), and scanned ' +
    'like a paused code.',
  example: 'paused',
});

const expiresAtSchema = z.iso
  .datetime({ offset: true, error: 'must be an RFC 3339 date-time such as 2026-12-31T23:59:59Z' })
  .transform((value) => new Date(value))
  .meta({
    description:
      'Url codes: from this instant on, scans go to `expired_destination`, or get a 410 “this code has expired” ' +
      'page. Must be in the future when set (an update may send the code’s current value back unchanged); null ' +
      'removes it.',
    example: '2026-12-31T23:59:59Z',
  });

const maxScansSchema = z
  .number({ error: 'must be a whole number' })
  .int('must be a whole number')
  .min(1, 'must be at least 1')
  .max(MAX_SCANS_LIMIT, `must be at most ${MAX_SCANS_LIMIT}`)
  .meta({
    description:
      'Url codes: after this many non-bot scans went to the destination, scans go to `expired_destination`, or get ' +
      'the 410 page. Null removes the limit.',
    example: 1000,
  });

/** The lifecycle fields of a create or update body; null clears a field on update. */
export const lifecycleFields = {
  status: statusSchema.optional(),
  paused_destination: httpUrlSchema.nullable().optional().meta({
    description: 'Url codes: where scans go while the code is paused or archived; without it they get a 404 page.',
    example: 'https://example.com/back-soon',
  }),
  expires_at: expiresAtSchema.nullable().optional(),
  expired_destination: httpUrlSchema.nullable().optional().meta({
    description:
      'Url codes: where scans go once the code expired or reached max_scans; without it they get a 410 page.',
    example: 'https://example.com/campaign-over',
  }),
  max_scans: maxScansSchema.nullable().optional(),
};

export interface LifecycleInput {
  status?: CodeStatus;
  paused_destination?: string | null;
  expires_at?: Date | null;
  expired_destination?: string | null;
  max_scans?: number | null;
}

/** The fields only url codes have: a static code's image encodes its content, no scan reaches us. */
export const URL_ONLY_LIFECYCLE_FIELDS = [
  'paused_destination',
  'expires_at',
  'expired_destination',
  'max_scans',
] as const;

/** The url-only lifecycle fields a static code's body sets (null counts: it is still a field it cannot have). */
export function staticLifecycleProblems(type: string, body: Record<string, unknown>): FieldError[] {
  if (type === 'url') return [];
  return URL_ONLY_LIFECYCLE_FIELDS.filter((field) => body[field] !== undefined).map((path) => ({
    path,
    message: `applies to url codes only; a ${type} code encodes its content directly, so no scan reaches the service`,
  }));
}

/**
 * An expires_at must lie in the future when it is set; on update, the code's own current value
 * may be sent back unchanged (an editor saving the whole form of an expired code).
 */
export function expiryProblems(expiresAt: Date | null | undefined, current: Date | null = null): FieldError[] {
  if (!expiresAt || expiresAt.getTime() > Date.now() || expiresAt.getTime() === current?.getTime()) return [];
  return [{ path: 'expires_at', message: 'must be in the future' }];
}

/** A new code's lifecycle from its create body. */
export function lifecycleOf(body: LifecycleInput): CodeLifecycle {
  return {
    status: body.status ?? 'active',
    pausedDestination: body.paused_destination ?? null,
    expiresAt: body.expires_at ?? null,
    expiredDestination: body.expired_destination ?? null,
    maxScans: body.max_scans ?? null,
    scansCounted: 0,
  };
}

/** What a scan of the code does at `now`: the status first, then expiry, then the limit. */
export function stateOf(lifecycle: CodeLifecycle, now = Date.now()): CodeState {
  if (lifecycle.status !== 'active') return 'paused';
  if (lifecycle.expiresAt !== null && lifecycle.expiresAt.getTime() <= now) return 'expired';
  if (lifecycle.maxScans !== null && lifecycle.scansCounted >= lifecycle.maxScans) return 'limit_reached';
  return 'active';
}

/** The list filter: one status or several, as `status=a,b` or `status=a&status=b`. */
export const statusFilterSchema = z
  .preprocess(
    (value) =>
      typeof value === 'string'
        ? value.split(',')
        : Array.isArray(value)
          ? value.flatMap((v) => (typeof v === 'string' ? v.split(',') : [v]))
          : value,
    z.array(z.enum(CODE_STATUSES, oneOfStatuses)).min(1, 'must name at least one status'),
  )
  .transform((statuses) => [...new Set(statuses)])
  .meta({
    description:
      'Only codes with these statuses, comma-separated or repeated (`status=active,paused,archived` lists all). ' +
      'Default: active and paused; archived codes are hidden unless asked for.',
  });

// Row mapping, for the codes store.

export interface LifecycleRow {
  status: string;
  paused_destination: string | null;
  expires_at: number | string | null;
  expired_destination: string | null;
  max_scans: number | null;
}

export function lifecycleRow(l: CodeLifecycle): LifecycleRow {
  return {
    status: l.status,
    paused_destination: l.pausedDestination,
    expires_at: l.expiresAt === null ? null : l.expiresAt.getTime(),
    expired_destination: l.expiredDestination,
    max_scans: l.maxScans,
  };
}

/** The columns an update sets: only the fields the patch names. */
export function lifecyclePatchRow(patch: LifecycleInput): Partial<LifecycleRow> {
  const row: Partial<LifecycleRow> = {};
  if (patch.status !== undefined) row.status = patch.status;
  if (patch.paused_destination !== undefined) row.paused_destination = patch.paused_destination;
  if (patch.expires_at !== undefined) row.expires_at = patch.expires_at === null ? null : patch.expires_at.getTime();
  if (patch.expired_destination !== undefined) row.expired_destination = patch.expired_destination;
  if (patch.max_scans !== undefined) row.max_scans = patch.max_scans;
  return row;
}

export function lifecycleFromRow(row: LifecycleRow, scansCounted = 0): CodeLifecycle {
  return {
    status: (row.status ?? 'active') as CodeStatus,
    pausedDestination: row.paused_destination ?? null,
    expiresAt: row.expires_at === null || row.expires_at === undefined ? null : new Date(Number(row.expires_at)),
    expiredDestination: row.expired_destination ?? null,
    maxScans: row.max_scans ?? null,
    scansCounted,
  };
}

/** The lifecycle fields of a code's JSON. */
export function presentLifecycle(l: CodeLifecycle, now = Date.now()) {
  return {
    status: l.status,
    state: stateOf(l, now),
    paused_destination: l.pausedDestination,
    expires_at: l.expiresAt?.toISOString() ?? null,
    expired_destination: l.expiredDestination,
    max_scans: l.maxScans,
  };
}

export const lifecycleResourceFields = {
  status: z.enum(CODE_STATUSES),
  state: z.enum(CODE_STATES).meta({
    description:
      'What a scan does now (read-only): `active` goes to the destination; `paused` (status paused or archived), ' +
      '`expired` (past expires_at) and `limit_reached` (max_scans non-bot scans went to the destination) go to ' +
      'the fallback destination or get the paused (404) or expired (410) page.',
  }),
  paused_destination: z.string().nullable(),
  expires_at: z.iso.datetime().nullable(),
  expired_destination: z.string().nullable(),
  max_scans: z.int().nullable(),
};
