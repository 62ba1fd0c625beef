// GraphQL's reading of the audit log: the same service call and filters as REST's
// GET /v1/audit-log, as a forward connection. Actions stay strings (they hold dots).
import { z } from 'zod';
import { builder } from '../../graphql/builder.ts';
import { enumOf } from '../../graphql/enums.ts';
import { compact, snakeKeys } from '../../graphql/inputs.ts';
import { connectionOf, forwardOnly } from '../../graphql/pages.ts';
import { scoped } from '../../graphql/scoped.ts';
import { ACTOR_KINDS } from '../../shared/actor.ts';
import { parseInput } from '../../shared/validation.ts';
import { AUDIT_ACTIONS, AUDIT_OBJECT_TYPES, listAuditSchema } from './schemas.ts';
import type { AuditService } from './service.ts';
import type { StoredAuditEntry } from './store.ts';

// What this module's resolvers find in the context (graphql/context.ts explains the merging).
declare module '../../graphql/context.ts' {
  interface GraphQLServices {
    audit: AuditService;
  }
}

const ActorKindEnum = enumOf(
  'ActorKind',
  z.enum(ACTOR_KINDS),
  'Who may act: an API key, an OAuth client, a signed-in user, the CLI.',
);
const AuditObjectTypeEnum = enumOf('AuditObjectType', z.enum(AUDIT_OBJECT_TYPES), 'What an audit entry is about.');

const ActorRef = builder.objectRef<StoredAuditEntry['actor']>('Actor').implement({
  description: 'Who made a change.',
  fields: (t) => ({
    kind: t.field({ type: ActorKindEnum, resolve: (actor) => actor.kind }),
    id: t.exposeString('id', { description: '`key_…`, `client_…`, or `cli`.' }),
    addressHash: t.exposeString('addressHash', {
      nullable: true,
      description: 'The caller’s address hashed under the day’s salt, as scans hash visitors; null for the CLI.',
    }),
  }),
});

const AuditEntryRef = builder.objectRef<StoredAuditEntry>('AuditEntry').implement({
  description: 'One change to the account, recorded in its own transaction; never edited.',
  fields: (t) => ({
    id: t.exposeID('id'),
    at: t.field({ type: 'DateTime', resolve: (entry) => entry.at }),
    actor: t.field({ type: ActorRef, resolve: (entry) => entry.actor }),
    action: t.exposeString('action', { description: `One of ${AUDIT_ACTIONS.join(', ')}.` }),
    objectType: t.field({ type: AuditObjectTypeEnum, resolve: (entry) => entry.objectType }),
    objectId: t.exposeString('objectId'),
    summary: t.field({
      type: 'JSON',
      description: 'What changed: `changes` with each field’s `old` and `new`, a `count`, or the object named.',
      resolve: (entry) => entry.summary,
    }),
  }),
});

const AuditLogFilter = builder.inputType('AuditLogFilter', {
  description: 'Every field given must match.',
  fields: (t) => ({
    action: t.string({ required: false, description: `One of ${AUDIT_ACTIONS.join(', ')}.` }),
    objectType: t.field({ type: AuditObjectTypeEnum, required: false }),
    objectId: t.string({ required: false }),
    actorKind: t.field({ type: ActorKindEnum, required: false }),
    actorId: t.string({ required: false, description: '`key_…`, `client_…` or `cli`.' }),
    since: t.field({ type: 'DateTime', required: false, description: 'At or after this instant.' }),
    until: t.field({ type: 'DateTime', required: false, description: 'Before this instant.' }),
  }),
});

builder.queryFields((t) => ({
  auditLog: t.connection({
    type: AuditEntryRef,
    description: 'The account’s audit log, newest first (scope audit:read). Forward pagination only.',
    args: { filter: t.arg({ type: AuditLogFilter, required: false }) },
    resolve: scoped('audit:read', async (_root, args, ctx) => {
      forwardOnly(args);
      const { since, until, ...rest } = args.filter ?? {};
      const query = parseInput(listAuditSchema, {
        ...snakeKeys(rest),
        ...compact({
          since: since?.toISOString(),
          until: until?.toISOString(),
          limit: args.first ?? undefined,
          cursor: args.after ?? undefined,
        }),
      });
      return connectionOf(await ctx.services.audit.list(ctx.principal, query), args.after);
    }),
  }),
}));
