// POST /v1/imports: each export format read, dry run and real run reported row by row, a second
// run creating nothing, the account's own domains and codes only.
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getTestApp, type TestApp } from '../support/app.ts';
import { getWithHost } from '../support/dns.ts';
import { countCodes } from '../support/factories.ts';

const fixture = (name: string) => readFileSync(new URL(`../fixtures/imports/${name}`, import.meta.url), 'utf8');

let app: TestApp;
let key: string;

async function addVerifiedDomain(apiKey: string, hostname: string): Promise<void> {
  const added = await app.request('POST', '/v1/domains', { key: apiKey, body: { hostname } });
  expect(added.status, added.text).toBe(201);
  await app.services.domains.verifyByOperator(hostname);
}

const importFile = (apiKey: string, format: string, file: string, extra: Record<string, unknown> = {}) =>
  app.request('POST', '/v1/imports', { key: apiKey, body: { format, content: fixture(file), ...extra } });

const statuses = (body: any) => body.rows.map((r: any) => [r.row, r.status]);

beforeAll(async () => {
  app = await getTestApp({ BULK_RATE_LIMIT_PER_MINUTE: '100' });
  key = await app.newAccountKey();
  await addVerifiedDomain(key, 'go.acme.test');
  await addVerifiedDomain(key, 's.acme.test');
});
afterAll(() => app.close());

/** The dry run, the real run and a second run of one export; answers the real run's body. */
async function importTwice(format: string, file: string, extra: Record<string, unknown> = {}) {
  const before = await countCodes(app, key);
  const dry = await importFile(key, format, file, { ...extra, dry_run: true });
  expect(dry.status, dry.text).toBe(200);
  expect(dry.body).toMatchObject({ object: 'import', format, dry_run: true, batch_id: null, created: 0 });
  expect(await countCodes(app, key)).toBe(before);

  const real = await importFile(key, format, file, extra);
  expect(real.status, real.text).toBe(201);
  expect(real.body.created).toBe(dry.body.would_create);
  expect(real.body.failed).toBe(dry.body.failed);
  // The real run does what the dry run said, row by row.
  expect(real.body.rows.map((r: any) => r.status)).toEqual(
    dry.body.rows.map((r: any) => (r.status === 'would_create' ? 'created' : r.status)),
  );
  expect(await countCodes(app, key)).toBe(before + real.body.created);

  const again = await importFile(key, format, file, extra);
  expect(again.status, again.text).toBe(200);
  expect(again.body).toMatchObject({
    created: 0,
    existing: real.body.created,
    failed: real.body.failed,
    batch_id: null,
  });
  // Each existing row names the code the first run made.
  const made = real.body.rows.filter((r: any) => r.status === 'created').map((r: any) => r.code_id);
  expect(again.body.rows.filter((r: any) => r.status === 'exists').map((r: any) => r.code_id)).toEqual(made);
  expect(await countCodes(app, key)).toBe(before + real.body.created);
  return real.body;
}

const codeOf = async (id: string) => (await app.request('GET', `/v1/codes/${id}`, { key })).body;
const reasonOf = (body: any, row: number) => body.rows.find((r: any) => r.row === row).reason;

