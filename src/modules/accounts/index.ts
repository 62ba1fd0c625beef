// The accounts module's public face: what the rest of the service may use of it. Anything
// not exported here is the module's own (npm run lint:imports enforces it).
export { scopesSchema } from './schemas.ts';
export { assertCanGrant, createAccountsService } from './service.ts';
export { createAccountsStore } from './store.ts';
export type { AccountRow, AccountsStore } from './store.ts';
