// Command line: `migrate`; `keys create --account <name>` for a fresh install's first key (printed
// alone on the last line of stdout, so scripts can capture it); and `codes import <file.csv>`, a
// client of a running server's bulk API (./cli/import-codes.ts).
import { parseArgs } from 'node:util';
import { importCodes, IMPORT_USAGE } from './cli/import-codes.ts';
import { loadConfig } from './config.ts';
import { createDb } from './db/knex.ts';
import { migrateLatest } from './db/migrate.ts';
import { createLogger } from './logger.ts';
import { createServices } from './services.ts';

const USAGE = `Usage:
  cli migrate                                   apply pending database migrations
  cli keys create --account <name> [--name <n>] create an API key (and the account if new)
  ${IMPORT_USAGE}
                                                create codes from a CSV file through the API`;

async function run(argv: string[]): Promise<number> {
  const [group, command] = argv;
  // A client of a running server: no configuration or database of its own.
  if (group === 'codes' && command === 'import') return importCodes(argv.slice(2));
  const config = loadConfig();
  const db = createDb(config.databaseUrl);
  try {
    if (group === 'migrate') {
      const applied = await migrateLatest(db);
      console.log(applied.length ? `Applied: ${applied.join(', ')}` : 'Already up to date.');
      return 0;
    }
    if (group === 'keys' && command === 'create') {
      const { values } = parseArgs({
        args: argv.slice(2),
        options: { account: { type: 'string' }, name: { type: 'string' } },
        strict: true,
      });
      if (!values.account) {
        console.error('keys create needs --account <name>\n' + USAGE);
        return 2;
      }
      await migrateLatest(db);
      const services = await createServices(db, config, createLogger({ logLevel: 'warn' }));
      const issued = await services.accounts.issueKey(values.account, values.name);
      console.log(`Created key ${issued.prefix}… (${issued.keyId}) for account '${issued.accountName}' (${issued.accountId}).`);
      console.log('Store it now: it is shown only this once.');
      console.log(issued.key);
      return 0;
    }
    console.error(USAGE);
    return 2;
  } finally {
    await db.destroy();
  }
}

run(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (err) => {
    console.error(err instanceof Error ? err.message : err);
    process.exit(1);
  },
);
