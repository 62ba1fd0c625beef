import type { Knex } from 'knex';

// Every slug ever handed out. Rows are never deleted, so a slug of a deleted code stays
// taken and an old printed code can never lead to somebody else's new code.
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('slugs', (t) => {
    t.string('slug', 32).primary();
    t.bigInteger('created_at').notNullable();
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('slugs');
}
