// The OAuth adapter when the library ends a grant: a replayed refresh token makes oidc-provider
// delete the token, each model's rows of its grant and the grant itself, all at once on separate
// connections. On MariaDB those deletes can deadlock each other (CI once answered such a replay
// with server_error); none of them may fail. The race is rare: this test has not caught it here
// without the retry, so it guards the outcome (everything deleted, no error) more than the cause.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAdapterClass } from '../../src/modules/oauth/payload-store.ts';
import { createTestDb, type TestDb } from '../support/db.ts';

let testDb: TestDb;
beforeAll(async () => {
  testDb = await createTestDb();
});
afterAll(() => testDb.destroy());

describe('the OAuth adapter ending a grant', () => {
  it('deletes every record of the grant when the library revokes it in parallel, round after round', async () => {
    const ended: string[] = [];
    const Adapter = createAdapterClass(
      testDb.db,
      async () => undefined,
      (id) => ended.push(id),
    );
    const grants = new Adapter('Grant');
    const tokens = new Adapter('RefreshToken');
    const codes = new Adapter('AuthorizationCode');
    const access = new Adapter('AccessToken');
    for (let round = 0; round < 60; round++) {
      const grantId = `grant-${round}`;
      await grants.upsert(grantId, { accountId: 'acc', clientId: 'c' }, 600);
      for (const n of [1, 2, 3]) await tokens.upsert(`rt-${round}-${n}`, { grantId, accountId: 'acc' }, 600);
      await codes.upsert(`code-${round}`, { grantId, accountId: 'acc' }, 60);
      // What oidc-provider's refresh_token grant does with a spent token (helpers/revoke.js).
      await Promise.all([
        tokens.destroy(`rt-${round}-1`),
        access.revokeByGrantId(grantId),
        tokens.revokeByGrantId(grantId),
        codes.revokeByGrantId(grantId),
        grants.destroy(grantId),
      ]);
      expect(
        await testDb
          .db('oauth_payloads')
          .where({ grant_id: grantId })
          .orWhere({ id: grantId })
          .count({ n: '*' })
          .first(),
      ).toMatchObject({ n: 0 });
    }
    expect(ended).toHaveLength(60);
  });

  it('revokes by grant only the records of its own model', async () => {
    const Adapter = createAdapterClass(
      testDb.db,
      async () => undefined,
      () => {},
    );
    const tokens = new Adapter('RefreshToken');
    const codes = new Adapter('AuthorizationCode');
    await tokens.upsert('rt-own', { grantId: 'g-own', accountId: 'acc' }, 600);
    await codes.upsert('code-own', { grantId: 'g-own', accountId: 'acc' }, 60);
    await tokens.revokeByGrantId('g-own');
    expect(await tokens.find('rt-own')).toBeUndefined();
    expect(await codes.find('code-own')).toMatchObject({ grantId: 'g-own' });
  });
});
