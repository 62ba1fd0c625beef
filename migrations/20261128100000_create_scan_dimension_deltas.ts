import type { Knex } from 'knex';

// A scan batch's per-code breakdown counts, queued rather than added to scan_dimension_rollups in
// the batch's transaction: one row per batch and dimension, its entries packed as JSON. Adding
// them row by row was half the writer's database time (a scan of a code alone in its batch adds a
// row to each of seven dimensions); every few batches a writer adds many batches' entries at
// once, summed, so a value scanned again costs one upsert instead of one per batch. Breakdowns
// read the queued entries beside the rollups, in one snapshot. See dimension-deltas.ts.
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('scan_dimension_deltas', (t) => {
    t.bigIncrements('id');
    t.string('dimension', 16).notNullable();
    // MySQL's TEXT holds 64 KiB; a batch of 1,000 scans of 1,000 codes can pack more.
    t.text('entries', 'longtext').notNullable();
  });
}

export async function down(knex: Knex): Promise<void> {
  const queued = await knex('scan_dimension_deltas').count({ n: '*' }).first();
  if (Number(queued?.n ?? 0) > 0)
    throw new Error(
      'scan_dimension_deltas holds breakdown counts not yet rolled into scan_dimension_rollups, which ' +
        'dropping it would lose: let the service roll them (it does every 8 scan batches), then migrate down',
    );
  await knex.schema.dropTable('scan_dimension_deltas');
}
