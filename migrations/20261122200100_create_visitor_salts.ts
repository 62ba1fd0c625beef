import type { Knex } from 'knex';

// One random salt per UTC day for visitor hashes; old days are deleted, so a hash cannot be
// recomputed from an address once its day is over.
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('visitor_salts', (t) => {
    t.string('day', 10).primary();
    t.string('salt', 64).notNullable();
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('visitor_salts');
}
