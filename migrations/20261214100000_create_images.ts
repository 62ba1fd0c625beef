import type { Knex } from 'knex';

// Images a workspace uploads (POST /v1/images), kept to be used again: as a code's logo
// (design.logo_image_id) and as a business card's photo (page.photo_image_id). Every upload is
// re-encoded to PNG before it is stored (images/upload-decode.ts), so `data_base64` is always a
// PNG of at most 1024 px a side. Unlike `logos` (shared by content hash), a row belongs to one
// account: another account's id is a 404, never a reuse.
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('images', (t) => {
    t.string('id', 32).primary();
    t.string('account_id', 32).notNullable().references('id').inTable('accounts').onDelete('CASCADE');
    /** The file name the upload carried (for people; never used to judge the content), or null. */
    t.string('name', 200).nullable();
    /** What the upload was, sniffed from its bytes: image/png, image/jpeg, image/webp or image/svg+xml. */
    t.string('source_type', 32).notNullable();
    t.integer('width').notNullable();
    t.integer('height').notNullable();
    /** Size of the stored PNG. */
    t.integer('bytes').notNullable();
    t.string('sha256', 64).notNullable();
    // Base64 in a text column, as logos: portable across both engines; MEDIUMTEXT on MySQL holds 16 MiB.
    t.text('data_base64', 'mediumtext').notNullable();
    t.bigInteger('created_at').notNullable();
    t.index(['account_id', 'created_at', 'id'], 'images_account_created_index');
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('images');
}
