// Stores and services against a real database, on SQLite and on MariaDB.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.ts';
import { isUniqueViolation } from '../../src/db/dialect.ts';
import { hashApiKey } from '../../src/shared/api-key.ts';
import { createLogger } from '../../src/logger.ts';
import { createServices, type Services } from '../../src/services.ts';
import { createTestDb, type TestDb } from '../support/db.ts';
import { SCOPES } from '../../src/shared/principal.ts';
import { parseCreateCode } from '../../src/modules/codes/schemas.ts';

let testDb: TestDb;
let services: Services;

beforeAll(async () => {
  testDb = await createTestDb();
  const config = loadConfig({ DATABASE_URL: testDb.url, PUBLIC_BASE_URL: 'http://qr.test', LOG_LEVEL: 'silent' });
  services = await createServices(testDb.db, config, createLogger(config));
});
afterAll(() => testDb.destroy());

describe('API keys', () => {
  it('stores only a hash of the key, and authenticates by it', async () => {
    const issued = await services.accounts.issueKey('store-test');
    expect(issued.key).toMatch(/^qrk_[0-9A-Za-z]{40}$/);
    const rows = await testDb.db('api_keys').where({ id: issued.keyId });
    expect(rows).toHaveLength(1);
    expect(JSON.stringify(rows[0])).not.toContain(issued.key.slice(4));
    expect(rows[0].secret_hash).toBe(hashApiKey(issued.key));
    expect(await services.accounts.authenticate(issued.key)).toEqual({
      accountId: issued.accountId,
      keyId: issued.keyId,
      scopes: new Set(SCOPES),
    });
    expect(
      await services.accounts.authenticate(issued.key.slice(0, -1) + (issued.key.endsWith('a') ? 'b' : 'a')),
    ).toBeNull();
  });

  it('adds keys to an existing account of the same name', async () => {
    const first = await services.accounts.issueKey('shared-name');
    const second = await services.accounts.issueKey('shared-name');
    expect(second.accountId).toBe(first.accountId);
    expect(second.key).not.toBe(first.key);
  });

  it('refuses revoked and expired keys', async () => {
    const revoked = await services.accounts.issueKey('revoked');
    await testDb.db('api_keys').where({ id: revoked.keyId }).update({ revoked_at: Date.now() });
    expect(await services.accounts.authenticate(revoked.key)).toBeNull();
    const expired = await services.accounts.issueKey('expired');
    await testDb
      .db('api_keys')
      .where({ id: expired.keyId })
      .update({ expires_at: Date.now() - 1000 });
    expect(await services.accounts.authenticate(expired.key)).toBeNull();
  });
});

describe('slugs', () => {
  it('keeps the slug of a deleted code reserved for good', async () => {
    const issued = await services.accounts.issueKey('slugs');
    const principal = { accountId: issued.accountId, keyId: issued.keyId, scopes: new Set(SCOPES) };
    const code = await services.codes.create(principal, parseCreateCode({ content: 'https://example.com' }));
    await services.codes.remove(principal, code.id);
    expect(await testDb.db('slugs').where({ slug: code.slug }).first()).toBeTruthy();
    const reservedAgain = await services.codes.create(principal, parseCreateCode({ content: 'https://example.com' }));
    expect(reservedAgain.slug).not.toBe(code.slug);
    await expect(testDb.db('slugs').insert({ slug: code.slug, created_at: Date.now() })).rejects.toSatisfy(
      isUniqueViolation,
    );
  });

  it('rolls the slug back with the code when the transaction fails', async () => {
    const before = await testDb.db('slugs').count({ n: '*' }).first();
    const issued = await services.accounts.issueKey('rollback');
    // An account id that does not exist makes the code insert fail after the slug insert.
    await expect(
      services.codes.create(
        { accountId: 'acct_missing', keyId: issued.keyId, scopes: new Set(SCOPES) },
        parseCreateCode({ content: 'https://example.com' }),
      ),
    ).rejects.toThrow();
    const after = await testDb.db('slugs').count({ n: '*' }).first();
    expect(Number(after!.n)).toBe(Number(before!.n));
  });
});

describe('isUniqueViolation', () => {
  it("recognises this engine's duplicate-key error and nothing else", async () => {
    await testDb.db('accounts').insert({ id: 'acct_dup', name: 'dup', created_at: 0 });
    const duplicate = await testDb
      .db('accounts')
      .insert({ id: 'acct_dup', name: 'dup', created_at: 0 })
      .catch((e) => e);
    expect(isUniqueViolation(duplicate)).toBe(true);
    const other = await testDb.db.raw('select * from no_such_table').catch((e) => e);
    expect(isUniqueViolation(other)).toBe(false);
  });
});
