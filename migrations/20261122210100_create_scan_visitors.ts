import type { Knex } from 'knex';

// Who has been seen today, per code and per account (scope_id is either id), so the writer can
// flag a visitor's first scan of the day. Visitor hashes rotate daily, so only today's and
// yesterday's rows are useful; older days are deleted when the salt rotates. The key leads with
// the day for that deletion, then the hash for the per-batch lookup. `batch` names the writer
// that inserted the row: a writer counts as first only the rows it inserted itself, which stays
// exact when several processes write the same visitor at once.
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('scan_visitors', (t) => {
    t.integer('day').notNullable();
    t.string('visitor_hash', 32).notNullable();
    t.string('scope_id', 32).notNullable();
    t.string('batch', 24).notNullable();
    t.primary(['day', 'visitor_hash', 'scope_id']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('scan_visitors');
}
