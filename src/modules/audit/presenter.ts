// The public JSON of an audit entry, and its CSV row. The zod schema is the contract (it feeds
// the OpenAPI document).
import { z } from 'zod';
import { ACTOR_KINDS } from '../../shared/actor.ts';
import { AUDIT_ACTIONS, AUDIT_OBJECT_TYPES } from './schemas.ts';
import type { StoredAuditEntry } from './store.ts';

export const auditEntryResourceSchema = z
  .object({
    id: z.string().meta({ example: 'aud_3kQ9xT4pL0aZc7VbN8mD' }),
    object: z.literal('audit_entry'),
    at: z.iso.datetime().meta({ description: 'When the change was committed (its transaction’s time).' }),
    actor: z.object({
      kind: z
        .enum(ACTOR_KINDS)
        .meta({ description: 'An API key, an OAuth client, a signed-in user, or the command line.' }),
      id: z.string().meta({ description: '`key_…`, `client_…`, or `cli`.', example: 'key_8kD2mQ9xT4pL0aZc7VbN' }),
      address_hash: z
        .string()
        .nullable()
        .meta({
          description:
            'The caller’s address hashed as scans hash visitors (an HMAC under a salt that changes every UTC day and ' +
            'is then deleted): equal within a day for the same address, never the address. Null for the CLI.',
        }),
    }),
    action: z.enum(AUDIT_ACTIONS),
    object_type: z.enum(AUDIT_OBJECT_TYPES),
    object_id: z.string().meta({ example: 'qr_4fT9kQ2mX8pL0aZc7VbN' }),
    summary: z.record(z.string(), z.unknown()).meta({
      description:
        'What changed. An update lists `changes`, each field with `old` and `new` (a url code’s `destination` ' +
        'among them); a creation or deletion names the object; a bulk call gives its `count`. Never a secret.',
      example: { changes: { destination: { old: 'https://example.com/a', new: 'https://example.com/b' } } },
    }),
  })
  .meta({ id: 'AuditEntry' });
export type AuditEntryJson = z.output<typeof auditEntryResourceSchema>;

export function presentAuditEntry(entry: StoredAuditEntry): AuditEntryJson {
  return {
    id: entry.id,
    object: 'audit_entry',
    at: entry.at.toISOString(),
    actor: { kind: entry.actor.kind, id: entry.actor.id, address_hash: entry.actor.addressHash },
    action: entry.action,
    object_type: entry.objectType,
    object_id: entry.objectId,
    summary: entry.summary,
  };
}

/** The CSV export's columns: the JSON's, the actor flattened and the summary as JSON text. */
export const AUDIT_CSV_COLUMNS = [
  'id',
  'at',
  'actor_kind',
  'actor_id',
  'address_hash',
  'action',
  'object_type',
  'object_id',
  'summary',
] as const;

export function auditCsvRow(entry: StoredAuditEntry): Record<(typeof AUDIT_CSV_COLUMNS)[number], string> {
  return {
    id: entry.id,
    at: entry.at.toISOString(),
    actor_kind: entry.actor.kind,
    actor_id: entry.actor.id,
    address_hash: entry.actor.addressHash ?? '',
    action: entry.action,
    object_type: entry.objectType,
    object_id: entry.objectId,
    summary: JSON.stringify(entry.summary),
  };
}
