// The real app on a real port, over a fresh test database. Requests go through fetch.
import { randomBytes } from 'node:crypto';
import { rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AddressInfo } from 'node:net';
import { buildRequestListener } from '../../src/app.ts';
import { loadConfig, type Config } from '../../src/config.ts';
import { createLogger } from '../../src/logger.ts';
import type { ResolveTxt } from '../../src/modules/domains/verification.ts';
import { createServices, type Services } from '../../src/services.ts';
import type { Scope } from '../../src/shared/principal.ts';
import { createTestDb, type TestDb } from './db.ts';
import { journalDirFor } from './journal.ts';

export interface TestResponse<T = any> {
  status: number;
  headers: Headers;
  body: T;
  text: string;
}

export interface RequestOptions {
  key?: string;
  body?: unknown;
  /** Sent as-is instead of JSON-encoding `body`. */
  rawBody?: string | Uint8Array<ArrayBuffer>;
  headers?: Record<string, string>;
}

export interface TestApp {
  url: string;
  config: Config;
  services: Services;
  testDb: TestDb;
  request<T = any>(method: string, path: string, options?: RequestOptions): Promise<TestResponse<T>>;
  graphql<T = any>(
    key: string | undefined,
    query: string,
    variables?: Record<string, unknown>,
  ): Promise<TestResponse<T>>;
  /** A new account with one API key (every scope unless `scopes` names some); returns the key. */
  newAccountKey(name?: string, options?: { scopes?: readonly Scope[] }): Promise<string>;
  close(): Promise<void>;
}

let accountCounter = 0;

/**
 * Domain verification's DNS lookups in tests, unless a test hands in its own: nothing is ever
 * looked up on the network, every name is missing.
 */
export const NO_DNS: ResolveTxt = async (name) => {
  throw Object.assign(new Error(`queryTxt ENOTFOUND ${name} (tests make no DNS lookups)`), { code: 'ENOTFOUND' });
};

/**
 * The app over a fresh, migrated database, or over `options.testDb` as it is (the upgrade test's).
 * PUBLIC_BASE_URL is the listener's address, unless `defaultBaseUrl`: then it is left unset, with
 * HOST and PORT the listener's, as on a default install.
 */
export async function getTestApp(
  env: Record<string, string> = {},
  options: {
    testDb?: TestDb;
    resolveTxt?: ResolveTxt;
    now?: () => number;
    defaultBaseUrl?: boolean;
    /** Journal scans as the server does (main.ts); a test app answers scans unjournaled otherwise. */
    journalScans?: boolean;
    /**
     * The host of `url` and PUBLIC_BASE_URL (the listener is on 127.0.0.1 either way): `localhost`
     * for passkeys, which browsers refuse on an IP address.
     */
    host?: 'localhost';
  } = {},
): Promise<TestApp> {
  const testDb = options.testDb ?? (await createTestDb());
  // Each app its own OAuth keys, as each its own database.
  const oauthKeysFile = join(tmpdir(), `qr-oauth-keys-${randomBytes(6).toString('hex')}.json`);
  const server: Server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const url = `http://${options.host ?? '127.0.0.1'}:${port}`;
  const config = loadConfig({
    ...process.env,
    NODE_ENV: 'test',
    LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'silent',
    DATABASE_URL: testDb.url,
    ...(options.defaultBaseUrl
      ? { HOST: '127.0.0.1', PORT: String(port), PUBLIC_BASE_URL: '' }
      : { PUBLIC_BASE_URL: url }),
    OAUTH_KEYS_FILE: oauthKeysFile,
    SCAN_JOURNAL_DIR: journalDirFor(testDb.url),
    ...env,
  });
  const logger = createLogger(config);
  const services = await createServices(testDb.db, config, logger, {
    resolveTxt: options.resolveTxt ?? NO_DNS,
    now: options.now,
    journalScans: options.journalScans,
  });
  server.on('request', buildRequestListener({ services, logger }));

  async function request<T>(method: string, path: string, options: RequestOptions = {}): Promise<TestResponse<T>> {
    const headers: Record<string, string> = { ...options.headers };
    if (options.key) headers.authorization = `Bearer ${options.key}`;
    let body: string | Uint8Array<ArrayBuffer> | undefined = options.rawBody;
    if (options.body !== undefined) {
      body = JSON.stringify(options.body);
      headers['content-type'] ??= 'application/json';
    }
    const response = await fetch(url + path, { method, headers, body, redirect: 'manual' });
    const text = await response.text();
    const type = response.headers.get('content-type') ?? '';
    return {
      status: response.status,
      headers: response.headers,
      body: type.includes('json') && text ? JSON.parse(text) : undefined,
      text,
    } as TestResponse<T>;
  }

  return {
    url,
    config,
    services,
    testDb,
    request,
    graphql: (key, query, variables) => request('POST', '/graphql', { key, body: { query, variables } }),
    async newAccountKey(name = `account-${process.pid}-${++accountCounter}`, options = {}) {
      return (await services.accounts.issueKey(name, options)).key;
    },
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await services.close();
      await testDb.destroy();
      rmSync(oauthKeysFile, { force: true });
    },
  };
}
