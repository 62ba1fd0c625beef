// An upgrade from the oldest shipped schema: a database filled the way the first versions wrote
// it (accounts, a key, codes with routing rules, scans, a webhook endpoint), each kind of row
// written as soon as its table exists, then every later migration applied one by one. The
// service on the upgraded database must answer as it would have: the old key still has every
// scope, the code redirects by its rule, the scans count in analytics, the endpoint is listed.
import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrations } from '../../migrations/index.ts';
import { migrateUp } from '../../src/db/migrate.ts';
import { getTestApp, type TestApp } from '../support/app.ts';
import { createTestDb } from '../support/db.ts';
import { logoPng } from '../support/logo-server.ts';

const IPHONE =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 ' +
  'Mobile/15E148 Safari/604.1';
const ACCOUNT = 'acct_upgrade000000000001';
const CODE = 'qr_upgrade00000000000001';
const SLUG = 'UpGrAd1';
/** A key as the first versions issued and stored it: qrk_ + 40 base62, kept as its SHA-256 hex. */
const KEY = `qrk_${'Ab1'.repeat(13)}x`;
const DAY = Date.parse('2026-03-02T10:00:00Z');
const LOGO_BYTES = logoPng();
const LOGO = createHash('sha256').update(LOGO_BYTES).digest('hex');
const ORPHAN_LOGO = 'f'.repeat(64);

/** Rows written right after the named migration, with the columns its table had then. */
const FILL: Record<string, (db: import('knex').Knex) => Promise<void>> = {
  '20261122190400_create_routing_rules': async (db) => {
    await db('accounts').insert({ id: ACCOUNT, name: 'upgrade', created_at: DAY });
    await db('api_keys').insert({
      id: 'key_upgrade0000000000001',
      account_id: ACCOUNT,
      name: 'old',
      prefix: KEY.slice(0, 10),
      secret_hash: createHash('sha256').update(KEY).digest('hex'),
      created_at: DAY,
    });
    await db('slugs').insert({ slug: SLUG, created_at: DAY });
    await db('codes').insert({
      id: CODE,
      account_id: ACCOUNT,
      type: 'url',
      content: 'https://example.com/upgrade',
      design: JSON.stringify({ fg_color: '#112233' }),
      routing_enabled: true,
      slug: SLUG,
      created_at: DAY,
      updated_at: DAY,
    });
    await db('routing_rules').insert({
      id: 'rule_upgrade000000000001',
      code_id: CODE,
      priority: 0,
      position: 0,
      type: 'device',
      conditions: JSON.stringify({ devices: ['ios'] }),
      destination: 'https://example.com/ios',
      created_at: DAY,
    });
  },
  '20261122200000_create_scans': async (db) => {
    const scan = (minutes: number, country: string, device: string, visitor: string, isBot = false) => ({
      code_id: CODE,
      account_id: ACCOUNT,
      scanned_at: DAY + minutes * 60_000,
      rule_id: device === 'ios' ? 'rule_upgrade000000000001' : null,
      country,
      device,
      os: device === 'ios' ? 'iOS' : 'Windows',
      browser: 'Safari',
      referrer_host: null,
      language: 'en',
      is_bot: isBot,
      visitor_hash: visitor.padEnd(32, '0'),
    });
    await db('scans').insert([
      scan(0, 'US', 'ios', 'a'),
      scan(5, 'US', 'ios', 'a'),
      scan(9, 'DE', 'desktop', 'b'),
      scan(20, 'DE', 'desktop', 'c', true),
    ]);
  },
  '20261122201000_create_logos': async (db) => {
    for (const [id, bytes] of [
      [LOGO, LOGO_BYTES],
      [ORPHAN_LOGO, Buffer.from('orphan')],
    ] as const) {
      await db('logos').insert({
        id,
        content_type: 'image/png',
        width: 64,
        height: 64,
        data_base64: bytes.toString('base64'),
        created_at: DAY,
      });
    }
    await db('codes').where({ id: CODE }).update({ logo_id: LOGO });
  },
  '20261122220000_create_webhook_endpoints': async (db) => {
    await db('webhook_endpoints').insert({
      id: 'wh_upgrade00000000000001',
      account_id: ACCOUNT,
      url: 'https://hooks.example.com/upgrade',
      description: 'from before',
      events: JSON.stringify(['code.updated']),
      code_ids: null,
      secret: `whsec_${Buffer.alloc(24, 7).toString('base64')}`,
      enabled: true,
      created_at: DAY,
      updated_at: DAY,
    });
  },
  // Users from before email verification: one with a password, one single sign-on made (none).
  '20261215110000_create_workspace_sso': async (db) => {
    const user = (id: string, passwordHash: string | null) => ({
      id,
      email: `${id}@example.com`,
      email_lower: `${id}@example.com`,
      display_name: id,
      password_hash: passwordHash,
      created_at: DAY,
      updated_at: DAY,
    });
    await db('users').insert([
      user('user_upgrade_password', '$argon2id$v=19$m=19456,t=2,p=1$x$y'),
      user('user_upgrade_sso', null),
    ]);
  },
};

