// Tags' own rollups (tag_rollups) against raw scans: a tag's overview from them equals the same
// overview computed from raw rows, whether its codes were tagged before their scans were written
// (the batch writer adds them), after (tagging adds their history), untagged or deleted, and
// while batches and tagging race on the same codes; the migration builds the same rows.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { overviewQuerySchema } from '../../src/modules/analytics/schemas.ts';
import { createAnalyticsService } from '../../src/modules/analytics/service.ts';
import { createCodesStore, createOwnedCodeIds, lockCodes } from '../../src/modules/codes/index.ts';
import { inTransaction, type Queryable } from '../../src/db/transaction.ts';
import { createRoutingStore } from '../../src/modules/routing/index.ts';
import {
  createCommitBatch,
  createRawSource,
  createRollupSource,
  createTagHistoryMover,
  type ScanEvent,
} from '../../src/modules/scans/index.ts';
import { createDimensionRoller } from '../../src/modules/scans/dimension-deltas.ts';
import { createAuditService, createAuditStore } from '../../src/modules/audit/index.ts';
import { createCodeTagging, createTagsService, createTagsStore } from '../../src/modules/tags/index.ts';
import { parseInput } from '../../src/shared/validation.ts';
import { backfillTagRollups } from '../../migrations/20261129100000_create_tag_rollups.ts';
import { createTestDb, type TestDb } from '../support/db.ts';
import { insertCodeRows } from '../support/factories.ts';
import { seededRandom } from '../support/random.ts';
import { scanEvent } from '../support/scans.ts';

let testDb: TestDb;
const ACCOUNT = 'acct_tag_rollups';
const CODES = ['qr_t1', 'qr_t2', 'qr_t3', 'qr_t4'];
const principal = { accountId: ACCOUNT, keyId: 'key_test' } as never;
const START = Date.parse('2026-03-01T00:00:00Z');
const DAY = 86_400_000;

beforeAll(async () => {
  testDb = await createTestDb();
  await testDb.db('accounts').insert({ id: ACCOUNT, name: 'tag rollups', created_at: Date.now() });
  await insertCodeRows(testDb.db, ACCOUNT, CODES);
});
afterAll(() => testDb.destroy());

function parts() {
  const { db } = testDb;
  const tagsStore = createTagsStore(db);
  const tagging = createCodeTagging(tagsStore, 1000, createTagHistoryMover(db, db));
  const codes = createCodesStore(db, createRoutingStore(db), tagging);
  const raw = createRawSource(db, createOwnedCodeIds(db));
  const codesOn = (q: Queryable) => ({ owned: createOwnedCodeIds(q) });
  const sources = {
    codes,
    rollups: createRollupSource(db, raw, codesOn),
    raw,
    taggedCodes: (accountId: string, tag: string) => tagging.codeIdsWithAny(accountId, [tag]),
    tagIdOf: tagging.idOf,
  };
  return {
    tagging,
    codes,
    commit: createCommitBatch(db, async () => false),
    rollups: createAnalyticsService({ ...sources, rawOnly: false }),
    raw: createAnalyticsService({ ...sources, rawOnly: true }),
  };
}

/** `n` scans of the codes over ten days from `from`, countries, devices and bots mixed. */
function randomEvents(n: number, seed: number, from = START): ScanEvent[] {
  const next = seededRandom(seed);
  const pick = <T>(values: T[]) => values[Math.floor(next() * values.length)]!;
  return Array.from({ length: n }, () =>
    scanEvent({ id: pick(CODES) }, ACCOUNT, {
      at: new Date(from + Math.floor(next() * 10 * DAY)).toISOString(),
      country: pick(['US', 'DE', 'FR', null]),
      device: pick(['ios', 'android', 'desktop']),
      referrer: pick([undefined, 'a.example', 'b.example']),
      visitor: `v${Math.floor(next() * 12)}`,
      bot: next() < 0.1,
    }),
  ).sort((a, b) => a.at - b.at);
}

const setTags = (p: ReturnType<typeof parts>, codes: { codeId: string; names: string[] }[]) =>
  inTransaction(testDb.db, (trx) => p.tagging.set(ACCOUNT, codes, trx));

const QUERIES = [
  { from: '2026-03-01', to: '2026-03-20', granularity: 'day' },
  { from: '2026-03-02', to: '2026-03-14', granularity: 'day', include_bots: 'true' },
  { from: '2026-02-25', to: '2026-03-25', granularity: 'week', timezone: 'Europe/Berlin' },
];

