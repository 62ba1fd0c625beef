import type { Knex } from 'knex';

// invitations.mailed_at: when the invitation's link was mailed to its email (null: a link to copy
// only, or the mail failed). Accepting a mailed invitation proves the address (it verifies the
// user's email); a copied link proves nothing about it. Existing invitations: unknown, so null.
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('invitations', (t) => {
    t.bigInteger('mailed_at').nullable();
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('invitations', (t) => {
    t.dropColumn('mailed_at');
  });
}
