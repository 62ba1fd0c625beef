import type { Knex } from 'knex';

// scan_rollups and account_scan_rollups go from UTC hours to quarter hours (issue 37): every time
// zone's offset is a multiple of 15 minutes, so quarter rows answer the local days, hours and
// weekday x hour cells of Kolkata (+05:30), Kathmandu (+05:45) or Adelaide (+09:30) as hour rows
// do for whole-hour zones. The time column keeps its name `hour`: it holds the start of the row's
// slice, a quarter hour from now on.
//
// Stored hours are split into quarters from raw scans where the raw scans of the hour are all
// still there: where their counts equal the hour's rows (a code's scans, uniques and redirects;
// an account's 'total' scans and uniques), the hour's rows (of every dimension, for an account)
// are rebuilt from them. Elsewhere (raw scans past SCAN_RAW_RETENTION_DAYS, or an hour straddling
// that horizon) the hour row stays as it is, counted at its hour's start: answers over that old
// period are exact on whole hours only. The rule compares sums over the hour, so running it again
// (or on hours already in quarters) rebuilds the same rows.
const QUARTER = 900_000;
const HOUR = 3_600_000;
const hourOf = (column: string) => `${column} - (${column} % ${HOUR})`;
const quarterOf = (column: string) => `${column} - (${column} % ${QUARTER})`;

// The account rollup's dimensions as the writer keeps them, written out: a migration never
// changes meaning when the code's list grows. Region and city are sparse (no row when absent).
const ACCOUNT_DIMENSIONS: Array<[dimension: string, value: string, sparse: boolean]> = [
  ['total', "''", false],
  ['country', "COALESCE(s.country, '')", false],
  ['region', 's.region', true],
  ['city', 's.city', true],
  ['device', "COALESCE(s.device, '')", false],
  ['os', "COALESCE(s.os, '')", false],
  ['browser', "COALESCE(s.browser, '')", false],
  ['referrer', "COALESCE(s.referrer_host, '')", false],
];

const REDIRECTED = "CASE WHEN s.outcome = 'redirect' THEN 1 ELSE 0 END";

/** A table of sums per hour of a code or an account (`owner`), keyed like the rollups. */
async function hourSums(
  knex: Knex,
  table: string,
  owner: 'code_id' | 'account_id',
  columns: string[],
  select: string,
): Promise<void> {
  // Left by a run that failed midway (MariaDB commits DDL at once): made anew.
  await knex.schema.dropTableIfExists(table);
  await knex.schema.createTable(table, (t) => {
    t.string(owner, 32).notNullable();
    t.bigInteger('hour').notNullable();
    t.boolean('is_bot').notNullable();
    for (const column of columns) t.bigInteger(column).notNullable();
    t.primary([owner, 'hour', 'is_bot']);
  });
  await knex.raw(`INSERT INTO ${table} (${owner}, hour, is_bot, ${columns.join(', ')}) ${select}`);
}

/**
 * The hours to split (`table`): the raw scans' sums per hour of a code or an account (`owner`),
 * less those that the rollup's rows of the hour (`rollup`, its rows `where`) sum to otherwise.
 * Both sums go to keyed tables first and are compared by primary key: as a join of two grouped
 * subqueries MariaDB planned it as a "lateral derived" table (a code's rollup rows regrouped for
 * each of its raw hours), and as correlated sums over an hour's range of the rollup it read every
 * row of the code per hour; each took many minutes at a million scans.
 */
async function hoursToSplit(
  knex: Knex,
  table: string,
  owner: 'code_id' | 'account_id',
  counts: Array<[column: string, raw: string]>,
  rollup: { table: string; where?: string },
): Promise<void> {
  const columns = counts.map(([column]) => column);
  await hourSums(
    knex,
    table,
    owner,
    columns,
    `SELECT s.${owner}, ${hourOf('s.scanned_at')}, s.is_bot, ${counts.map(([, raw]) => raw).join(', ')}
     FROM scans s GROUP BY s.${owner}, ${hourOf('s.scanned_at')}, s.is_bot`,
  );
  const rolled = `${table}_rolled`;
  await hourSums(
    knex,
    rolled,
    owner,
    columns,
    `SELECT ${owner}, ${hourOf('hour')}, is_bot, ${columns.map((c) => `SUM(${c})`).join(', ')}
     FROM ${rollup.table} ${rollup.where ? `WHERE ${rollup.where}` : ''}
     GROUP BY ${owner}, ${hourOf('hour')}, is_bot`,
  );
  const same = columns.map((c) => `r.${c} = ${table}.${c}`).join(' AND ');
  await knex.raw(
    `DELETE FROM ${table} WHERE NOT EXISTS (SELECT 1 FROM ${rolled} r WHERE r.${owner} = ${table}.${owner}
       AND r.hour = ${table}.hour AND r.is_bot = ${table}.is_bot AND ${same})`,
  );
  await knex.schema.dropTable(rolled);
}

