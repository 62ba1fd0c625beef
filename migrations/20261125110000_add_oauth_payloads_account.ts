import type { Knex } from 'knex';

// Grants (an account's consent to a client) become something the account can list and withdraw,
// and end when the API key that approved them is revoked. The OAuth server's rows say their
// account only inside the JSON payload; `account_id` makes it a column to query by, and
// `approved_by_key_id` records which key approved a grant on the consent page (unknown, so
// null, for grants given before this migration).
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('oauth_payloads', (t) => {
    t.string('account_id', 32).nullable();
    t.string('approved_by_key_id', 32).nullable();
    t.index(['model', 'account_id'], 'oauth_payloads_account_idx');
    t.index(['approved_by_key_id'], 'oauth_payloads_approver_idx');
  });
  const rows: { model: string; id: string; payload: string }[] = await knex('oauth_payloads').select(
    'model',
    'id',
    'payload',
  );
  for (const row of rows) {
    const accountId = (JSON.parse(row.payload) as { accountId?: unknown }).accountId;
    if (typeof accountId === 'string')
      await knex('oauth_payloads').where({ model: row.model, id: row.id }).update({ account_id: accountId });
  }
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('oauth_payloads', (t) => {
    t.dropIndex(['model', 'account_id'], 'oauth_payloads_account_idx');
    t.dropIndex(['approved_by_key_id'], 'oauth_payloads_approver_idx');
    t.dropColumn('account_id');
    t.dropColumn('approved_by_key_id');
  });
}
