import type { Knex } from 'knex';

// Logos are stored once by content hash and shared, but each account pays for the logos it
// holds (LOGO_BYTES_PER_ACCOUNT), shared or not: a budget that depended on what other accounts
// had uploaded would tell one account what another's logos are. A holding lasts while a code of
// the account uses the logo; one unused for LOGO_UNREFERENCED_GRACE_MS is collected, and a logo
// nobody holds or uses goes with it. `touched_at` on logos is when a logo was last stored or
// reused, so a collection never deletes a logo an account is storing at that moment.
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('account_logos', (t) => {
    t.string('account_id', 32).notNullable().references('id').inTable('accounts').onDelete('CASCADE');
    t.string('logo_id', 64).notNullable().references('id').inTable('logos');
    /** Decoded size of the logo: what it costs this account. */
    t.integer('bytes').notNullable();
    /** When the account last stored or reused the logo; the grace period runs from here. */
    t.bigInteger('stored_at').notNullable();
    t.primary(['account_id', 'logo_id']);
    t.index(['logo_id']);
    t.index(['stored_at']);
  });
  await knex.schema.alterTable('logos', (t) => {
    t.bigInteger('touched_at').nullable();
  });
  await knex('logos').update({ touched_at: knex.ref('created_at') });
  await knex.schema.alterTable('codes', (t) => {
    t.index(['account_id', 'logo_id'], 'codes_account_logo_index');
  });
  // Every account holds the logos its codes use today (counted against its budget from now on).
  const now = Date.now();
  const used: { account_id: string; logo_id: string }[] = await knex('codes')
    .distinct('account_id', 'logo_id')
    .whereNotNull('logo_id');
  const logoIds = [...new Set(used.map((row) => row.logo_id))];
  const bytes = new Map<string, number>();
  for (let i = 0; i < logoIds.length; i += 100) {
    const rows: { id: string; data_base64: string }[] = await knex('logos')
      .select('id', 'data_base64')
      .whereIn('id', logoIds.slice(i, i + 100));
    for (const row of rows) bytes.set(row.id, Buffer.byteLength(row.data_base64, 'base64'));
  }
  const holdings = used.map((row) => ({
    account_id: row.account_id,
    logo_id: row.logo_id,
    bytes: bytes.get(row.logo_id) ?? 0,
    stored_at: now,
  }));
  for (let i = 0; i < holdings.length; i += 500) await knex('account_logos').insert(holdings.slice(i, i + 500));
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('codes', (t) => {
    t.dropIndex(['account_id', 'logo_id'], 'codes_account_logo_index');
  });
  await knex.schema.alterTable('logos', (t) => {
    t.dropColumn('touched_at');
  });
  await knex.schema.dropTable('account_logos');
}
