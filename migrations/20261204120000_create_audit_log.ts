import type { Knex } from 'knex';

// The audit log: one row per change to an account (a future workspace), written in the change's
// own transaction and never updated; only retention (AUDIT_RETENTION_DAYS) deletes rows.
// `seq` orders the log (newest first) and is the cursor: ids are random, and two entries may
// share a millisecond. The actor is a kind and an id, so users can act later without a new
// column: api_key (key_…), oauth_client (client_…), cli, and later user.
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('audit_log', (t) => {
    t.bigIncrements('seq');
    t.string('id', 32).notNullable().unique('audit_log_id_unique');
    t.string('account_id', 32).notNullable().references('id').inTable('accounts').onDelete('CASCADE');
    t.bigInteger('at').notNullable();
    t.string('actor_kind', 16).notNullable();
    t.string('actor_id', 64).collate('utf8mb4_bin').notNullable();
    // The caller's address as the scans hash visitors: an HMAC under the day's salt.
    t.string('address_hash', 64).nullable();
    t.string('action', 48).notNullable();
    t.string('object_type', 24).notNullable();
    // Ids are case-sensitive (base62): compared byte for byte, as the codes' are.
    t.string('object_id', 64).collate('utf8mb4_bin').notNullable();
    // What changed, as JSON; MEDIUMTEXT on MySQL, since routing rules before and after can be long.
    t.text('summary', 'mediumtext').notNullable();
    // Every read is one account's, newest first; retention deletes by age.
    t.index(['account_id', 'seq'], 'audit_log_account_seq_idx');
    t.index(['at'], 'audit_log_at_idx');
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('audit_log');
}
