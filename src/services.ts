// Wires stores into services. Both transports receive the same Services object.
import type { Knex } from 'knex';
import type { Config } from './config.ts';
import { createAccountsService } from './modules/accounts/service.ts';
import { createAccountsStore } from './modules/accounts/store.ts';
import { createCodesService } from './modules/codes/service.ts';
import { createCodesStore } from './modules/codes/store.ts';
import { createRoutingStore } from './modules/routing/store.ts';

export function createServices(db: Knex, config: Config) {
  const routingStore = createRoutingStore(db);
  const codesStore = createCodesStore(db, routingStore);
  return {
    config,
    accounts: createAccountsService(db, createAccountsStore(db), { cacheTtlMs: config.apiKeyCacheTtlMs }),
    codes: createCodesService(db, codesStore, routingStore),
    /** For readiness: one trivial round trip. */
    async pingDatabase(): Promise<void> {
      await db.raw('select 1');
    },
  };
}

export type Services = ReturnType<typeof createServices>;
