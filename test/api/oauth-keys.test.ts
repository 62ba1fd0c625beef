// The OAuth keys live in OAUTH_KEYS_FILE (mode 0600), not in the database: read access to the
// database mints no token. Keys an earlier version kept in the database move to the file once,
// keeping its tokens valid; several keys rotate without ending live tokens; a bad file stops
// the start with every problem named.
import { mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { decodeProtectedHeader, type JWK } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.ts';
import { createLogger } from '../../src/logger.ts';
import { newCookieKey, newSigningKey, readKeysFile } from '../../src/modules/oauth/keys.ts';
import { createServices, type Services } from '../../src/services.ts';
import { getTestApp, type TestApp } from '../support/app.ts';
import { basic, postForm } from '../support/oauth.ts';

let app: TestApp;
let developer: string;
const dir = mkdtempSync(join(tmpdir(), 'qr-oauth-keys-'));

beforeAll(async () => {
  app = await getTestApp();
  developer = await app.newAccountKey('oauth-keys');
});
afterAll(() => app.close());

/** Services of a second process on the same database, with the given key file. */
async function otherProcess(keysFile: string): Promise<Services> {
  const config = loadConfig({
    DATABASE_URL: app.testDb.url,
    PUBLIC_BASE_URL: app.url,
    LOG_LEVEL: 'silent',
    WEBHOOK_WORKER: 'false',
    OAUTH_KEYS_FILE: keysFile,
  });
  return createServices(app.testDb.db, config, createLogger(config));
}

async function clientCredentialsToken(): Promise<string> {
  const client = await app.request('POST', '/v1/oauth-clients', {
    key: developer,
    body: { name: 'job', scopes: ['codes:read'], grant_types: ['client_credentials'] },
  });
  const issued = await postForm(
    `${app.url}/oauth/token`,
    { grant_type: 'client_credentials', scope: 'codes:read' },
    { authorization: basic(client.body.client_id, client.body.client_secret) },
  );
  expect(issued.status, issued.text).toBe(200);
  return issued.body.access_token;
}

describe('OAuth keys', () => {
  it('are written to the key file (mode 0600), none to the database, and published without private parts', async () => {
    const keys = readKeysFile(app.config.oauthKeysFile);
    expect(statSync(app.config.oauthKeysFile).mode & 0o777).toBe(0o600);
    expect(keys.signing[0]).toMatchObject({ kty: 'EC', crv: 'P-256', d: expect.any(String) });
    expect(await app.testDb.db('oauth_secrets').select()).toEqual([]);
    const jwks = (await app.request('GET', '/oauth/jwks')).body;
    expect(jwks.keys.map((k: JWK) => k.kid)).toEqual(keys.signing.map((k) => k.kid));
    expect(JSON.stringify(jwks)).not.toContain('"d"');
  });

  it('a process with other keys rejects the tokens: the database alone cannot mint or verify them', async () => {
    const bearer = await clientCredentialsToken();
    const other = await otherProcess(join(dir, 'other.json'));
    try {
      expect(await other.oauth.authenticate(bearer)).toBeNull();
    } finally {
      await other.close();
    }
  });

  it('rotates: a new first key signs, tokens of the old key keep working', async () => {
    const bearer = await clientCredentialsToken();
    const old = readKeysFile(app.config.oauthKeysFile);
    const rotatedFile = join(dir, 'rotated.json');
    const fresh = newSigningKey();
    writeFileSync(
      rotatedFile,
      JSON.stringify({ signing: [fresh, ...old.signing], cookies: [newCookieKey(), ...old.cookies] }),
      { mode: 0o600 },
    );
    const rotated = await otherProcess(rotatedFile);
    try {
      expect((await rotated.oauth.authenticate(bearer))?.scopes.has('codes:read')).toBe(true);
      expect(decodeProtectedHeader(bearer).kid).toBe(old.signing[0]!.kid);
    } finally {
      await rotated.close();
    }
  });

  it('moves the keys of an earlier version out of the database, keeping its tokens valid', async () => {
    const bearer = await clientCredentialsToken();
    // As an earlier version kept them: the signing key and the cookie key in oauth_secrets.
    const current = readKeysFile(app.config.oauthKeysFile);
    await app.testDb.db('oauth_secrets').insert([
      { id: 'oauth-signing-key-1', value: JSON.stringify(current.signing[0]), created_at: Date.now() },
      { id: 'oauth-cookie-key-1', value: current.cookies[0], created_at: Date.now() },
    ]);
    const upgradedFile = join(dir, 'upgraded.json');
    const upgraded = await otherProcess(upgradedFile);
    try {
      expect((await upgraded.oauth.authenticate(bearer))?.keyId).toMatch(/^client_/);
      expect(readKeysFile(upgradedFile).signing[0]!.kid).toBe(current.signing[0]!.kid);
      expect(await app.testDb.db('oauth_secrets').select()).toEqual([]);
    } finally {
      await upgraded.close();
    }
  });

  it('refuses to start on a bad key file, naming every problem', async () => {
    const bad = join(dir, 'bad.json');
    const { d: _private, ...publicOnly } = newSigningKey();
    writeFileSync(bad, JSON.stringify({ signing: [publicOnly], cookies: ['short'] }));
    await expect(otherProcess(bad)).rejects.toThrow(
      /signing\.0\.d: must be a private key[\s\S]*cookies\.0: a cookie key has at least 32 characters/,
    );
    writeFileSync(bad, '{ not json');
    await expect(otherProcess(bad)).rejects.toThrow(/is not readable JSON/);
    expect(readFileSync(bad, 'utf8')).toBe('{ not json');
  });
});
