// Command line: `migrate`; `keys create --account <name>` for a fresh install's first key (the
// key alone on stdout and what it says about it on stderr, so `KEY=$(npm run --silent cli --
// keys create ...)` captures the key and fails when the command does; every scope unless
// --scopes names some); `codes import <file.csv>`, a client of a running server's bulk API
// (./cli/import-codes.ts); `import --account <name> --format <f> --file <path>`, another link
// service's export imported into an account (./cli/import-links.ts); `domains verify
// <hostname>`, the operator's verification of an account's domain
// (./cli/verify-domain.ts); `users create-owner --email <e> [--account <name>]`, a one-time setup
// link (./cli/create-owner.ts); and `backup`/`restore` of the database (./cli/backup.ts). Every
// failure exits non-zero: 2 for a usage error, 1 for the rest.
import { parseArgs } from 'node:util';
import { backup, BACKUP_USAGE, restore, RESTORE_USAGE } from './cli/backup.ts';
import { importCodes, IMPORT_USAGE } from './cli/import-codes.ts';
import { importLinks, IMPORT_LINKS_USAGE } from './cli/import-links.ts';
import { verifyDomain, VERIFY_DOMAIN_USAGE } from './cli/verify-domain.ts';
import { createOwner, CREATE_OWNER_USAGE } from './cli/create-owner.ts';
import { loadConfig } from './config.ts';
import { createDb } from './db/knex.ts';
import { migrateLatest } from './db/migrate.ts';
import { createCliLogger } from './logger.ts';
import { createServices } from './services.ts';
import { isScope, SCOPES, type Scope } from './shared/principal.ts';

const USAGE = `Usage:
  cli migrate                                   apply pending database migrations
  cli keys create --account <name> [--name <n>] [--scopes <s1,s2>]
                                                create an API key (and the account if new);
                                                scopes: ${SCOPES.join(', ')} (default: all)
  ${IMPORT_USAGE}
                                                create codes from a CSV file through the API
  ${IMPORT_LINKS_USAGE}
                                                import a Bitly, Shlink, YOURLS or Kutt export
                                                into an account (exit 1 if any row cannot be)
  ${VERIFY_DOMAIN_USAGE}
  ${CREATE_OWNER_USAGE}
                                                print a one-time link (an hour) that creates an
                                                owner of the account, or of a new workspace
  ${BACKUP_USAGE}              copy the database while the service runs
  ${RESTORE_USAGE}           load a backup into an empty database`;

/** `codes:read,codes:write` -> the scopes, or null when a name is unknown or none is given. */
function parseScopes(list: string): Scope[] | null {
  const names = list
    .split(',')
    .map((name) => name.trim())
    .filter((name) => name !== '');
  return names.length > 0 && names.every(isScope) ? [...new Set(names as Scope[])] : null;
}

async function run(argv: string[]): Promise<number> {
  const [group, command] = argv;
  // A client of a running server: no configuration or database of its own.
  if (group === 'codes' && command === 'import') return importCodes(argv.slice(2));
  const config = loadConfig();
  // Outside the pool below: these open the database (or its server) their own way.
  if (group === 'backup') return backup(argv.slice(1), config.databaseUrl);
  if (group === 'restore') return restore(argv.slice(1), config.databaseUrl);
  const db = createDb(config.databaseUrl);
  try {
    if (group === 'migrate') {
      const applied = await migrateLatest(db);
      console.log(applied.length ? `Applied: ${applied.join(', ')}` : 'Already up to date.');
      return 0;
    }
    if (group === 'domains' && command === 'verify') return await verifyDomain(argv.slice(2), db, config);
    if (group === 'import') return await importLinks(argv.slice(1), db, config);
    if (group === 'users' && command === 'create-owner') return await createOwner(argv.slice(2), db, config);
    if (group === 'keys' && command === 'create') {
      const { values } = parseArgs({
        args: argv.slice(2),
        options: { account: { type: 'string' }, name: { type: 'string' }, scopes: { type: 'string' } },
        strict: true,
      });
      if (!values.account) {
        console.error('keys create needs --account <name>\n' + USAGE);
        return 2;
      }
      const scopes = values.scopes === undefined ? [...SCOPES] : parseScopes(values.scopes);
      if (!scopes) {
        console.error(`--scopes takes a comma-separated list of: ${SCOPES.join(', ')}\n` + USAGE);
        return 2;
      }
      await migrateLatest(db);
      const services = await createServices(db, config, createCliLogger());
      const issued = await services.accounts.issueKey(values.account, { name: values.name, scopes });
      console.error(
        `Created key ${issued.prefix}… (${issued.keyId}) for account '${issued.accountName}' (${issued.accountId}), ` +
          `scopes: ${scopes.join(' ')}.`,
      );
      console.error('Store it now: it is shown only this once.');
      console.log(issued.key);
      return 0;
    }
    console.error(USAGE);
    return 2;
  } finally {
    await db.destroy();
  }
}

// Every failure exits non-zero, so a script (or `KEY=$(...)`) stops instead of going on with
// nothing: 2 for arguments parseArgs refuses (an unknown option), as for the checks above, 1 for
// anything else (a bad configuration, an unreachable database).
run(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (err) => {
    const badArguments =
      err instanceof TypeError && String((err as { code?: unknown }).code).startsWith('ERR_PARSE_ARGS');
    console.error(err instanceof Error ? err.message : err);
    if (badArguments) console.error(USAGE);
    process.exit(badArguments ? 2 : 1);
  },
);