let app: TestApp;

beforeAll(async () => {
  const testDb = await createTestDb({ migrate: false });
  for (const name of Object.keys(migrations).sort()) {
    await migrateUp(testDb.db);
    await FILL[name]?.(testDb.db);
  }
  app = await getTestApp({}, { testDb });
});
afterAll(() => app?.close());

describe('upgrade from the oldest schema', () => {
  it('fills at every stage it names (a renamed migration must not skip its rows)', () => {
    expect(Object.keys(FILL).every((name) => name in migrations)).toBe(true);
  });

  it('keeps the key working with every scope (keys from before scopes could do everything)', async () => {
    expect((await app.request('GET', '/v1/api-keys', { key: KEY })).status).toBe(200);
    expect((await app.request('GET', '/v1/webhooks', { key: KEY })).status).toBe(200);
  });

  it('serves the code as it was, with its rule, and redirects by the rule', async () => {
    const res = await app.request('GET', `/v1/codes/${CODE}`, { key: KEY });
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({
      id: CODE,
      type: 'url',
      content: 'https://example.com/upgrade',
      design: { fg_color: '#112233' },
    });
    expect(new URL(res.body.scan_url).pathname).toBe(`/${SLUG}`);
    const routing = await app.request('GET', `/v1/codes/${CODE}/routing`, { key: KEY });
    expect(routing.body.rules).toEqual([
      expect.objectContaining({ type: 'device', destination: 'https://example.com/ios' }),
    ]);
    expect((await app.request('GET', `/${SLUG}`, { headers: { 'user-agent': IPHONE } })).headers.get('location')).toBe(
      'https://example.com/ios',
    );
    expect((await app.request('GET', `/${SLUG}`)).headers.get('location')).toBe('https://example.com/upgrade');
    expect((await app.request('GET', `/${SLUG.toLowerCase()}`)).status).toBe(404);
  });

  it('counts the old scans in the code analytics and the account overview', async () => {
    const code = await app.request('GET', `/v1/codes/${CODE}/scans?from=2026-03-01&to=2026-03-03`, { key: KEY });
    expect(code.status, code.text).toBe(200);
    expect(code.body).toMatchObject({ total_scans: 3, unique_scans: 2 });
    expect(code.body.breakdowns.country).toEqual([
      { value: 'US', scans: 2 },
      { value: 'DE', scans: 1 },
    ]);
    const withBots = await app.request(
      'GET',
      `/v1/codes/${CODE}/scans?from=2026-03-01&to=2026-03-03&include_bots=true`,
      { key: KEY },
    );
    expect(withBots.body.total_scans).toBe(4);
    const overview = await app.request('GET', '/v1/analytics/overview?from=2026-03-01&to=2026-03-03', { key: KEY });
    expect(overview.body).toMatchObject({ total_scans: 3, unique_scans: 2, active_codes: 1, total_codes: 1 });
    expect(overview.body.breakdowns.device).toEqual([
      { value: 'ios', scans: 2 },
      { value: 'desktop', scans: 1 },
    ]);
  });

  it('charges the account for the logo its code uses, and collects the logo nobody used', async () => {
    expect(await app.testDb.db('account_logos').select('account_id', 'logo_id', 'bytes')).toEqual([
      { account_id: ACCOUNT, logo_id: LOGO, bytes: LOGO_BYTES.length },
    ]);
    await app.services.logos.collect(undefined, Date.now() + app.config.logoUnreferencedGraceMs + 1);
    expect((await app.testDb.db('logos').select('id')).map((row) => row.id)).toEqual([LOGO]);
    const png = await app.request('GET', `/v1/codes/${CODE}/image?format=png`, { key: KEY });
    expect(png.status).toBe(200);
  });

  it('starts users unverified, but those single sign-on made (verified when made)', async () => {
    const rows = await app.testDb
      .db('users')
      .whereIn('id', ['user_upgrade_password', 'user_upgrade_sso'])
      .orderBy('id');
    expect(rows.map((row) => [row.id, row.email_verified_at === null ? null : Number(row.email_verified_at)])).toEqual([
      ['user_upgrade_password', null],
      ['user_upgrade_sso', DAY],
    ]);
  });

  it('lists the webhook endpoint as it was', async () => {
    const res = await app.request('GET', '/v1/webhooks', { key: KEY });
    expect(res.body.data).toEqual([
      expect.objectContaining({
        id: 'wh_upgrade00000000000001',
        url: 'https://hooks.example.com/upgrade',
        events: ['code.updated'],
        enabled: true,
      }),
    ]);
  });
});
