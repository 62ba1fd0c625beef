// GraphQL for a code's lifecycle: the fields on Code, and how CreateCodeInput and UpdateCodeInput
// describe theirs.
import type { ObjectRef } from '@pothos/core';
import { builder } from '../../graphql/builder.ts';
import { CODE_STATES, CODE_STATUSES, stateOf, type CodeState, type CodeStatus } from './lifecycle.ts';
import type { Code } from './model.ts';

const enumValues = <V extends string>(values: readonly V[]) =>
  Object.fromEntries(values.map((v) => [v.toUpperCase(), { value: v }])) as Record<Uppercase<V>, { value: V }>;

export const CodeStatusEnum = builder.enumType('CodeStatus', {
  description:
    'ACTIVE: scans go to the destination. PAUSED: to pausedDestination, or a 404 page. ARCHIVED: hidden from lists ' +
    'unless asked for, scanned like a paused code.',
  values: enumValues<CodeStatus>(CODE_STATUSES),
});

const CodeStateEnum = builder.enumType('CodeState', {
  description:
    'What a scan does now: ACTIVE goes to the destination; PAUSED, EXPIRED and LIMIT_REACHED go to the fallback ' +
    'destination or get the 404 (paused) or 410 (expired) page.',
  values: enumValues<CodeState>(CODE_STATES),
});

/** Adds the lifecycle fields to the Code type (called by codes/graphql.ts with its CodeRef). */
export function addLifecycleFields(ref: ObjectRef<typeof builder.$inferSchemaTypes, Code>): void {
  builder.objectFields(ref, (t) => ({
    status: t.field({ type: CodeStatusEnum, resolve: (code) => code.lifecycle.status }),
    state: t.field({
      type: CodeStateEnum,
      description: 'What a scan does now (read-only).',
      resolve: (code) => stateOf(code.lifecycle),
    }),
    pausedDestination: t.string({
      nullable: true,
      description: 'Url codes: where scans go while paused or archived; null: a 404 page.',
      resolve: (code) => code.lifecycle.pausedDestination,
    }),
    expiresAt: t.field({
      type: 'DateTime',
      nullable: true,
      description: 'Url codes: from this instant on, scans go to expiredDestination or get a 410 page.',
      resolve: (code) => code.lifecycle.expiresAt,
    }),
    expiredDestination: t.string({
      nullable: true,
      description: 'Url codes: where scans go once expired or out of scans; null: a 410 page.',
      resolve: (code) => code.lifecycle.expiredDestination,
    }),
    maxScans: t.int({
      nullable: true,
      description: 'Url codes: non-bot scans that go to the destination before the code counts as used up.',
      resolve: (code) => code.lifecycle.maxScans,
    }),
  }));
}

/** How GraphQL describes the lifecycle input fields; on update, null clears a field. */
export const LIFECYCLE_INPUT_DESCRIPTIONS = {
  status: 'Default ACTIVE.',
  pausedDestination: 'Url codes: an http(s) URL for scans while paused; null removes it.',
  expiresAt: 'Url codes: a future instant; null removes it.',
  expiredDestination: 'Url codes: an http(s) URL for scans once expired or out of scans; null removes it.',
  maxScans: 'Url codes: at least 1; null removes the limit.',
};

/**
 * The lifecycle input fields where an explicit null is kept: it clears the field on update (and is refused for status).
 */
export const LIFECYCLE_NULL_CLEARS = [
  'status',
  'pausedDestination',
  'expiresAt',
  'expiredDestination',
  'maxScans',
] as const;
