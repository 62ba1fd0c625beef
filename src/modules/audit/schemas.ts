// What the audit log records and how it is read: the closed lists of actions and object types,
// and the list query that REST validates and GraphQL's filter is built from.
import { z } from 'zod';
import { ACTOR_KINDS } from '../../shared/actor.ts';

/** The changes recorded; docs/audit-log.md says what each summary holds and what is not recorded. */
export const AUDIT_ACTIONS = [
  'code.created',
  'code.updated',
  'code.deleted',
  'routing.changed',
  'codes.bulk_created',
  'codes.imported',
  'tag.created',
  'tag.updated',
  'tag.deleted',
  'domain.added',
  'domain.updated',
  'domain.verified',
  'domain.removed',
  'webhook.created',
  'webhook.updated',
  'webhook.deleted',
  'webhook.secret_rotated',
  'oauth_client.registered',
  'oauth_client.deleted',
  'oauth_grant.revoked',
  'api_key.created',
  'api_key.rotated',
  'api_key.revoked',
  'member.added',
  'member.role_changed',
  'member.removed',
  'invitation.created',
  'invitation.revoked',
  'workspace.created',
  'workspace.updated',
  'sso.configured',
  'sso.removed',
] as const;
export type AuditAction = (typeof AUDIT_ACTIONS)[number];

export const AUDIT_OBJECT_TYPES = [
  'code',
  'batch',
  'tag',
  'domain',
  'webhook',
  'api_key',
  'oauth_client',
  'oauth_grant',
  'member',
  'invitation',
  'workspace',
] as const;
export type AuditObjectType = (typeof AUDIT_OBJECT_TYPES)[number];

export const MAX_AUDIT_PAGE_SIZE = 200;

const oneOf = (values: readonly string[]) => ({ error: `must be one of ${values.join(', ')}` });
const instant = z.iso
  .datetime({ offset: true, error: 'must be an ISO 8601 date-time, e.g. 2026-01-31T12:00:00Z' })
  .transform((value) => Date.parse(value));

export const listAuditSchema = z
  .strictObject({
    action: z
      .enum(AUDIT_ACTIONS, oneOf(AUDIT_ACTIONS))
      .optional()
      .meta({ description: 'Only entries of this action.' }),
    object_type: z
      .enum(AUDIT_OBJECT_TYPES, oneOf(AUDIT_OBJECT_TYPES))
      .optional()
      .meta({ description: 'Only entries about objects of this type.' }),
    object_id: z.string().min(1).max(64).optional().meta({ description: 'Only entries about this object.' }),
    actor_kind: z
      .enum(ACTOR_KINDS, oneOf(ACTOR_KINDS))
      .optional()
      .meta({ description: 'Only entries made by actors of this kind.' }),
    actor_id: z
      .string()
      .min(1)
      .max(64)
      .optional()
      .meta({ description: 'Only entries made by this actor (`key_…`, `client_…` or `cli`).' }),
    since: instant.optional().meta({ description: 'Only entries at or after this instant.' }),
    until: instant.optional().meta({ description: 'Only entries before this instant.' }),
    limit: z.coerce
      .number({ error: 'must be a number' })
      .int('must be a whole number')
      .min(1, 'must be at least 1')
      .max(MAX_AUDIT_PAGE_SIZE, `must be at most ${MAX_AUDIT_PAGE_SIZE}`)
      .default(50),
    cursor: z.string().max(100).optional().meta({ description: 'The `next_cursor` of the previous page.' }),
    format: z
      .enum(['json', 'csv'], oneOf(['json', 'csv']))
      .default('json')
      .meta({ description: '`csv` streams every matching entry (limit and cursor do not apply) as CSV.' }),
  })
  .refine((q) => q.since === undefined || q.until === undefined || q.since < q.until, {
    path: ['until'],
    message: 'must be after since',
  });
export type ListAuditQuery = z.output<typeof listAuditSchema>;
export type AuditFilter = Pick<
  ListAuditQuery,
  'action' | 'object_type' | 'object_id' | 'actor_kind' | 'actor_id' | 'since' | 'until'
>;
