// Scans by weekday and hour in a time zone, over REST and GraphQL: whole-hour zones and a
// half-hour zone (all from the quarter-hour rollups, so a scan at 04:31 UTC is 10:01 in Kolkata
// and not in the 09:00 cell that its UTC hour would give), the hour repeated at the end of DST,
// bots, the account overview with a tag, and what is refused.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getTestApp, type TestApp } from '../support/app.ts';
import { createCode } from '../support/factories.ts';
import { recordScans } from '../support/scans.ts';

let app: TestApp;
let key: string;
let other: string;
let code: { id: string };
let second: { id: string };

// 2026-06-01 is a Monday; New York is UTC-4 then, Kolkata UTC+5:30.
const SCANS = [
  { at: '2026-06-01T03:45:00Z', visitor: 'a' }, // NY Sun 23:45; Kolkata Mon 09:15
  { at: '2026-06-01T04:15:00Z', visitor: 'b' }, // NY Mon 00:15; Kolkata Mon 09:45
  { at: '2026-06-01T04:29:00Z', visitor: 'c' }, // NY Mon 00:29; Kolkata Mon 09:59
  { at: '2026-06-01T04:31:00Z', visitor: 'd' }, // NY Mon 00:31; Kolkata Mon 10:01
  { at: '2026-06-06T18:00:00Z', visitor: 'e' }, // NY Sat 14:00; Kolkata Sat 23:30
  { at: '2026-06-06T18:10:00Z', visitor: 'f', bot: true }, // a crawler: left out unless asked
];

type Cell = { weekday: number; hour: number; scans: number };
/** The cells with scans, as "weekday/hour": scans. */
const nonZero = (cells: Cell[]) =>
  Object.fromEntries(cells.filter((c) => c.scans > 0).map((c) => [`${c.weekday}/${c.hour}`, c.scans]));

beforeAll(async () => {
  app = await getTestApp();
  key = await app.newAccountKey();
  other = await app.newAccountKey();
  code = await createCode(app, key, { content: 'https://example.com/week', tags: ['print'] });
  second = await createCode(app, key, { content: 'https://example.com/week-2' });
  await recordScans(app, key, code, SCANS);
  // Berlin's autumn change: 02:30 CEST and 02:30 CET on Sunday 25 October are both 02:xx.
  await recordScans(app, key, second, [
    { at: '2026-10-25T00:30:00Z', visitor: 'g' },
    { at: '2026-10-25T01:30:00Z', visitor: 'h' },
  ]);
});
afterAll(() => app.close());

const codeCells = (query: string, as = key, id = code.id) =>
  app.request('GET', `/v1/codes/${id}/scans/weekday-hours?${query}`, { key: as });

describe('weekday x hour cells', () => {
  it('has all 168 cells, Monday 00 first, counted in a whole-hour zone', async () => {
    const res = await codeCells('from=2026-05-31&to=2026-06-07&timezone=America/New_York');
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({
      code_id: code.id,
      timezone: 'America/New_York',
      include_bots: false,
      total_scans: 5,
    });
    expect(res.body.from).toBe('2026-05-31T00:00:00.000-04:00');
    expect(res.body.to).toBe('2026-06-08T00:00:00.000-04:00');
    expect(res.body.cells).toHaveLength(168);
    expect(res.body.cells.slice(0, 2)).toEqual([
      { weekday: 1, hour: 0, scans: 3 },
      { weekday: 1, hour: 1, scans: 0 },
    ]);
    expect(res.body.cells[167]).toMatchObject({ weekday: 7, hour: 23 });
    expect(nonZero(res.body.cells)).toEqual({ '7/23': 1, '1/0': 3, '6/14': 1 });
  });

  it('counts a half-hour zone exactly, from the quarter-hour rollups', async () => {
    const res = await codeCells('from=2026-05-31&to=2026-06-07&timezone=Asia/Kolkata');
    expect(res.status, res.text).toBe(200);
    expect(res.body.from).toBe('2026-05-31T00:00:00.000+05:30');
    expect(nonZero(res.body.cells)).toEqual({ '1/9': 3, '1/10': 1, '6/23': 1 });
  });

  it('counts bots when asked', async () => {
    const res = await codeCells('from=2026-05-31&to=2026-06-07&timezone=UTC&include_bots=true');
    expect(nonZero(res.body.cells)).toEqual({ '1/3': 1, '1/4': 3, '6/18': 2 });
    expect(res.body.total_scans).toBe(6);
  });

  it('counts the hour repeated at the end of DST twice into its cell', async () => {
    const res = await codeCells('from=2026-10-25&to=2026-10-25&timezone=Europe/Berlin', key, second.id);
    expect(res.status, res.text).toBe(200);
    expect(nonZero(res.body.cells)).toEqual({ '7/2': 2 });
  });

  it('sums the account, or the codes of a tag', async () => {
    const all = await app.request(
      'GET',
      '/v1/analytics/weekday-hours?from=2026-05-01&to=2026-10-31&timezone=Europe/Berlin',
      { key },
    );
    expect(all.status, all.text).toBe(200);
    expect(all.body.code_id).toBeUndefined();
    // Berlin is UTC+2 in June: the four Monday scans fall at 05:45 to 06:31.
    expect(nonZero(all.body.cells)).toEqual({ '1/5': 1, '1/6': 3, '6/20': 1, '7/2': 2 });
    const tagged = await app.request(
      'GET',
      '/v1/analytics/weekday-hours?from=2026-05-01&to=2026-10-31&timezone=Europe/Berlin&tag=print',
      { key },
    );
    expect(nonZero(tagged.body.cells)).toEqual({ '1/5': 1, '1/6': 3, '6/20': 1 });
  });

  it('gives GraphQL the same cells as REST, per code and for the account', async () => {
    const gql = await app.graphql(
      key,
      `query($id: ID!) {
        code(id: $id) {
          scanWeekdayHours(from: "2026-05-31", to: "2026-06-06", timezone: "Asia/Kolkata") {
            timezone totalScans cells { weekday hour scans }
          }
        }
        analyticsWeekdayHours(from: "2026-05-31", to: "2026-06-06", timezone: "Asia/Kolkata", includeBots: true) {
          from to includeBots totalScans cells { weekday hour scans }
        }
      }`,
      { id: code.id },
    );
    expect(gql.body.errors).toBeUndefined();
    const rest = await codeCells('from=2026-05-31&to=2026-06-06&timezone=Asia/Kolkata');
    expect(gql.body.data.code.scanWeekdayHours).toEqual({
      timezone: 'Asia/Kolkata',
      totalScans: rest.body.total_scans,
      cells: rest.body.cells,
    });
    const account = gql.body.data.analyticsWeekdayHours;
    expect(account).toMatchObject({ includeBots: true, totalScans: 6, from: '2026-05-31T00:00:00.000+05:30' });
    expect(nonZero(account.cells)).toEqual({ '1/9': 3, '1/10': 1, '6/23': 2 });
  });

  it('refuses a code of another account, a bad zone and series-only parameters', async () => {
    expect((await codeCells('timezone=UTC', other)).status).toBe(404);
    const zone = await codeCells('timezone=Mars/Olympus');
    expect(zone.status).toBe(422);
    expect(zone.text).toContain('IANA time zone');
    expect((await codeCells('granularity=hour')).status).toBe(422);
    const gql = await app.graphql(other, `query($id: ID!) { code(id: $id) { scanWeekdayHours { totalScans } } }`, {
      id: code.id,
    });
    expect(gql.body.data?.code ?? null).toBeNull();
  });
});
