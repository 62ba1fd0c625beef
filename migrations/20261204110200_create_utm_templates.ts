import type { Knex } from 'knex';

// An account's UTM templates: a name and up to five UTM fields (JSON text, as codes.utm holds
// them) a new code can start from (`utm_template_id`). Codes copy the fields when they are
// created, so no code refers to a template and deleting one changes no code.
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('utm_templates', (t) => {
    t.string('id', 32).primary();
    t.string('account_id', 32).notNullable();
    t.string('name', 191).notNullable();
    t.text('utm').notNullable();
    t.bigInteger('created_at').notNullable();
    t.bigInteger('updated_at').notNullable();
    t.index(['account_id', 'created_at']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('utm_templates');
}
