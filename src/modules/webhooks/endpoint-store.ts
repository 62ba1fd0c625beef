// SQL of webhook endpoints: registration, listing, health (failing since, disabled).
import type { Knex } from 'knex';
import { fromJson, fromMillis, fromMillisOrNull, toJson, toMillis } from '../../db/rows.ts';
import type { Queryable } from '../../db/transaction.ts';
import type { EventType, Webhook } from './model.ts';

export interface EndpointRow {
  id: string;
  account_id: string;
  url: string;
  description: string | null;
  events: string;
  code_ids: string | null;
  secret: string;
  previous_secret: string | null;
  previous_secret_expires_at: number | string | null;
  enabled: number | boolean;
  disabled_reason: string | null;
  disabled_at: number | string | null;
  failing_since: number | string | null;
  created_at: number | string;
  updated_at: number | string;
}

export function webhookOf(row: EndpointRow): Webhook {
  return {
    id: row.id,
    accountId: row.account_id,
    url: row.url,
    description: row.description,
    events: fromJson<EventType[]>(row.events)!,
    codeIds: fromJson<string[]>(row.code_ids),
    secret: row.secret,
    previousSecret: row.previous_secret,
    previousSecretExpiresAt: fromMillisOrNull(row.previous_secret_expires_at),
    enabled: Boolean(row.enabled),
    disabledReason: row.disabled_reason,
    disabledAt: fromMillisOrNull(row.disabled_at),
    failingSince: fromMillisOrNull(row.failing_since),
    createdAt: fromMillis(row.created_at),
    updatedAt: fromMillis(row.updated_at),
  };
}

/** Endpoint fields a PATCH (or the worker) may change, in domain terms. */
export type EndpointChanges = Partial<
  Pick<
    Webhook,
    | 'url'
    | 'description'
    | 'events'
    | 'codeIds'
    | 'secret'
    | 'previousSecret'
    | 'previousSecretExpiresAt'
    | 'enabled'
    | 'disabledReason'
    | 'disabledAt'
    | 'failingSince'
  >
> & { updatedAt: Date };

function endpointChangesRow(changes: EndpointChanges): Record<string, unknown> {
  const row: Record<string, unknown> = { updated_at: toMillis(changes.updatedAt) };
  if (changes.url !== undefined) row.url = changes.url;
  if (changes.description !== undefined) row.description = changes.description;
  if (changes.events !== undefined) row.events = toJson(changes.events);
  if (changes.codeIds !== undefined) row.code_ids = changes.codeIds === null ? null : toJson(changes.codeIds);
  if (changes.secret !== undefined) row.secret = changes.secret;
  if (changes.previousSecret !== undefined) row.previous_secret = changes.previousSecret;
  if (changes.previousSecretExpiresAt !== undefined)
    row.previous_secret_expires_at = changes.previousSecretExpiresAt && toMillis(changes.previousSecretExpiresAt);
  if (changes.enabled !== undefined) row.enabled = changes.enabled;
  if (changes.disabledReason !== undefined) row.disabled_reason = changes.disabledReason;
  if (changes.disabledAt !== undefined) row.disabled_at = changes.disabledAt && toMillis(changes.disabledAt);
  if (changes.failingSince !== undefined) row.failing_since = changes.failingSince && toMillis(changes.failingSince);
  return row;
}

/** A keyset position: the creation time and id of the last item of a page. */
export interface Position {
  key: number;
  id: string;
}

/** Rows strictly after a position in (created_at desc, id desc) order. */
export function afterPosition(
  builder: Knex.QueryBuilder,
  after: Position | null,
  created: string,
  id: string,
): Knex.QueryBuilder {
  if (!after) return builder;
  return builder.andWhere((w) =>
    w.where(created, '<', after.key).orWhere((tie) => tie.where(created, after.key).andWhere(id, '<', after.id)),
  );
}

export function createEndpointStore(db: Knex) {
  return {
    async insertEndpoint(webhook: Webhook, q: Queryable = db): Promise<void> {
      await q('webhook_endpoints').insert({
        id: webhook.id,
        account_id: webhook.accountId,
        url: webhook.url,
        description: webhook.description,
        events: toJson(webhook.events),
        code_ids: webhook.codeIds === null ? null : toJson(webhook.codeIds),
        secret: webhook.secret,
        previous_secret: null,
        previous_secret_expires_at: null,
        enabled: webhook.enabled,
        disabled_reason: null,
        disabled_at: null,
        failing_since: null,
        created_at: toMillis(webhook.createdAt),
        updated_at: toMillis(webhook.updatedAt),
      });
    },

    async findEndpoint(accountId: string, id: string, q: Queryable = db): Promise<Webhook | null> {
      const row: EndpointRow | undefined = await q('webhook_endpoints').where({ account_id: accountId, id }).first();
      return row ? webhookOf(row) : null;
    },

    async countEndpoints(accountId: string): Promise<number> {
      const [row] = await db('webhook_endpoints').where('account_id', accountId).count({ n: '*' });
      return Number(row?.n ?? 0);
    },

    /** One page of an account's endpoints, newest first. */
    async listEndpoints(accountId: string, after: Position | null, limit: number): Promise<Webhook[]> {
      const builder = afterPosition(db('webhook_endpoints').where('account_id', accountId), after, 'created_at', 'id');
      const rows: EndpointRow[] = await builder
        .orderBy([
          { column: 'created_at', order: 'desc' },
          { column: 'id', order: 'desc' },
        ])
        .limit(limit);
      return rows.map(webhookOf);
    },

    /** The enabled endpoints of these accounts: the outbox's fan-out, inside the writer's transaction. */
    async enabledEndpointsOf(accountIds: string[], q: Queryable = db): Promise<Webhook[]> {
      if (accountIds.length === 0) return [];
      const rows: EndpointRow[] = await q('webhook_endpoints')
        .whereIn('account_id', accountIds)
        .andWhere('enabled', true);
      return rows.map(webhookOf);
    },

    async updateEndpoint(accountId: string, id: string, changes: EndpointChanges, q: Queryable = db): Promise<boolean> {
      return (
        (await q('webhook_endpoints').where({ account_id: accountId, id }).update(endpointChangesRow(changes))) > 0
      );
    },

    /** Deletes the endpoint with (by cascade) its deliveries and their attempts. */
    async deleteEndpoint(accountId: string, id: string, q: Queryable = db): Promise<boolean> {
      return (await q('webhook_endpoints').where({ account_id: accountId, id }).delete()) > 0;
    },

    /** Notes a failure; returns since when the endpoint has been failing. */
    async markFailing(endpointId: string, at: Date): Promise<Date | null> {
      await db('webhook_endpoints')
        .where('id', endpointId)
        .whereNull('failing_since')
        .update({ failing_since: toMillis(at) });
      const row: { failing_since: number | string | null } | undefined = await db('webhook_endpoints')
        .where('id', endpointId)
        .first('failing_since');
      return fromMillisOrNull(row?.failing_since);
    },

    async markHealthy(endpointId: string): Promise<void> {
      await db('webhook_endpoints')
        .where('id', endpointId)
        .whereNotNull('failing_since')
        .update({ failing_since: null });
    },

    /** Disables an enabled endpoint, saying why (the worker, after it failed for too long). */
    async markDisabled(endpointId: string, reason: string, at: Date, q: Queryable = db): Promise<void> {
      await q('webhook_endpoints')
        .where({ id: endpointId, enabled: true })
        .update({ enabled: false, disabled_reason: reason, disabled_at: toMillis(at), updated_at: toMillis(at) });
    },
  };
}