/** Every query's overview of the tag, from rollups and from raw scans, must agree; answers the totals. */
async function expectTagAgrees(p: ReturnType<typeof parts>, tag: string): Promise<number[]> {
  const totals: number[] = [];
  for (const query of QUERIES) {
    const q = parseInput(overviewQuerySchema, { ...query, tag });
    const fromRollups = await p.rollups.overview(principal, q);
    expect(fromRollups).toEqual(await p.raw.overview(principal, q));
    totals.push(fromRollups.total_scans);
  }
  return totals;
}

/** The tag_rollups rows, sorted, without the rows untagging left at zero (the backfill makes none). */
async function tagRows() {
  const rows = await testDb.db('tag_rollups').where('scans', '<>', 0).orWhere('unique_scans', '<>', 0);
  return rows
    .map((r) => ({
      ...r,
      day: Number(r.day),
      is_bot: Boolean(r.is_bot),
      scans: Number(r.scans),
      unique_scans: Number(r.unique_scans),
    }))
    .sort((a, b) => JSON.stringify(a).localeCompare(JSON.stringify(b)));
}

describe('a tag overview from its rollups equals the one from raw scans', () => {
  it('when codes are tagged before and after their scans, untagged, and deleted', async () => {
    const p = parts();
    await setTags(p, [
      { codeId: 'qr_t1', names: ['early'] },
      { codeId: 'qr_t2', names: ['early', 'both'] },
    ]);
    const events = randomEvents(1200, 7);
    for (let i = 0; i < events.length; i += 150) await p.commit(events.slice(i, i + 150), `tag-batch-${i}`);
    const [early] = await expectTagAgrees(p, 'early');
    expect(early).toBeGreaterThan(0);

    // Tagged after its scans: its history moves in, queued breakdown counts included.
    await setTags(p, [
      { codeId: 'qr_t3', names: ['late', 'both'] },
      { codeId: 'qr_t2', names: ['both'] },
    ]);
    const [late] = await expectTagAgrees(p, 'late');
    expect(late).toBeGreaterThan(0);
    const [earlyNow] = await expectTagAgrees(p, 'early');
    expect(earlyNow).toBeLessThan(early!);
    await expectTagAgrees(p, 'both');

    // More scans, some queued and some rolled, then a roll of everything queued.
    const more = randomEvents(600, 8, START + 5 * DAY);
    for (let i = 0; i < more.length; i += 150) await p.commit(more.slice(i, i + 150), `tag-more-${i}`);
    await expectTagAgrees(p, 'late');
    while ((await createDimensionRoller(testDb.db)()) > 0);
    await expectTagAgrees(p, 'both');

    // The migration's backfill builds the same rows from the codes' rollups.
    const live = await tagRows();
    expect(live.length).toBeGreaterThan(0);
    await testDb.db('tag_rollups').delete();
    await backfillTagRollups(testDb.db);
    expect(await tagRows()).toEqual(live);

    // A deleted code leaves its tags' rollups with it.
    await inTransaction(testDb.db, (trx) => p.codes.delete(ACCOUNT, 'qr_t3', trx));
    expect(await expectTagAgrees(p, 'late')).toEqual([0, 0, 0]);
    await expectTagAgrees(p, 'both');
    const lateId = await p.tagging.idOf(ACCOUNT, 'late');
    const left = await testDb.db('tag_rollups').where('tag_id', lateId!).select('scans', 'unique_scans');
    expect(left.length).toBeGreaterThan(0);
    expect(left.every((r) => Number(r.scans) === 0 && Number(r.unique_scans) === 0)).toBe(true);
  });
});

