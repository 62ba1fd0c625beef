import type { Knex } from 'knex';

// Codes people can pause, archive, let expire or limit:
// - codes: status (active | paused | archived), the fallbacks a paused or expired code sends its
//   scans to, the instant it expires and its limit of non-bot scans. Every existing code is
//   active, with no expiry and no limit, so its scans go where they went.
// - scans.outcome: what a scan was answered (redirect | paused | expired | limit_reached). Every
//   scan recorded so far was a redirect.
// - scan_rollups.redirects: the scans among `scans` that went to the code's own destination (or
//   a rule's), which is what max_scans counts (non-bot rows). Backfilled from `scans`: until now
//   every scan was one.
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('codes', (t) => {
    t.string('status', 16).notNullable().defaultTo('active');
    t.text('paused_destination').nullable();
    t.bigInteger('expires_at').nullable();
    t.text('expired_destination').nullable();
    t.integer('max_scans').nullable();
  });
  await knex.schema.alterTable('scans', (t) => {
    t.string('outcome', 16).notNullable().defaultTo('redirect');
  });
  await knex.schema.alterTable('scan_rollups', (t) => {
    t.integer('redirects').notNullable().defaultTo(0);
  });
  await backfillRedirects(knex);
}

/** Every scan recorded before this migration went to its code's destination. */
export async function backfillRedirects(knex: Knex): Promise<void> {
  await knex('scan_rollups').update({ redirects: knex.ref('scans') });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('scan_rollups', (t) => {
    t.dropColumn('redirects');
  });
  await knex.schema.alterTable('scans', (t) => {
    t.dropColumn('outcome');
  });
  await knex.schema.alterTable('codes', (t) => {
    for (const column of ['status', 'paused_destination', 'expires_at', 'expired_destination', 'max_scans'])
      t.dropColumn(column);
  });
}
