import type { Knex } from 'knex';

// Codes created by one bulk call share a batch id, so a print run can fetch them together.
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('codes', (t) => {
    t.string('batch_id', 32).nullable();
    t.index(['account_id', 'batch_id'], 'codes_account_batch_idx');
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('codes', (t) => {
    t.dropIndex(['account_id', 'batch_id'], 'codes_account_batch_idx');
    t.dropColumn('batch_id');
  });
}
