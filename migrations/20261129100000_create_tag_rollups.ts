import type { Knex } from 'knex';

// Each tag's scans per UTC day: the daily rows of the codes carrying it, summed. The overview of
// a tag read its codes' per-code daily rows: at ten million scans a tag of 1,000 codes had
// 59,000 country rows for a year (about 65 ms per breakdown, seven breakdowns). Here a year of
// one breakdown is about 365 days x its values. The 'total' rows carry scans and unique scans
// (the sum of the codes' own, as the codes' series counts them); the others, one per
// (dimension, value) of the dimensions the overview breaks down by, carry scans.
// The scan writer adds each batch's scans of tagged codes to their tags; tagging or untagging a
// code (and deleting it) adds or subtracts its whole history, in the same transaction
// (scans/tag-rollups.ts says how the two are kept apart). A deleted tag's rows go with it.
// Built here from the codes' rollups and queued breakdown counts as they are: instances of an
// earlier version do not keep them, so stop them first (operations.md).
const DIMENSIONS = ['country', 'region', 'city', 'device', 'os', 'browser', 'referrer'];

export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('tag_rollups', (t) => {
    t.string('tag_id', 32).collate('utf8mb4_bin').notNullable().references('id').inTable('tags').onDelete('CASCADE');
    t.string('dimension', 16).notNullable();
    t.bigInteger('day').notNullable();
    t.boolean('is_bot').notNullable();
    t.string('value', 191).notNullable();
    t.bigInteger('scans').notNullable();
    t.bigInteger('unique_scans').notNullable();
    t.primary(['tag_id', 'dimension', 'day', 'is_bot', 'value']);
  });
  await backfillTagRollups(knex);
}

/** The tags' rows from their codes' (exported for the test that holds it to the live writers). */
export async function backfillTagRollups(knex: Knex): Promise<void> {
  await knex.raw(
    `INSERT INTO tag_rollups (tag_id, dimension, day, is_bot, value, scans, unique_scans)
     SELECT ct.tag_id, 'total', r.day, r.is_bot, '', SUM(r.scans), SUM(r.unique_scans)
     FROM code_tags ct JOIN code_daily_rollups r ON r.code_id = ct.code_id
     GROUP BY ct.tag_id, r.day, r.is_bot`,
  );
  await knex.raw(
    `INSERT INTO tag_rollups (tag_id, dimension, day, is_bot, value, scans, unique_scans)
     SELECT ct.tag_id, r.dimension, r.day, r.is_bot, r.value, SUM(r.scans), 0
     FROM code_tags ct JOIN scan_dimension_rollups r ON r.code_id = ct.code_id
     WHERE r.dimension IN (${DIMENSIONS.map(() => '?').join(', ')})
     GROUP BY ct.tag_id, r.dimension, r.day, r.is_bot, r.value`,
    DIMENSIONS,
  );
  await addQueuedCounts(knex);
}

type QueuedEntry = [codeId: string, day: number, isBot: 0 | 1, value: string, scans: number];

/** The breakdown counts still queued (scan_dimension_deltas) of tagged codes, added to their tags. */
async function addQueuedCounts(knex: Knex): Promise<void> {
  const tagsOf = new Map<string, string[]>();
  const links: { code_id: string; tag_id: string }[] = await knex('code_tags').select('code_id', 'tag_id');
  for (const l of links) tagsOf.set(l.code_id, [...(tagsOf.get(l.code_id) ?? []), l.tag_id]);
  if (tagsOf.size === 0) return;
  const sums = new Map<
    string,
    { tag_id: string; dimension: string; day: number; is_bot: boolean; value: string; scans: number }
  >();
  const queued: { dimension: string; entries: string }[] = await knex('scan_dimension_deltas')
    .whereIn('dimension', DIMENSIONS)
    .select('dimension', 'entries');
  for (const row of queued) {
    for (const [codeId, day, bot, value, scans] of JSON.parse(row.entries) as QueuedEntry[]) {
      for (const tagId of tagsOf.get(codeId) ?? []) {
        const key = `${tagId}|${row.dimension}|${day}|${bot}|${value}`;
        const sum = sums.get(key);
        if (sum) sum.scans += scans;
        else sums.set(key, { tag_id: tagId, dimension: row.dimension, day, is_bot: bot === 1, value, scans });
      }
    }
  }
  for (const r of sums.values()) {
    await knex('tag_rollups')
      .insert({ ...r, unique_scans: 0 })
      .onConflict(['tag_id', 'dimension', 'day', 'is_bot', 'value'])
      .merge({ scans: knex.raw('tag_rollups.scans + ?', [r.scans]) });
  }
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('tag_rollups');
}
