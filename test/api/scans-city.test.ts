// Region and city of scans from a city database (GEOIP_CITY_DB, issue 19), over real HTTP: a
// tiny MMDB written for the test (support/mmdb.ts) and read by the service's own reader. Scans
// from its documentation ranges show up in both breakdown endpoints (from rollups), GraphQL, the
// raw export and the scan webhook payload; without GEOIP_CITY_DB nothing of them is written.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPurgeStore } from '../../src/modules/scans/purge-store.ts';
import { getTestApp, type TestApp } from '../support/app.ts';
import { createCode } from '../support/factories.ts';
import { writeTestCityDb } from '../support/mmdb.ts';
import { rollQueuedBreakdowns } from '../support/scans.ts';

const DAY = new Date().toISOString().slice(0, 10);
const RANGE = `from=${DAY}&to=${DAY}`;

let app: TestApp;
let key: string;
let code: { id: string; scan_url: string };

const IPHONE =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 ' +
  'Mobile/15E148 Safari/604.1';

const scanFrom = (target: { scan_url: string }, ip: string, testApp = app) =>
  testApp.request('GET', new URL(target.scan_url).pathname, {
    headers: { 'x-forwarded-for': ip, 'user-agent': IPHONE },
  });

beforeAll(async () => {
  app = await getTestApp({ TRUSTED_PROXIES: '127.0.0.1', GEOIP_CITY_DB: writeTestCityDb() });
  key = await app.newAccountKey();
  code = await createCode(app, key);
  // 3 in San Jose, 2 in Munich, 1 in Singapore (no region), 1 placed by country only, 1 unknown.
  for (const ip of ['192.0.2.1', '192.0.2.2', '192.0.2.3', '198.51.100.4', '198.51.100.5', '198.51.100.200']) {
    expect((await scanFrom(code, ip)).status).toBe(302);
  }
  await scanFrom(code, '203.0.113.7');
  await scanFrom(code, '10.9.9.9');
  await app.services.scans.recorder.flush();
});
afterAll(() => app.close());

const REGIONS = [
  { value: 'US/California', scans: 3 },
  { value: 'DE/Bavaria', scans: 2 },
];
const CITIES = [
  { value: 'US/California/San Jose', scans: 3 },
  { value: 'DE/Bavaria/Munich', scans: 2 },
  { value: 'SG//Singapore', scans: 1 },
];

describe('with GEOIP_CITY_DB', () => {
  it('records region and city on the scan rows', async () => {
    const rows = await app.testDb.db('scans').where({ code_id: code.id }).orderBy('id').select('region', 'city');
    expect(rows).toEqual([
      ...Array(3).fill({ region: 'US/California', city: 'US/California/San Jose' }),
      ...Array(2).fill({ region: 'DE/Bavaria', city: 'DE/Bavaria/Munich' }),
      { region: null, city: 'SG//Singapore' },
      { region: null, city: null },
      { region: null, city: null },
    ]);
  });

  it("breaks the code's scans down by region and city, from the rollups, with no null entry", async () => {
    const res = await app.request('GET', `/v1/codes/${code.id}/scans?${RANGE}`, { key });
    expect(res.status).toBe(200);
    expect(res.body.breakdowns.region).toEqual(REGIONS);
    expect(res.body.breakdowns.city).toEqual(CITIES);
    await rollQueuedBreakdowns(app);
    const rollups = await app.testDb
      .db('scan_dimension_rollups')
      .where({ code_id: code.id })
      .whereIn('dimension', ['region', 'city'])
      .orderBy(['dimension', 'value'])
      .select('dimension', 'value', 'scans');
    expect(rollups.map((r) => [r.dimension, r.value, Number(r.scans)])).toEqual([
      ['city', 'DE/Bavaria/Munich', 2],
      ['city', 'SG//Singapore', 1],
      ['city', 'US/California/San Jose', 3],
      ['region', 'DE/Bavaria', 2],
      ['region', 'US/California', 3],
    ]);
  });

  it('breaks the account overview down by region and city', async () => {
    const res = await app.request('GET', `/v1/analytics/overview?${RANGE}`, { key });
    expect(res.status).toBe(200);
    expect(res.body.breakdowns.region).toEqual(REGIONS);
    expect(res.body.breakdowns.city).toEqual(CITIES);
    const rows = await app.testDb.db('account_scan_rollups').whereIn('dimension', ['region', 'city']).select('value');
    expect(rows.map((r) => r.value)).not.toContain('');
  });

  it('answers the same through GraphQL', async () => {
    const res = await app.graphql(
      key,
      `query($id: ID!, $from: String!, $to: String!) {
        code(id: $id) { scans(from: $from, to: $to) { breakdowns { region { value scans } city { value scans } } } }
        analyticsOverview(from: $from, to: $to) { breakdowns { region { value scans } city { value scans } } } }`,
      { id: code.id, from: DAY, to: DAY },
    );
    expect(res.body.errors).toBeUndefined();
    expect(res.body.data.code.scans.breakdowns).toEqual({ region: REGIONS, city: CITIES });
    expect(res.body.data.analyticsOverview.breakdowns).toEqual({ region: REGIONS, city: CITIES });
  });

  it('exports region and city in the raw records, JSON and CSV', async () => {
    const json = await app.request('GET', `/v1/codes/${code.id}/scans/raw?limit=100`, { key });
    expect(json.status).toBe(200);
    expect(json.body.data.map((s: { region: string | null; city: string | null }) => [s.region, s.city])).toEqual(
      expect.arrayContaining([
        ['US/California', 'US/California/San Jose'],
        ['DE/Bavaria', 'DE/Bavaria/Munich'],
        [null, 'SG//Singapore'],
        [null, null],
      ]),
    );
    const csv = await app.request('GET', `/v1/codes/${code.id}/scans/raw?format=csv`, { key });
    const lines = csv.text.trim().split(/\r?\n/);
    expect(lines[0]).toMatch(/,outcome,region,city$/);
    expect(lines.filter((l) => l.endsWith(',US/California,US/California/San Jose'))).toHaveLength(3);
    expect(lines.filter((l) => l.endsWith(',,SG//Singapore'))).toHaveLength(1);
  });
});