describe('POST /v1/imports', () => {
  it('imports a Bitly CSV export: custom back-halves on the own domain, other hosts reported', async () => {
    const body = await importTwice('bitly_csv', 'bitly.csv');
    expect(statuses(body)).toEqual([
      [2, 'created'],
      [3, 'failed'],
      [4, 'created'],
      [5, 'failed'],
    ]);
    expect(reasonOf(body, 3)).toMatch(/its domain 'bit.ly' is not a verified domain of this account/);
    expect(reasonOf(body, 5)).toMatch(/^destination /);
    const spring = await codeOf(body.rows[0].code_id);
    expect(spring).toMatchObject({
      type: 'url',
      content: 'https://example.com/menu/spring?utm_source=poster',
      name: 'Spring menu',
      tags: ['menu', 'print'],
      domain: 'go.acme.test',
      scan_url: 'https://go.acme.test/spring-menu',
      imported_scans: 1204,
      created_at: '2024-03-05T14:22:10.000Z',
    });
    expect((await codeOf(body.rows[2].code_id)).imported_scans).toBe(1530);
    // Imported history is reported beside the scans recorded here, never in their totals.
    const analytics = await app.request('GET', `/v1/codes/${spring.id}/scans?from=2024-01-01&to=2024-12-31`, { key });
    expect(analytics.status, analytics.text).toBe(200);
    expect(analytics.body).toMatchObject({ total_scans: 0, unique_scans: 0, imported_scans: 1204 });
    const overview = await app.request('GET', '/v1/analytics/overview?from=2024-01-01&to=2024-12-31', { key });
    expect(overview.body.total_scans).toBe(0);
  });

  it('imports a Shlink CSV export: default-domain rows on their host, bad slugs reported', async () => {
    const body = await importTwice('shlink_csv', 'shlink.csv');
    expect(statuses(body)).toEqual([
      [2, 'created'],
      [3, 'created'],
      [4, 'failed'],
      [5, 'failed'],
    ]);
    expect(reasonOf(body, 4)).toBe('repeats the slug of row 3');
    expect(reasonOf(body, 5)).toMatch(/^slug must be 3-64 characters/);
    expect(await codeOf(body.rows[0].code_id)).toMatchObject({
      scan_url: 'https://s.acme.test/launch',
      name: 'Product launch',
      tags: ['launch', 'print'],
      imported_scans: 3021,
      created_at: '2024-01-15T09:12:00.000Z',
    });
  });

  it('imports Shlink’s REST list of short URLs', async () => {
    const body = await importTwice('shlink_json', 'shlink.json');
    expect(statuses(body)).toEqual([
      [1, 'created'],
      [2, 'created'],
      [3, 'failed'],
    ]);
    expect(reasonOf(body, 3)).toMatch(/'old.example.net' is not a verified domain/);
    expect(await codeOf(body.rows[0].code_id)).toMatchObject({
      scan_url: 'https://s.acme.test/summer-24',
      tags: ['print', 'summer'],
      imported_scans: 845,
    });
    expect(await codeOf(body.rows[1].code_id)).toMatchObject({ name: null, tags: [], imported_scans: 0 });
  });

  it('imports a YOURLS export onto the service’s own domain, reporting a bad date and a short keyword', async () => {
    const body = await importTwice('yourls_csv', 'yourls.csv');
    expect(statuses(body)).toEqual([
      [2, 'created'],
      [3, 'created'],
      [4, 'failed'],
      [5, 'failed'],
    ]);
    expect(reasonOf(body, 5)).toBe("timestamp 'not a date' is not a date");
    expect(await codeOf(body.rows[1].code_id)).toMatchObject({
      domain: null,
      scan_url: `${app.url}/wifi`,
      name: 'Guest Wi-Fi, lobby',
      imported_scans: 48,
      created_at: '2023-06-02T09:15:00.000Z',
    });
  });

  it('imports Kutt’s list of links, refusing a password-protected one', async () => {
    const body = await importTwice('kutt_json', 'kutt.json');
    expect(statuses(body)).toEqual([
      [1, 'created'],
      [2, 'failed'],
      [3, 'created'],
    ]);
    expect(reasonOf(body, 2)).toMatch(/password-protected/);
    expect(await codeOf(body.rows[2].code_id)).toMatchObject({
      scan_url: 'https://s.acme.test/Hx81k',
      name: 'Newsletter signup',
      created_at: '2024-07-09T16:45:00.000Z',
    });
  });

  it('puts every link on the domain it is given, and the scan goes to the destination', async () => {
    const own = await app.newAccountKey();
    await addVerifiedDomain(own, 'links.other.test');
    const res = await importFile(own, 'bitly_csv', 'bitly.csv', { domain: 'links.other.test' });
    expect(res.status, res.text).toBe(201);
    expect(res.body.rows.map((r: any) => [r.domain, r.slug, r.status])).toEqual([
      ['links.other.test', 'spring-menu', 'created'],
      ['links.other.test', '4kLmNop', 'created'],
      ['links.other.test', 'berlin-2024', 'created'],
      ['links.other.test', 'flyer', 'failed'],
    ]);
    const scan = await getWithHost(app.url, 'links.other.test', '/4kLmNop');
    expect(scan.status).toBe(302);
    expect(scan.location).toBe('https://example.com/jobs?ref=qr');
  });

  it('never touches or reveals another account’s codes and domains', async () => {
    const other = await app.newAccountKey();
    // The first account holds menu and wifi on the service's domain, and go.acme.test.
    const yourls = await importFile(other, 'yourls_csv', 'yourls.csv', { dry_run: true });
    expect(yourls.status).toBe(200);
    expect(statuses(yourls.body).slice(0, 2)).toEqual([
      [2, 'failed'],
      [3, 'failed'],
    ]);
    expect(reasonOf(yourls.body, 2)).toMatch(/slug 'menu' is taken/);
    expect(yourls.body.rows.every((r: any) => r.code_id === null)).toBe(true);
    const onTheirDomain = await importFile(other, 'kutt_json', 'kutt.json', { domain: 'go.acme.test' });
    expect(onTheirDomain.status).toBe(422);
    expect(onTheirDomain.body.errors).toEqual([
      { path: 'domain', message: 'is not a verified domain of this account' },
    ]);
    const kutt = await importFile(other, 'kutt_json', 'kutt.json');
    expect(kutt.status).toBe(200);
    expect(kutt.body.rows.map((r: any) => r.status)).toEqual(['failed', 'failed', 'failed']);
    expect(await countCodes(app, other)).toBe(0);
  });

  it('answers 422 problems for a bad body or a file that is not the format', async () => {
    const cases: [unknown, RegExp][] = [
      [{ format: 'dub_csv', content: 'a,b' }, /format/],
      [{ format: 'bitly_csv' }, /content/],
      [{ format: 'bitly_csv', content: 'x', dry_run: 'yes' }, /dry_run/],
      [{ format: 'bitly_csv', content: 'x', extra: 1 }, /extra/],
      [{ format: 'shlink_csv', content: fixture('bitly.csv') }, /shortCode/],
      [{ format: 'kutt_json', content: '[1,' }, /JSON cannot be read/],
      [{ format: 'yourls_csv', content: 'keyword,url\n' }, /holds no links/],
    ];
    for (const [body, expected] of cases) {
      const res = await app.request('POST', '/v1/imports', { key, body });
      expect(res.status, JSON.stringify(body)).toBe(422);
      expect(res.headers.get('content-type')).toMatch(/application\/problem\+json/);
      expect(JSON.stringify(res.body)).toMatch(expected);
    }
    const csv = await app.request('POST', '/v1/imports', {
      key,
      rawBody: fixture('yourls.csv'),
      headers: { 'content-type': 'text/csv' },
    });
    expect(csv.status).toBe(415);
  });

  it('imports through GraphQL’s importCodes too, onto the service’s own domain when domain is null', async () => {
    const own = await app.newAccountKey();
    const mutation = `mutation ($input: ImportCodesInput!) {
      importCodes(input: $input) {
        dryRun batchId total wouldCreate created existing failed
        rows { row status domain slug codeId reason }
      }
    }`;
    const input = { format: 'kutt_json', content: fixture('kutt.json'), domain: null };
    const dry = await app.graphql(own, mutation, { input: { ...input, dryRun: true } });
    expect(dry.body.errors).toBeUndefined();
    expect(dry.body.data.importCodes).toMatchObject({ dryRun: true, total: 3, wouldCreate: 2, failed: 1, created: 0 });
    const real = await app.graphql(own, mutation, { input });
    expect(real.body.data.importCodes).toMatchObject({
      created: 2,
      existing: 0,
      batchId: expect.stringMatching(/^batch_/),
    });
    expect(real.body.data.importCodes.rows[0]).toMatchObject({ status: 'created', domain: null, slug: 'handbook' });
    const again = await app.graphql(own, mutation, { input });
    expect(again.body.data.importCodes).toMatchObject({ created: 0, existing: 2 });
    const reader = await app.newAccountKey(undefined, { scopes: ['codes:read'] });
    const refused = await app.graphql(reader, mutation, { input });
    expect(refused.body.errors[0].extensions.code).toBe('FORBIDDEN');
  });

  it('answers 413 for more than 10,000 links, and cuts a long title by characters', async () => {
    const rows = Array.from({ length: 10_001 }, (_, i) => `big-${i},https://example.com/${i},,,,`);
    const big = await app.request('POST', '/v1/imports', {
      key,
      body: { format: 'yourls_csv', content: ['keyword,url,title,timestamp,ip,clicks', ...rows].join('\n') },
    });
    expect(big.status).toBe(413);
    expect(big.body.detail).toMatch(/at most 10000 links; this export has 10001/);
    const title = `${'a'.repeat(199)}🎉 and more`;
    const res = await app.request('POST', '/v1/imports', {
      key,
      body: { format: 'yourls_csv', content: `keyword,url,title\nlong-title,https://example.com/t,${title}\n` },
    });
    expect(res.status, res.text).toBe(201);
    expect((await codeOf(res.body.rows[0].code_id)).name).toBe(`${'a'.repeat(199)}🎉`);
  });

  it('counts each import, REST or GraphQL, as a bulk call', async () => {
    const limited = await getTestApp({ BULK_RATE_LIMIT_PER_MINUTE: '1' });
    try {
      const own = await limited.newAccountKey();
      const input = { format: 'yourls_csv', content: fixture('yourls.csv'), dryRun: true };
      const mutation = 'mutation ($input: ImportCodesInput!) { importCodes(input: $input) { total } }';
      expect((await limited.graphql(own, mutation, { input })).body.data.importCodes.total).toBe(4);
      const second = await limited.graphql(own, mutation, { input });
      expect(second.body.errors[0].extensions.code).toBe('RATE_LIMITED');
      const rest = await limited.request('POST', '/v1/imports', {
        key: own,
        body: { format: 'yourls_csv', content: fixture('yourls.csv'), dry_run: true },
      });
      expect(rest.status).toBe(429);
    } finally {
      await limited.close();
    }
  });

  it('needs codes:write', async () => {
    const reader = await app.newAccountKey(undefined, { scopes: ['codes:read'] });
    const res = await importFile(reader, 'yourls_csv', 'yourls.csv', { dry_run: true });
    expect(res.status).toBe(403);
  });
});
