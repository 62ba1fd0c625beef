// `cli users create-owner --email <e> [--account <name>]`: a one-time setup link (valid an
// hour) for a new owner, from a shell on the server: of the named existing account, or of a new
// workspace. The link alone goes to stdout (LINK=$(...)); the person opening it chooses their
// password (POST /v1/setup with the link's token).
import { parseArgs } from 'node:util';
import type { Knex } from 'knex';
import type { Config } from '../config.ts';
import { migrateLatest } from '../db/migrate.ts';
import { createCliLogger } from '../logger.ts';
import { createServices } from '../services.ts';

export const CREATE_OWNER_USAGE = 'cli users create-owner --email <email> [--account <name>]';

export async function createOwner(args: string[], db: Knex, config: Config): Promise<number> {
  const { values } = parseArgs({ args, options: { email: { type: 'string' }, account: { type: 'string' } } });
  if (!values.email || !/^[^@\s]+@[^@\s]+$/.test(values.email)) {
    console.error(`users create-owner needs --email <email>\nUsage: ${CREATE_OWNER_USAGE}`);
    return 2;
  }
  await migrateLatest(db);
  const services = await createServices(db, config, createCliLogger());
  try {
    let accountId: string | undefined;
    if (values.account) {
      const account = await services.accounts.findAccount(values.account);
      if (!account) {
        console.error(`No account named '${values.account}'.`);
        return 1;
      }
      accountId = account.id;
    }
    const { token, expiresAt } = await services.setup.issueToken({ email: values.email, accountId });
    console.error(
      `A setup link for ${values.email}, owner of ${values.account ? `'${values.account}'` : 'a new workspace'}; ` +
        `it works once, until ${expiresAt.toISOString()}.`,
    );
    console.log(setupLink(config.publicBaseUrl, token));
    return 0;
  } finally {
    await services.close();
  }
}

/** The link a setup token is handed out in: the dashboard's setup page, which posts it to /v1/setup. */
export const setupLink = (publicBaseUrl: string, token: string) => `${publicBaseUrl}/dashboard/setup?token=${token}`;
