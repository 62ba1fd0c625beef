// `cli import --account <name> --format <f> --file <path> [--domain <host> | --service-domain]
// [--dry-run] [--json]`: the operator's POST /v1/imports, run on the database directly for an
// account named like `keys create`'s. It prints what was (or would be) created and every row
// that cannot be; exit 0 when every row is created, already here, or would be created; 1 when
// any row cannot be (the rest are still created on a real run) or the import fails; 2 for a
// usage error.
import { readFile } from 'node:fs/promises';
import { parseArgs } from 'node:util';
import type { Knex } from 'knex';
import type { Config } from '../config.ts';
import { createCliLogger } from '../logger.ts';
import { IMPORT_FORMATS, importBodySchema, presentImportReport } from '../modules/imports/index.ts';
import { createServices } from '../services.ts';
import { CLI_ACTOR } from '../shared/actor.ts';
import { DomainError } from '../shared/errors.ts';
import { SCOPES } from '../shared/principal.ts';
import { parseInput } from '../shared/validation.ts';

export const IMPORT_LINKS_USAGE =
  `cli import --account <name> --format <${IMPORT_FORMATS.join('|')}> --file <path>\n` +
  `             [--domain <hostname> | --service-domain] [--dry-run] [--json]`;

const STATUS_WORDS = { would_create: 'would create', created: 'created', exists: 'already here', failed: 'failed' };

export async function importLinks(argv: string[], db: Knex, config: Config): Promise<number> {
  const { values } = parseArgs({
    args: argv,
    options: {
      account: { type: 'string' },
      format: { type: 'string' },
      file: { type: 'string' },
      domain: { type: 'string' },
      'service-domain': { type: 'boolean', default: false },
      'dry-run': { type: 'boolean', default: false },
      json: { type: 'boolean', default: false },
    },
    strict: true,
  });
  const usage = (why: string) => {
    console.error(`${why}\nUsage: ${IMPORT_LINKS_USAGE}`);
    return 2;
  };
  if (!values.account) return usage('import needs --account <name>');
  if (!values.format || !(IMPORT_FORMATS as readonly string[]).includes(values.format))
    return usage(`--format must be one of ${IMPORT_FORMATS.join(', ')}`);
  if (!values.file) return usage('import needs --file <path>');
  if (values.domain !== undefined && values['service-domain'])
    return usage('give --domain or --service-domain, not both');

  let content: string;
  try {
    content = await readFile(values.file, 'utf8');
  } catch (err) {
    console.error(`Cannot read ${values.file}: ${(err as Error).message}`);
    return 1;
  }
  const services = await createServices(db, config, createCliLogger());
  try {
    const account = await services.accounts.findAccount(values.account);
    if (!account) {
      console.error(`No account is named '${values.account}' (cli keys create --account makes one).`);
      return 1;
    }
    // The operator acts: the audit log records the import with the CLI as its actor.
    const principal = { accountId: account.id, keyId: 'cli', scopes: new Set(SCOPES), actor: CLI_ACTOR };
    const body = parseInput(importBodySchema, {
      format: values.format,
      content,
      dry_run: values['dry-run'],
      ...(values['service-domain'] ? { domain: null } : values.domain !== undefined ? { domain: values.domain } : {}),
    });
    const report = presentImportReport(await services.imports.run(principal, body));
    if (values.json) console.log(JSON.stringify(report, null, 2));
    else {
      const done = report.dry_run
        ? `would create ${report.would_create}`
        : `created ${report.created}${report.batch_id ? ` (batch ${report.batch_id})` : ''}`;
      console.log(
        `${report.dry_run ? 'Dry run of ' : ''}${values.file} (${report.format}, ${report.total} links): ${done}, ` +
          `${report.existing} already here, ${report.failed} cannot be created.`,
      );
      for (const row of report.rows) {
        const where = row.slug ? ` ${row.domain ?? '(service domain)'}/${row.slug}` : '';
        console.log(`  row ${row.row}: ${STATUS_WORDS[row.status]}${where}${row.reason ? `: ${row.reason}` : ''}`);
      }
    }
    return report.failed > 0 ? 1 : 0;
  } catch (err) {
    if (!(err instanceof DomainError)) throw err;
    console.error(err.message);
    for (const e of err.fieldErrors ?? []) console.error(`  ${e.path}: ${e.message}`);
    return 1;
  } finally {
    await services.close();
  }
}
