import type { Knex } from 'knex';

// Single sign-on with OpenID Connect, per workspace: the identity provider a workspace trusts
// (workspace_sso), the email domains it covers (workspace_sso_domains: the primary key makes a
// domain one workspace's at a time), and the sign-ins under way between the redirect to the
// provider and its answer (sso_attempts: PKCE verifier and nonce, found by the state's SHA-256).
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('workspace_sso', (t) => {
    t.string('account_id', 32).primary().references('id').inTable('accounts').onDelete('CASCADE');
    t.string('issuer', 2048).notNullable();
    t.string('client_id', 255).notNullable();
    // Kept as given, like a webhook's signing secret: the token call needs it; no answer carries it.
    t.string('client_secret', 1024).notNullable();
    t.string('default_role', 16).notNullable();
    t.boolean('enabled').notNullable();
    t.bigInteger('created_at').notNullable();
    t.bigInteger('updated_at').notNullable();
  });
  await knex.schema.createTable('workspace_sso_domains', (t) => {
    // Lower-cased.
    t.string('domain', 191).primary();
    t.string('account_id', 32).notNullable().references('account_id').inTable('workspace_sso').onDelete('CASCADE');
    t.index(['account_id'], 'workspace_sso_domains_account');
  });
  await knex.schema.createTable('sso_attempts', (t) => {
    t.string('state_hash', 64).primary();
    t.string('account_id', 32).notNullable().references('id').inTable('accounts').onDelete('CASCADE');
    t.string('code_verifier', 128).notNullable();
    t.string('nonce', 128).notNullable();
    t.bigInteger('expires_at').notNullable();
    t.index(['expires_at'], 'sso_attempts_expires');
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('sso_attempts');
  await knex.schema.dropTable('workspace_sso_domains');
  await knex.schema.dropTable('workspace_sso');
}
