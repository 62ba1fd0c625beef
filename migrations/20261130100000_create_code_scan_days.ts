import type { Knex } from 'knex';

// Which UTC days each code had scans on, as bits: per code and period of 400 days (counted from
// the epoch), eight words w0…w7 of 50 bits, bit b of word w for the period's day 50w + b
// (scans/scan-days.ts). Each code has a row of its days with human scans (with_bots false) and
// one of its days with any scan (true). The overview's count of active codes in a range wholly
// in the past reads them: about a second at 100,000 codes from the daily rows, whether probed
// per code or read whole. The primary key puts an account's rows of one kind and period
// together, so that count reads one stretch of it. The scan writer sets the bits of each
// batch's code-days; purging a deleted code deletes its rows. Built here from the daily rollups.
const WORD_BITS = 50;
const WORDS = 8;
const PERIOD_DAYS = WORD_BITS * WORDS;
const words = Array.from({ length: WORDS }, (_, i) => `w${i}`);

export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('code_scan_days', (t) => {
    t.string('account_id', 32).notNullable();
    t.boolean('with_bots').notNullable();
    t.integer('period').notNullable();
    t.string('code_id', 32).collate('utf8mb4_bin').notNullable();
    for (const word of words) t.bigInteger(word).notNullable().defaultTo(0);
    t.primary(['account_id', 'with_bots', 'period', 'code_id']);
    // For purging a deleted code's rows. A code's row is inserted once per period and kind, and
    // setting bits changes no key, so the scan writer seldom pays for this index.
    t.index(['code_id'], 'code_scan_days_code_idx');
  });
  await backfillCodeScanDays(knex);
}

/** The rows from the daily code rollups (exported for the test that holds it to the writer). */
export async function backfillCodeScanDays(knex: Knex): Promise<void> {
  // Integer division: SQLite's / on integers, MySQL's DIV.
  const div = knex.client.config.client === 'better-sqlite3' ? '/' : 'DIV';
  const day = `(day ${div} 86400000)`;
  // Each code-day once per kind (a day of human and bot scans has two daily rows), grouped in
  // the daily rows' key order: its bit is summed once, and a sum of distinct bits is their OR.
  for (const [withBots, humanOnly] of [
    [0, 'WHERE is_bot = 0'],
    [1, ''],
  ] as const) {
    await knex.raw(
      `INSERT INTO code_scan_days (account_id, with_bots, period, code_id, ${words.join(', ')})
       SELECT MIN(account_id), ${withBots}, period, code_id,
         ${words.map((w, i) => `SUM(CASE WHEN word = ${i} THEN bit ELSE 0 END)`).join(', ')}
       FROM (SELECT MIN(account_id) AS account_id, code_id, ${day} ${div} ${PERIOD_DAYS} AS period,
               (${day} % ${PERIOD_DAYS}) ${div} ${WORD_BITS} AS word,
               1 << (${day} % ${PERIOD_DAYS} % ${WORD_BITS}) AS bit
             FROM code_daily_rollups ${humanOnly} GROUP BY code_id, day) AS days
       GROUP BY code_id, period`,
    );
  }
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('code_scan_days');
}
