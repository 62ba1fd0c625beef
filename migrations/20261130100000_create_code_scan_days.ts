import type { Knex } from 'knex';

// Which UTC days each code had scans on, as bits: per code and period of 400 days (counted from
// the epoch), its days with human scans in eight words h0…h7 of 50 bits and its days with bot
// scans in b0…b7, bit b of word w for the period's day 50w + b (scans/scan-days.ts). The
// overview's count of active codes in a range wholly in the past reads them: about a second at
// 100,000 codes from the daily rows, whether probed per code or read whole. The primary key puts
// an account's rows of one period together, so that count reads one stretch of it. The scan
// writer sets the bits of each batch's code-days; purging a deleted code deletes its rows.
// Built here from the daily code rollups.
const WORD_BITS = 50;
const WORDS = 8;
const PERIOD_DAYS = WORD_BITS * WORDS;
const wordsOf = (kind: 'h' | 'b') => Array.from({ length: WORDS }, (_, i) => `${kind}${i}`);

export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('code_scan_days', (t) => {
    t.string('account_id', 32).notNullable();
    t.integer('period').notNullable();
    t.string('code_id', 32).collate('utf8mb4_bin').notNullable();
    for (const word of [...wordsOf('h'), ...wordsOf('b')]) t.bigInteger(word).notNullable().defaultTo(0);
    t.primary(['account_id', 'period', 'code_id']);
    // For purging a deleted code's rows. A code's row is inserted once per period, and setting
    // bits changes no key, so the scan writer seldom pays for this index.
    t.index(['code_id'], 'code_scan_days_code_idx');
  });
  await backfillCodeScanDays(knex);
}

/** The rows from the daily code rollups (exported for the test that holds it to the writer). */
export async function backfillCodeScanDays(knex: Knex): Promise<void> {
  // Integer division: SQLite's / on integers, MySQL's DIV.
  const div = knex.client.config.client === 'better-sqlite3' ? '/' : 'DIV';
  const day = `(day ${div} 86400000)`;
  // A daily row is one code, day and bot flag: summing distinct bits is their OR.
  const sums = (kind: 'h' | 'b', isBot: number) =>
    wordsOf(kind).map((_, i) => `SUM(CASE WHEN is_bot = ${isBot} AND word = ${i} THEN bit ELSE 0 END)`);
  await knex.raw(
    `INSERT INTO code_scan_days (account_id, period, code_id, ${[...wordsOf('h'), ...wordsOf('b')].join(', ')})
     SELECT MIN(account_id), period, code_id, ${[...sums('h', 0), ...sums('b', 1)].join(', ')}
     FROM (SELECT account_id, code_id, is_bot, ${day} ${div} ${PERIOD_DAYS} AS period,
             (${day} % ${PERIOD_DAYS}) ${div} ${WORD_BITS} AS word,
             1 << (${day} % ${PERIOD_DAYS} % ${WORD_BITS}) AS bit
           FROM code_daily_rollups) AS days
     GROUP BY code_id, period`,
  );
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('code_scan_days');
}
