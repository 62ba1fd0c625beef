import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('routing_rules', (t) => {
    t.string('id', 32).primary();
    t.string('code_id', 32).notNullable().references('id').inTable('codes').onDelete('CASCADE');
    t.integer('priority').notNullable();
    // Tie-breaker among equal priorities: the order in which rules were added.
    t.integer('position').notNullable();
    t.string('type', 16).notNullable();
    t.text('conditions').notNullable();
    // Null for split rules, whose weights name the destinations.
    t.text('destination').nullable();
    t.bigInteger('created_at').notNullable();
    t.index(['code_id', 'priority', 'position'], 'routing_rules_code_order_idx');
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('routing_rules');
}
