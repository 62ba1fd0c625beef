// Contract: the operations that need no credential (health, readiness, the document itself),
// validated against the served document, readiness's 503 included.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../support/app.ts';
import { contractClient, startContractApp, type Contract } from '../support/contract.ts';
import { createOpenApiValidator } from '../support/openapi-validator.ts';

let app: TestApp;
let contract: Contract;
let call: ReturnType<typeof contractClient>;

beforeAll(async () => {
  ({ app, contract, call } = await startContractApp());
});
afterAll(() => app.close());

describe('operations', () => {
  it('health, readiness and the document answer without a credential', async () => {
    expect((await call('GET', '/healthz')).status).toBe(200);
    expect((await call('GET', '/readyz')).status).toBe(200);
    expect((await call('GET', '/v1/openapi.json')).body.openapi).toBe('3.1.0');
    // The v2 document, checked against itself (its other operations are v1's: routes.test.ts).
    const v2 = await app.request('GET', '/v2/openapi.json');
    const validator = createOpenApiValidator(v2.body, 'v2');
    expect(validator.mismatches(validator.operationFor('GET', '/v2/openapi.json')!, '/v2/openapi.json', v2)).toEqual(
      [],
    );
    expect(v2.body.servers).toEqual([{ url: '/v2', description: 'This server, current version' }]);
  });

  it('readiness answers the documented 503 problem when the database is gone', async () => {
    const { app: own } = await startContractApp();
    const ownCall = contractClient(own, contract);
    await own.testDb.db.destroy();
    try {
      expect((await ownCall('GET', '/readyz')).status).toBe(503);
    } finally {
      await own.close().catch(() => undefined);
    }
  });

  it('walked every operation of the tag', () => contract.expectTagCovered('Operations'));
});
