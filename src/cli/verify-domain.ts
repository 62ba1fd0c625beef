// `cli domains verify <hostname>`: the operator's path to a verified domain, without DNS (for
// an operator who knows the account controls it, or a network where TXT lookups do not work).
// A running server learns of it within CODE_CACHE_TTL_MS, or at once through REDIS_URL.
import type { Knex } from 'knex';
import type { Config } from '../config.ts';
import { createCliLogger } from '../logger.ts';
import { normalizeHostname } from '../modules/domains/index.ts';
import { createServices } from '../services.ts';
import { DomainError } from '../shared/errors.ts';

export const VERIFY_DOMAIN_USAGE =
  `cli domains verify <hostname>                 mark an account's registered ` + `domain verified (no DNS check)`;

export async function verifyDomain(args: string[], db: Knex, config: Config): Promise<number> {
  const [input, ...rest] = args;
  const normal = input !== undefined && rest.length === 0 ? normalizeHostname(input) : null;
  if (!normal || 'problem' in normal) {
    console.error(normal && 'problem' in normal ? `The hostname ${normal.problem}.` : `Usage: ${VERIFY_DOMAIN_USAGE}`);
    return 2;
  }
  const services = await createServices(db, config, createCliLogger());
  try {
    const domain = await services.domains.verifyByOperator(normal.hostname);
    console.log(`Domain ${domain.hostname} (${domain.id}) is verified; its account's codes may use it.`);
    return 0;
  } catch (err) {
    if (!(err instanceof DomainError) || err.kind !== 'not_found') throw err;
    console.error(err.message);
    return 1;
  } finally {
    await services.close();
  }
}
