import type { Knex } from 'knex';

// Scopes and rotation for API keys. Keys made before scopes existed could do everything, so
// they get every scope there is today (written out here: a migration never changes meaning
// when the code's list grows). A null `scopes` reads as no scope at all: fail closed.
// `replaced_by` is set on a rotated key, which lives on until its (shortened) expires_at.
const ALL_SCOPES_AT_THIS_MIGRATION = [
  'codes:read',
  'codes:write',
  'analytics:read',
  'webhooks:read',
  'webhooks:write',
  'keys:manage',
];

export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('api_keys', (t) => {
    t.text('scopes').nullable();
    t.string('replaced_by', 32).nullable();
  });
  await knex('api_keys').update({ scopes: JSON.stringify(ALL_SCOPES_AT_THIS_MIGRATION) });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('api_keys', (t) => {
    t.dropColumn('replaced_by');
    t.dropColumn('scopes');
  });
}
