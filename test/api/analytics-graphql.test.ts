// Analytics on GraphQL: the same answers as REST, per-code counts batched through DataLoader
// (a constant number of SQL queries however many codes), and account isolation.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getTestApp, type TestApp } from '../support/app.ts';
import { recordScans } from '../support/scans.ts';

let app: TestApp;
let key: string;
let other: string;
let codeIds: string[];

beforeAll(async () => {
  app = await getTestApp();
  key = await app.newAccountKey();
  other = await app.newAccountKey();
  const bulk = await app.request('POST', '/v1/codes/bulk', {
    key,
    body: { codes: Array.from({ length: 100 }, (_, i) => ({ type: 'url', content: `https://example.com/gql/${i}` })) },
  });
  codeIds = bulk.body.data.map((c: any) => c.id);
  // Code i gets i % 4 scans by one visitor on 1 May, and one more on 2 May for every tenth code.
  for (const [i, id] of codeIds.entries()) {
    const scans = Array.from({ length: i % 4 }, (_, n) => ({ at: `2026-05-01T0${n}:00:00Z`, visitor: 'a' }));
    if (i % 10 === 0) scans.push({ at: '2026-05-02T08:00:00Z', visitor: 'a' });
    if (scans.length > 0) await recordScans(app, key, { id }, scans);
  }
});
afterAll(() => app.close());

/** Runs fn and returns the SQL statements Knex sent meanwhile. */
async function sqlDuring(fn: () => Promise<unknown>): Promise<string[]> {
  const seen: string[] = [];
  const listener = (q: { sql: string }) => seen.push(q.sql);
  app.testDb.db.on('query', listener);
  try {
    await fn();
  } finally {
    app.testDb.db.off('query', listener);
  }
  return seen;
}

const LIST =
  `query($first: Int!) { codes(first: $first, sort: CREATED_AT_ASC) { edges { node { id scanCount(from: ` +
  `"2026-05-01T00:00:00Z", to: "2026-05-03T00:00:00Z") uniqueScanCount(from: "2026-05-01T00:00:00Z", to: ` +
  `"2026-05-03T00:00:00Z") all: scanCount } } } }`;

describe('Code.scanCount through DataLoader', () => {
  it('answers each code its count', async () => {
    const res = await app.graphql(key, LIST, { first: 100 });
    expect(res.body.errors).toBeUndefined();
    const nodes = res.body.data.codes.edges.map((e: any) => e.node);
    expect(nodes).toHaveLength(100);
    for (const node of nodes) {
      const i = codeIds.indexOf(node.id);
      const extra = i % 10 === 0 ? 1 : 0;
      expect(node).toMatchObject({
        scanCount: (i % 4) + extra,
        uniqueScanCount: (i % 4 > 0 ? 1 : 0) + extra,
        all: (i % 4) + extra,
      });
    }
  });

  it('runs one grouped count query per distinct window, for 10 codes or 100', async () => {
    const analyticsSql = (sql: string[]) =>
      sql.filter((s) => /scan_rollups|code_daily_rollups|`scans`|"scans"/.test(s));
    const ten = analyticsSql(await sqlDuring(() => app.graphql(key, LIST, { first: 10 })));
    const hundred = analyticsSql(await sqlDuring(() => app.graphql(key, LIST, { first: 100 })));
    // Two windows in the query (the May range and all time): two queries, whatever the page size.
    expect(ten).toHaveLength(2);
    expect(hundred).toHaveLength(2);
    expect(hundred.every((s) => /group by/i.test(s) && /\bin\s*\(/i.test(s))).toBe(true);
  });
});

describe('Code.scans and analyticsOverview', () => {
  it('give the same numbers as REST', async () => {
    const id = codeIds[10]!;
    const gql = await app.graphql(
      key,
      `query($id: ID!) {
        code(id: $id) {
          scans(from: "2026-05-01", to: "2026-05-02", timezone: "Europe/Berlin") {
            totalScans uniqueScans timeseries { period scans uniqueScans } breakdowns { rule { value scans } }
          }
        }
        analyticsOverview(from: "2026-05-01", to: "2026-05-02", top: 3) {
          totalScans uniqueScans activeCodes totalCodes topCodes { id scans } trend { scans }
          previousPeriod { totalScans changePct }
          breakdowns {
            country { value scans } region { value scans } city { value scans } device { value scans }
            os { value scans } browser { value scans } referrer { value scans }
          }
        }
      }`,
      { id },
    );
    expect(gql.body.errors).toBeUndefined();
    const rest = await app.request(
      'GET',
      `/v1/codes/${id}/scans?from=2026-05-01&to=2026-05-02&timezone=Europe/Berlin`,
      { key },
    );
    const scans = gql.body.data.code.scans;
    expect(scans.totalScans).toBe(rest.body.total_scans);
    expect(scans.timeseries).toEqual(
      rest.body.timeseries.map((p: any) => ({ period: p.period, scans: p.scans, uniqueScans: p.unique_scans })),
    );
    expect(scans.breakdowns.rule).toEqual([{ value: 'default', scans: 3 }]);

    const overview = await app.request('GET', '/v1/analytics/overview?from=2026-05-01&to=2026-05-02&top=3', { key });
    const o = gql.body.data.analyticsOverview;
    expect(o).toMatchObject({
      totalScans: overview.body.total_scans,
      uniqueScans: overview.body.unique_scans,
      activeCodes: 80,
      totalCodes: 100,
    });
    // One visitor scanned on two UTC days: two account-wide uniques, however many codes.
    expect(o).toMatchObject({ totalScans: 150 + 10, uniqueScans: 2 });
    expect(o.topCodes.map((c: any) => c.scans)).toEqual([3, 3, 3]);
    expect(o.breakdowns).toEqual(overview.body.breakdowns);
    expect(o.breakdowns.os).toEqual([{ value: 'iOS', scans: 160 }]);
    expect(o.breakdowns.referrer).toEqual([{ value: null, scans: 160 }]);
  });

  it('never shows another account anything', async () => {
    const res = await app.graphql(
      other,
      `query($id: ID!) { code(id: $id) { id scanCount } analyticsOverview(from: "2026-05-01", to: "2026-05-02") { ` +
        `totalScans activeCodes topCodes { id } } }`,
      {
        id: codeIds[1],
      },
    );
    expect(res.body.data.code).toBeNull();
    expect(res.body.data.analyticsOverview).toEqual({ totalScans: 0, activeCodes: 0, topCodes: [] });
  });

  it('reports bad arguments as validation errors', async () => {
    const res = await app.graphql(key, `{ analyticsOverview(timezone: "Nowhere/Land") { totalScans } }`);
    expect(res.body.errors[0].extensions.code).toBe('VALIDATION_FAILED');
  });
});
