import type { Knex } from 'knex';

// Tags: labels an account puts on its codes (a code has 0-20). A tag's name is unique per
// account ignoring case, through `name_key` (the lower-cased name) under a binary collation, so
// MariaDB does not also fold accents (cafe and café are two tags) as utf8mb4_unicode_ci would.
// Ids joined to codes.id take codes.id's binary collation (a foreign key needs matching ones).
// Existing codes simply have no tags.
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('tags', (t) => {
    t.string('id', 32).collate('utf8mb4_bin').primary();
    t.string('account_id', 32).notNullable().references('id').inTable('accounts').onDelete('CASCADE');
    t.string('name', 100).notNullable();
    t.string('name_key', 191).collate('utf8mb4_bin').notNullable();
    t.string('color', 7).nullable();
    t.bigInteger('created_at').notNullable();
    t.unique(['account_id', 'name_key']);
  });
  await knex.schema.createTable('code_tags', (t) => {
    t.string('code_id', 32).collate('utf8mb4_bin').notNullable().references('id').inTable('codes').onDelete('CASCADE');
    t.string('tag_id', 32).collate('utf8mb4_bin').notNullable().references('id').inTable('tags').onDelete('CASCADE');
    t.primary(['code_id', 'tag_id']);
    t.index(['tag_id']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('code_tags');
  await knex.schema.dropTable('tags');
}
