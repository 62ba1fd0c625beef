// A long transaction lets waiting I/O in between its statements once it has written. On SQLite
// each statement runs synchronously on the thread that answers scans, and before db/knex.ts's
// turn-taking client a chain of them (a bulk call's transaction) held that thread until the last
// one: a scan waited seconds. (Before its first write a transaction takes no turn: db/knex.ts says
// why.) On MariaDB each statement is network I/O, so this holds by itself.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createTestDb, type TestDb } from '../support/db.ts';

let t: TestDb;
beforeAll(async () => {
  t = await createTestDb({ migrate: false });
  await t.db.raw('CREATE TABLE turn_probe (n INTEGER)');
});
afterAll(() => t.destroy());

/** A statement that holds its connection well past one turn (shared/turns.ts's TURN_MS) on SQLite. */
const SLOW =
  'WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c WHERE x < 500000) SELECT COUNT(*) AS n FROM c';

it('a callback queued during a transaction that wrote runs before its next statement returns', async () => {
  let ranBetween = false;
  await t.db.transaction(async (trx) => {
    await trx.raw('INSERT INTO turn_probe (n) VALUES (1)');
    await trx.raw(SLOW);
    setImmediate(() => (ranBetween = true));
    await trx.raw(SLOW);
    expect(ranBetween).toBe(true);
  });
});