describe('batches and tagging racing on the same codes', () => {
  it('count every scan of a tagged code in its tag exactly once', async () => {
    const p = parts();
    const events = randomEvents(4000, 9, START + 20 * DAY).filter((e) => e.codeId !== 'qr_t3');
    const batches = Array.from({ length: 20 }, (_, i) => events.slice(i * 200, (i + 1) * 200));
    const toggles = Array.from({ length: 12 }, (_, i) => [
      { codeId: 'qr_t1', names: i % 2 ? ['race'] : [] },
      { codeId: 'qr_t4', names: i % 3 ? ['race', 'other'] : ['other'] },
    ]);
    // Two writers and one tagger at once, as two instances and an API request would be.
    await Promise.all([
      (async () => {
        for (let i = 0; i < batches.length; i += 2) await p.commit(batches[i]!, `race-${i}`);
      })(),
      (async () => {
        for (let i = 1; i < batches.length; i += 2) await p.commit(batches[i]!, `race-${i}`);
      })(),
      (async () => {
        for (const codes of toggles) await setTags(p, codes);
      })(),
    ]);
    for (const tag of ['race', 'other']) {
      const q = parseInput(overviewQuerySchema, { from: '2026-03-20', to: '2026-04-05', tag, include_bots: 'true' });
      const fromRollups = await p.rollups.overview(principal, q);
      expect(fromRollups.total_scans).toBeGreaterThan(0);
      expect(fromRollups).toEqual(await p.raw.overview(principal, q));
    }
  });
});

describe('deleting a tagged code while it changes', () => {
  it('subtracts it from its tags once, whether deleted twice at once or retagged meanwhile', async () => {
    const p = parts();
    const codes = ['qr_t5', 'qr_t6', 'qr_t7'];
    await insertCodeRows(testDb.db, ACCOUNT, codes);
    await setTags(
      p,
      codes.map((codeId) => ({ codeId, names: ['kept'] })),
    );
    const events = randomEvents(600, 11, START + 40 * DAY).map((e, i) => ({ ...e, codeId: codes[i % 3]! }));
    await p.commit(events, 'delete-race');
    const remove = (id: string) => inTransaction(testDb.db, (trx) => p.codes.delete(ACCOUNT, id, trx));
    // The same code deleted by two requests at once: one deletes it, the other finds it gone.
    expect((await Promise.all([remove('qr_t5'), remove('qr_t5')])).sort()).toEqual([false, true]);
    // A change of the code's tags racing its delete: either it lands first and the delete
    // takes the new tag's counts off too, or it finds the code gone (and fails, as the API's 404).
    const retag = inTransaction(testDb.db, async (trx) => {
      await p.codes.update(ACCOUNT, 'qr_t6', { name: 'renamed', updatedAt: new Date() }, trx);
      await p.tagging.set(ACCOUNT, [{ codeId: 'qr_t6', names: ['kept', 'added'] }], trx);
    });
    await Promise.allSettled([retag, remove('qr_t6')]);
    const range = { from: '2026-04-10', to: '2026-04-25', include_bots: 'true' };
    for (const tag of ['kept', 'added']) {
      const q = parseInput(overviewQuerySchema, { ...range, tag });
      expect(await p.rollups.overview(principal, q)).toEqual(await p.raw.overview(principal, q));
    }
    const kept = await p.rollups.overview(principal, parseInput(overviewQuerySchema, { ...range, tag: 'kept' }));
    expect(kept.total_scans).toBe(200);
  });
});

describe('deleting a tag while scans of its codes are written', () => {
  it('waits for the batches in flight; neither fails, and the tag leaves no rows', async () => {
    const p = parts();
    const codes = ['qr_t8', 'qr_t9'];
    await insertCodeRows(testDb.db, ACCOUNT, codes);
    await setTags(
      p,
      codes.map((codeId) => ({ codeId, names: ['doomed'] })),
    );
    const tagId = (await p.tagging.idOf(ACCOUNT, 'doomed'))!;
    const tags = createTagsService({
      db: testDb.db,
      tags: createTagsStore(testDb.db),
      maxPerAccount: 1000,
      lockCodes,
      audit: createAuditService({ store: createAuditStore(testDb.db) }).record,
    });
    const events = randomEvents(1000, 12, START + 60 * DAY).map((e, i) => ({ ...e, codeId: codes[i % 2]! }));
    // One writer, a batch at a time (as the recorder commits), while the tag is deleted.
    const writes = (async () => {
      for (let i = 0; i < 5; i++) await p.commit(events.slice(i * 200, (i + 1) * 200), `doomed-${i}`);
    })();
    const results = await Promise.allSettled([writes, tags.remove(principal, tagId)]);
    expect(results.filter((r) => r.status === 'rejected')).toEqual([]);
    expect(await testDb.db('tag_rollups').where('tag_id', tagId).count({ n: '*' }).first()).toMatchObject({ n: 0 });
  });
});