const UNIQUE = 'SUM(CASE WHEN s.is_unique THEN 1 ELSE 0 END)';
const ACCOUNT_UNIQUE = 'SUM(CASE WHEN s.is_account_unique THEN 1 ELSE 0 END)';

async function splitCodeHours(knex: Knex): Promise<void> {
  await hoursToSplit(
    knex,
    'quarter_split_code_hours',
    'code_id',
    [
      ['scans', 'COUNT(*)'],
      ['unique_scans', UNIQUE],
      ['redirects', `SUM(${REDIRECTED})`],
    ],
    { table: 'scan_rollups' },
  );
  await knex.raw(
    `DELETE FROM scan_rollups WHERE EXISTS (SELECT 1 FROM quarter_split_code_hours x
       WHERE x.code_id = scan_rollups.code_id AND x.hour = ${hourOf('scan_rollups.hour')}
         AND x.is_bot = scan_rollups.is_bot)`,
  );
  await knex.raw(
    `INSERT INTO scan_rollups (code_id, hour, is_bot, account_id, scans, unique_scans, redirects)
     SELECT s.code_id, ${quarterOf('s.scanned_at')}, s.is_bot, MIN(s.account_id), COUNT(*), ${UNIQUE},
       SUM(${REDIRECTED})
     FROM scans s JOIN quarter_split_code_hours x
       ON x.code_id = s.code_id AND x.hour = ${hourOf('s.scanned_at')} AND x.is_bot = s.is_bot
     GROUP BY s.code_id, ${quarterOf('s.scanned_at')}, s.is_bot`,
  );
  await knex.schema.dropTable('quarter_split_code_hours');
}

async function splitAccountHours(knex: Knex): Promise<void> {
  await hoursToSplit(
    knex,
    'quarter_split_account_hours',
    'account_id',
    [
      ['scans', 'COUNT(*)'],
      ['unique_scans', ACCOUNT_UNIQUE],
    ],
    { table: 'account_scan_rollups', where: "dimension = 'total'" },
  );
  await knex.raw(
    `DELETE FROM account_scan_rollups WHERE EXISTS (SELECT 1 FROM quarter_split_account_hours x
       WHERE x.account_id = account_scan_rollups.account_id AND x.hour = ${hourOf('account_scan_rollups.hour')}
         AND x.is_bot = account_scan_rollups.is_bot)`,
  );
  for (const [dimension, value, sparse] of ACCOUNT_DIMENSIONS) {
    const uniques = dimension === 'total' ? ACCOUNT_UNIQUE : '0';
    await knex.raw(
      `INSERT INTO account_scan_rollups (account_id, dimension, hour, is_bot, value, scans, unique_scans)
       SELECT s.account_id, ?, ${quarterOf('s.scanned_at')}, s.is_bot, ${value}, COUNT(*), ${uniques}
       FROM scans s JOIN quarter_split_account_hours x
         ON x.account_id = s.account_id AND x.hour = ${hourOf('s.scanned_at')} AND x.is_bot = s.is_bot
       ${sparse ? `WHERE ${value} IS NOT NULL` : ''}
       GROUP BY s.account_id, ${quarterOf('s.scanned_at')}, s.is_bot, ${value}`,
      [dimension],
    );
  }
  await knex.schema.dropTable('quarter_split_account_hours');
}

export async function up(knex: Knex): Promise<void> {
  await splitCodeHours(knex);
  await splitAccountHours(knex);
}

/** Quarter rows summed back into their hours, through a table of the sums. */
async function mergeIntoHours(knex: Knex, table: string, key: string[], counts: string[]): Promise<void> {
  const sums = `${table}_hour_sums`;
  const others = key.filter((column) => column !== 'hour');
  await knex.schema.dropTableIfExists(sums);
  await knex.raw(
    `CREATE TABLE ${sums} AS SELECT ${others.join(', ')}, ${hourOf('hour')} AS hour,
       ${counts.map((c) => `SUM(${c}) AS ${c}`).join(', ')}
     FROM ${table} GROUP BY ${others.join(', ')}, ${hourOf('hour')}`,
  );
  await knex(table).delete();
  const columns = [...others, 'hour', ...counts].join(', ');
  await knex.raw(`INSERT INTO ${table} (${columns}) SELECT ${columns} FROM ${sums}`);
  await knex.schema.dropTable(sums);
}

export async function down(knex: Knex): Promise<void> {
  // account_id is the code's: one value per code, kept through the sums as part of the key.
  await mergeIntoHours(
    knex,
    'scan_rollups',
    ['code_id', 'hour', 'is_bot', 'account_id'],
    ['scans', 'unique_scans', 'redirects'],
  );
  await mergeIntoHours(
    knex,
    'account_scan_rollups',
    ['account_id', 'dimension', 'hour', 'is_bot', 'value'],
    ['scans', 'unique_scans'],
  );
}
