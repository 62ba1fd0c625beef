import type { Knex } from 'knex';

// One row per committed scan batch, inserted in the batch's own transaction. A batch is retried
// under the same id until a commit is acknowledged; when an earlier attempt did commit but its
// acknowledgement was lost (the writer thread died between COMMIT and its reply, the connection
// dropped after COMMIT), the retry finds this row and writes nothing. Rows from before yesterday
// are deleted when the visitor salt rotates: no batch waits that long for its retry.
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('scan_batches', (t) => {
    t.string('id', 24).primary();
    t.bigInteger('committed_at').notNullable();
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('scan_batches');
}