describe('scan.created', () => {
  it('carries region and city', async () => {
    const hooked = await createCode(app, key);
    const res = await app.request('POST', '/v1/webhooks', {
      key,
      body: { url: 'https://hooks.example.com/scans', events: ['scan.created'], code_ids: [hooked.id] },
    });
    expect(res.status).toBe(201);
    await scanFrom(hooked, '198.51.100.9');
    await app.services.scans.recorder.flush();
    const events = await app.testDb.db('webhook_events').where({ type: 'scan.created' }).select('payload');
    expect(events).toHaveLength(1);
    expect(JSON.parse(events[0].payload)).toMatchObject({
      code_id: hooked.id,
      region: 'DE/Bavaria',
      city: 'DE/Bavaria/Munich',
    });
  });
});

describe('a deleted code', () => {
  it('leaves the overview at once, and its purge takes its region and city rollup rows with it', async () => {
    const own = await getTestApp({ TRUSTED_PROXIES: '127.0.0.1', GEOIP_CITY_DB: writeTestCityDb() });
    try {
      const ownKey = await own.newAccountKey();
      const [kept, gone] = [await createCode(own, ownKey), await createCode(own, ownKey)];
      await scanFrom(kept, '192.0.2.1', own);
      for (const ip of ['198.51.100.1', '198.51.100.2', '192.0.2.2']) await scanFrom(gone, ip, own);
      await own.services.scans.recorder.flush();
      const overview = async () =>
        (await own.request('GET', `/v1/analytics/overview?${RANGE}`, { key: ownKey })).body.breakdowns;
      // Ties by value.
      expect((await overview()).region).toEqual([
        { value: 'DE/Bavaria', scans: 2 },
        { value: 'US/California', scans: 2 },
      ]);
      expect((await own.request('DELETE', `/v1/codes/${gone.id}`, { key: ownKey })).status).toBe(204);
      const only = {
        region: [{ value: 'US/California', scans: 1 }],
        city: [{ value: 'US/California/San Jose', scans: 1 }],
      };
      expect(await overview()).toMatchObject(only);
      const store = createPurgeStore(own.testDb.db);
      while ((await store.purgeRawBatch(gone.id, 2)) > 0);
      expect(await overview()).toMatchObject(only);
      const left = await own.testDb.db('account_scan_rollups').whereIn('dimension', ['region', 'city']).select('value');
      expect(left.map((r) => r.value).sort()).toEqual(['US/California', 'US/California/San Jose']);
    } finally {
      await own.close();
    }
  });
});

describe('without GEOIP_CITY_DB', () => {
  it('records no region or city and writes no rollup rows for them', async () => {
    const own = await getTestApp({ TRUSTED_PROXIES: '127.0.0.1' });
    try {
      const ownKey = await own.newAccountKey();
      const ownCode = await createCode(own, ownKey);
      for (const ip of ['192.0.2.1', '198.51.100.4']) expect((await scanFrom(ownCode, ip, own)).status).toBe(302);
      await own.services.scans.recorder.flush();
      await rollQueuedBreakdowns(own);
      const rows = await own.testDb.db('scans').where({ code_id: ownCode.id }).select('region', 'city');
      expect(rows).toEqual([
        { region: null, city: null },
        { region: null, city: null },
      ]);
      for (const table of ['scan_dimension_rollups', 'account_scan_rollups'])
        expect(await own.testDb.db(table).whereIn('dimension', ['region', 'city']).count({ n: '*' })).toEqual([
          { n: 0 },
        ]);
      // The other breakdowns are written as before: both scans have a country row (known or not).
      const countries = await own.testDb
        .db('scan_dimension_rollups')
        .where({ code_id: ownCode.id, dimension: 'country' })
        .select('value', 'scans');
      expect(countries.reduce((sum, r) => sum + Number(r.scans), 0)).toBe(2);
      const res = await own.request('GET', `/v1/codes/${ownCode.id}/scans?${RANGE}`, { key: ownKey });
      expect(res.body.breakdowns.region).toEqual([]);
      expect(res.body.breakdowns.city).toEqual([]);
      const overview = await own.request('GET', `/v1/analytics/overview?${RANGE}`, { key: ownKey });
      expect(overview.body.breakdowns.region).toEqual([]);
      expect(overview.body.breakdowns.city).toEqual([]);
    } finally {
      await own.close();
    }
  });
});
