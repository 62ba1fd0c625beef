// Wires stores into services. Both transports (and the scan route) share one Services object.
import type { IncomingHttpHeaders } from 'node:http';
import type { Knex } from 'knex';
import type { Logger } from 'pino';
import type { Config } from './config.ts';
import { isWriteConflict } from './db/dialect.ts';
import { createSidePool, isSqlite } from './db/knex.ts';
import { createAnalyticsReader } from './db/analytics-reader.ts';
import { inTransaction } from './db/transaction.ts';
import { createAccountsService } from './modules/accounts/index.ts';
import { createAuditPurge, createAuditService, createAuditStore } from './modules/audit/index.ts';
import { createRawScansService } from './modules/analytics/index.ts';
import { createAnalyticsService } from './modules/analytics/index.ts';
import { createAccountsStore } from './modules/accounts/index.ts';
import { createBatchesService } from './modules/batches/index.ts';
import { createBulkService } from './modules/bulk/index.ts';
import { createImportsService } from './modules/imports/index.ts';
import type { ChangedCode } from './modules/codes/index.ts';
import { createIdempotency } from './modules/idempotency/index.ts';
import { createIdempotencyStore } from './modules/idempotency/index.ts';
import { createCodesService } from './modules/codes/index.ts';
import { createCodesStore, createOwnedCodeIds, lockCodes } from './modules/codes/index.ts';
import { createDomainsService } from './modules/domains/index.ts';
import { createDomainsStore } from './modules/domains/index.ts';
import { createUtmTemplatesService, createUtmTemplatesStore } from './modules/utm-templates/index.ts';
import { systemResolveTxt, type ResolveTxt } from './modules/domains/index.ts';
import { createVerifiedHosts } from './modules/domains/index.ts';
import { createLogoStore } from './modules/images/index.ts';
import { createLogos } from './modules/images/index.ts';
import { createRenderPool } from './modules/images/index.ts';
import { createCodeImageCheck } from './modules/images/index.ts';
import { createImagesService } from './modules/images/index.ts';
import { createUploads, createUploadStore } from './modules/images/index.ts';
import { createRoutingService } from './modules/routing/index.ts';
import { createRoutingStore } from './modules/routing/index.ts';
import { createTagsService } from './modules/tags/index.ts';
import { createTagsStore } from './modules/tags/index.ts';
import { createCodeTagging } from './modules/tags/index.ts';
import { bundledGeoipDbPath, createAddressHasher, createClientInfo } from './modules/scans/index.ts';
import { createScanRecorder, openScanJournal } from './modules/scans/index.ts';
import { createRollupSource } from './modules/scans/index.ts';
import { createRollupStore } from './modules/scans/index.ts';
import { createScanPurge, LATE_SCANS_MS } from './modules/scans/index.ts';
import { createPurgeStore, type PurgeStore } from './modules/scans/index.ts';
import { createScanLimits, createScanUseStore } from './modules/scans/index.ts';
import { createRawSource } from './modules/scans/index.ts';
import { simulatedVisitorOf } from './modules/scans/index.ts';
import { createScansStore, createTagHistoryMover } from './modules/scans/index.ts';
import { createLockedViewsStore, createTargetCache, splitTargetKey, targetKey } from './modules/scans/index.ts';
import { createConsentService } from './modules/oauth/index.ts';
import { createOAuth } from './modules/oauth/index.ts';
import { createWebhooks } from './modules/webhooks/index.ts';
import {
  createEmailVerification,
  createPasswordResets,
  createSecondFactor,
  createSecondFactorStore,
  createPasskeys,
  createPasskeyStore,
  relyingPartyOf,
  createUsersService,
  createUsersStore,
} from './modules/users/index.ts';
import {
  createInvitations,
  createInvitationsStore,
  createMembershipsStore,
  createSetup,
  createSso,
  createWorkspacePrincipals,
  createWorkspacesService,
} from './modules/workspaces/index.ts';
import { createMailer } from './shared/mailer.ts';
import type { SessionEdge } from './http/auth.ts';
import { sessionCookie } from './http/session-cookie.ts';
import { createInvalidationBus } from './shared/invalidation.ts';
import { createMetrics } from './shared/metrics.ts';
import { createRateLimits } from './shared/rate-limiter.ts';
import { createAccountGate, gateEach } from './shared/account-gate.ts';
import { createScanCommit, startScanWriterThread } from './scan-writer/compose.ts';
import { createRunLock } from './shared/run-lock.ts';
import { pingDatabase, type Queryable } from './db/transaction.ts';

/** What the invalidation bus carries: the key of the cache entry other processes drop. */
const TOPIC = {
  slug: 'code-slug',
  code: 'code-id',
  apiKey: 'api-key',
  oauthClient: 'oauth-client',
  oauthGrant: 'oauth-grant',
  domains: 'domains',
  userSessions: 'user-sessions',
  memberships: 'memberships',
} as const;

/** What analytics subtract of deleted codes still being purged. */
const purgingOf = (store: PurgeStore) => ({
  any: store.hasPending,
  buckets: store.pendingBuckets,
  weekHours: store.pendingWeekHours,
  values: store.pendingValues,
});

/** What tests (and only they) replace. */
export interface ServicesOptions {
  /** DNS TXT lookups for domain verification; the system resolver unless given. */
  resolveTxt?: ResolveTxt;
  /** The clock of analytics' default ranges and of raw-scan retention and purges. */
  now?: () => number;
  /**
   * Journal scans in SCAN_JOURNAL_DIR and replay the journals of stopped processes: the server
   * only (main.ts). A CLI command answers no scan and must not claim a crashed server's journal.
   */
  journalScans?: boolean;
}

export async function createServices(db: Knex, config: Config, logger: Logger, options: ServicesOptions = {}) {
  // Changes made here reach the other processes' caches through Redis (REDIS_URL); without it
  // their TTLs alone bound how stale they are.
  const bus = createInvalidationBus({ redisUrl: config.redisUrl, logger });
  const routingStore = createRoutingStore(db);
  const tagsStore = createTagsStore(db);
  // Codes name their tags; the tags module (which owns their tables) does the SQL for them, and
  // the scans module moves a code's scan counts into and out of its tags' rollups as they change.
  const historyReader = createSidePool(db);
  const tagging = createCodeTagging(tagsStore, config.tagsPerAccount, createTagHistoryMover(db, historyReader));
  // The scan route's database work (its cache misses, max_scans claims) runs on a pool of its own
  // (on MySQL), so that a scan never waits for a connection behind API calls holding the main pool's.
  const scanPool = createSidePool(db, 4);
  // max_scans: the scan path claims each use in the shared database (scan-limits.ts); API answers
  // read the same counts.
  const rollupStore = createRollupStore(db);
  const limits = createScanLimits({
    store: createScanUseStore(scanPool),
    redirectsOf: (ids, q = scanPool) => rollupStore.limitedScans(ids, q),
  });
  const codesStore = createCodesStore(db, routingStore, tagging, limits.usedOf);
  const scanCodes = createCodesStore(scanPool, routingStore, tagging, limits.usedOf);
  const scansStore = createScansStore(db);
  // Other modules ask the codes module which code ids an account owns: only its store reads `codes`.
  const ownedCodeIds = createOwnedCodeIds(db);
  const existingCodesOn = (q: Queryable) => ({ owned: createOwnedCodeIds(q) });
  const now = options.now ?? Date.now;
  // Raw-scan retention and deleted codes' purges (scans/purge.ts): one instance at a time with Redis.
  const purgeStore = createPurgeStore(db);
  const runLock = createRunLock(config.redisUrl);
  const scanPurge = createScanPurge({
    store: purgeStore,
    retentionDays: config.scanRawRetentionDays,
    lock: runLock,
    logger,
    batchSize: isSqlite(db) ? 500 : 2000,
    // Without Redis another instance may serve a deleted code from its cache for its TTL.
    lateScansMs: config.codeCacheTtlMs + LATE_SCANS_MS,
    now,
  });
  // The audit log: services record into it in their own transactions; retention on the purge's schedule.
  const auditStore = createAuditStore(db);
  const audit = createAuditService({ store: auditStore, now });
  const auditPurge = createAuditPurge({
    store: auditStore,
    retentionDays: config.auditRetentionDays,
    lock: runLock,
    logger,
    now,
  });
  const clientInfo = await createClientInfo({
    geoipDbPath: config.geoipDb ?? bundledGeoipDbPath(),
    proxies: { trustProxy: config.trustProxy, trustedProxies: config.trustedProxies },
    countryHeader: config.geoCountryHeader,
    cityDbPaths: config.geoipCityDb,
  });
  // The edge hashes the caller's address for the audit log as the scans hash visitors.
  const hashAddress = createAddressHasher(scansStore.saltForDay, now);
  const callerAddressHash = (headers: IncomingHttpHeaders, socketAddress: string | undefined) =>
    hashAddress(clientInfo.clientIp(headers, socketAddress));
  const metrics = createMetrics();
  // Before the recorder and the codes services: it writes their outbox rows.
  const webhooks = createWebhooks({
    db,
    config,
    logger,
    ownedCodeIds,
    onDeliveryOutcome: metrics.webhookDelivery,
    audit: audit.record,
  });
  const targets = createTargetCache({
    load: (key) => {
      const { slug, domain } = splitTargetKey(key);
      return scanCodes.findBySlug(slug, domain);
    },
    max: config.codeCacheSize,
    ttlMs: config.codeCacheTtlMs,
  });
  // SQLite has one writer at a time, on its one connection: a second pool would only wait for it.
  const writerThread =
    config.scanWriterThread && !isSqlite(db)
      ? startScanWriterThread({
          databaseUrl: config.databaseUrl,
          publicBaseUrl: config.publicBaseUrl,
          rawRows: config.scanRawRows,
        })
      : null;
  const journal =
    options.journalScans && config.scanJournalDir
      ? openScanJournal({
          dir: config.scanJournalDir,
          fsync: config.scanJournalFsync,
          logger,
          onWrite: metrics.scansJournaled,
        })
      : null;
  const recorder = createScanRecorder({
    journal,
    commit: writerThread?.commit ?? createScanCommit(db, config.publicBaseUrl, config.scanRawRows),
    logger,
    flushIntervalMs: config.scanFlushIntervalMs,
    batchSize: config.scanBatchSize,
    onRetry: (err) => metrics.scanBatchRetried(isWriteConflict(err) ? 'conflict' : 'other'),
    onCommitted: (batch, result) => {
      // A replayed scan stored before the crash was counted and streamed then.
      const stored = new Set(result.alreadyStored);
      const events = stored.size === 0 ? batch : batch.filter((e) => !stored.has(e.id!));
      metrics.scansRecorded(events.length);
      if (result.rollFailure) logger.warn({ err: result.rollFailure }, 'rolling queued breakdown counts failed; kept');
      webhooks.outbox.scansCommitted(events, result.webhooksQueued);
    },
  });
  metrics.watch({ scanBufferDepth: recorder.pending, db });
  const logos = createLogos(createLogoStore(db), {
    fetch: {
      allowPrivateNetwork: config.allowPrivateNetworkTargets,
      timeoutMs: config.logoFetchTimeoutMs,
      maxBytes: config.logoMaxBytes,
      maxRedirects: 3,
    },
    bytesPerAccount: config.logoBytesPerAccount,
    graceMs: config.logoUnreferencedGraceMs,
    logosInUse: codesStore.logosInUse,
    logger,
  });
  // Logos of accounts that store no new ones are collected here (the others on their next store).
  const logoCollector = setInterval(
    () => {
      logos.collect().catch((err: unknown) => logger.error({ err }, 'Logo collection failed'));
    },
    Math.min(Math.max(config.logoUnreferencedGraceMs, 60_000), 3_600_000),
  );
  logoCollector.unref();
  const uploads = createUploads(createUploadStore(db), { logos, imageUses: codesStore.imageUses });
  const renderPool = createRenderPool({ threads: config.renderWorkers, queuePerAccount: config.renderQueuePerAccount });
  const images = createImagesService({
    codes: codesStore,
    logos,
    pool: renderPool,
    publicBaseUrl: config.publicBaseUrl,
    cacheBytes: config.imageCacheBytes,
    inputsTtlMs: config.codeCacheTtlMs,
  });
  // Analytics read on threads of their own on SQLite (db/read-thread.ts): an overview from raw
  // scans may take seconds there, and on the main thread every scan would wait for it. On MySQL
  // a pool of their own. Either way each statement is bounded (db/analytics-reader.ts).
  const analyticsReader = createAnalyticsReader(db, config.analyticsStatementTimeoutMs);
  const rawSource = createRawSource(analyticsReader, ownedCodeIds);
  const oauth = await createOAuth({
    db,
    config,
    logger,
    hooks: {
      onClientDeleted: (id) => bus.publish(TOPIC.oauthClient, id),
      onGrantEnded: (id) => bus.publish(TOPIC.oauthGrant, id),
    },
    audit: audit.record,
  });
  // Called after the change committed: dropped here before the answer, elsewhere once told.
  const onCodeChanged = (code: ChangedCode) => {
    if (code.slug) {
      const key = targetKey(code.slug, code.domain);
      targets.invalidate(key);
      bus.publish(TOPIC.slug, key);
    }
    images.forget(code.id);
    bus.publish(TOPIC.code, code.id);
  };
  const accountsStore = createAccountsStore(db);
  const accounts = createAccountsService(db, accountsStore, {
    cacheTtlMs: config.apiKeyCacheTtlMs,
    onKeyRevoked: oauth.grants.keyRevoked,
    onKeyReplaced: oauth.grants.keyReplaced,
    onKeyChanged: (keyId) => bus.publish(TOPIC.apiKey, keyId),
    audit: audit.record,
  });
  // Accounts' own domains: the scan route keeps the verified ones in memory.
  const domainsStore = createDomainsStore(db);
  const verifiedHosts = await createVerifiedHosts({
    load: domainsStore.verifiedHosts,
    refreshMs: config.codeCacheTtlMs,
    logger,
  });
  const domains = createDomainsService({
    db,
    store: domainsStore,
    resolveTxt: options.resolveTxt ?? systemResolveTxt(),
    ownHostname: new URL(config.publicBaseUrl).hostname,
    maxPerAccount: config.domainsPerAccount,
    codesOnDomain: codesStore.countOnDomain,
    onDomainChanged: async () => {
      await verifiedHosts.reload();
      bus.publish(TOPIC.domains, '*');
    },
    audit: audit.record,
  });
  const { verifiedDomainOf } = domains;
  const utmTemplates = createUtmTemplatesService(createUtmTemplatesStore(db));
  const reloadHosts = () =>
    void verifiedHosts.reload().catch((err: unknown) => logger.error({ err }, 'Reading the verified domains failed'));
  bus.on(TOPIC.domains, { drop: reloadHosts, dropAll: reloadHosts });
  bus.on(TOPIC.slug, { drop: targets.invalidate, dropAll: targets.clear });
  bus.on(TOPIC.code, { drop: images.forget, dropAll: images.forgetAll });
  bus.on(TOPIC.apiKey, { drop: accounts.forgetKey, dropAll: accounts.forgetAllKeys });
  bus.on(TOPIC.oauthClient, { drop: oauth.service.forgetClient, dropAll: oauth.service.forgetAllClients });
  bus.on(TOPIC.oauthGrant, { drop: oauth.grants.forget, dropAll: oauth.grants.forgetAll });

  const rateLimits = createRateLimits({ config, logger });
  // People: users and their sessions, their memberships of workspaces (accounts), first-run setup.
  const usersStore = createUsersStore(db);
  const users = createUsersService({
    store: usersStore,
    signInLimit: rateLimits.signIn,
    idleDays: config.sessionIdleDays,
    absoluteDays: config.sessionAbsoluteDays,
    cacheTtlMs: config.sessionCacheTtlMs,
    onSessionsEnded: (userId) => bus.publish(TOPIC.userSessions, userId),
    now,
  });
  const memberships = createMembershipsStore(db);
  const principals = createWorkspacePrincipals({ memberships, cacheTtlMs: config.sessionCacheTtlMs, now });
  const workspaces = createWorkspacesService({
    db,
    memberships,
    accounts: accountsStore,
    users: usersStore,
    audit: audit.record,
    onMembershipChanged: (userId) => {
      principals.forgetUser(userId);
      bus.publish(TOPIC.memberships, userId);
    },
    keysOfMember: { revoke: accounts.revokeKeysCreatedBy, revoked: accounts.keysRevoked },
    now,
  });
  const secondFactor = createSecondFactor({
    db,
    store: createSecondFactorStore(db),
    users,
    issuer: new URL(config.publicBaseUrl).host,
    now,
  });
  const passkeys = createPasskeys({
    store: createPasskeyStore(db),
    users,
    findUserByEmail: usersStore.findUserByEmail,
    relyingParty: relyingPartyOf(config.publicBaseUrl),
    now,
  });
  const mailer = createMailer(config);
  const passwordResets = createPasswordResets({
    db,
    users: usersStore,
    sessions: users,
    secondFactor,
    sendMail: mailer,
    linkOf: (token) => `${config.publicBaseUrl}/dashboard/reset-password?token=${token}`,
    logger,
    now,
  });
  const emailVerification = createEmailVerification({
    db,
    users: usersStore,
    sessions: users,
    sendMail: mailer,
    linkOf: (token) => `${config.publicBaseUrl}/dashboard/verify-email?token=${token}`,
    now,
  });
  const invitations = createInvitations({
    db,
    invitations: createInvitationsStore(db),
    memberships,
    accounts: accountsStore,
    users: usersStore,
    sessions: users,
    audit: audit.record,
    sendMail: mailer,
    linkOf: (token) => `${config.publicBaseUrl}/dashboard/invite?token=${token}`,
    validDays: config.invitationDays,
    logger,
    onMembershipChanged: (userId) => {
      principals.forgetUser(userId);
      bus.publish(TOPIC.memberships, userId);
    },
    now,
  });
  const sso = createSso({ db, config, memberships, users: usersStore, sessions: users, audit: audit.record, now });
  bus.on(TOPIC.userSessions, { drop: users.forgetUser, dropAll: users.forgetAll });
  bus.on(TOPIC.memberships, { drop: principals.forgetUser, dropAll: principals.forgetAll });
  // The edge turns a session cookie into a principal through these, never learning where they live.
  const sessionEdge: SessionEdge = {
    resolver: {
      session: async (token) => {
        const signedIn = await users.resolve(token);
        return signedIn ? { userId: signedIn.user.id, sessionId: signedIn.session.id } : null;
      },
      principal: principals.principalFor,
    },
    cookie: sessionCookie(config.publicBaseUrl),
  };
  // Expensive calls of one account take turns, so that no account holds more of the pool and of
  // the event loop than its share, whether it sends them through REST or GraphQL.
  const heavy = createAccountGate({ concurrent: config.heavyCallsPerAccount, queued: config.heavyQueuePerAccount });
  // A deleted code's purge is recorded in the deleting transaction, beside its webhook event; so is
  // the end of a code's max_scans uses when it has no limit (any more).
  const emitCodeEvent: typeof webhooks.outbox.codeEvent = async (event, trx) => {
    if (event.type === 'code.deleted') await purgeStore.codeDeleted(event.code.id, event.code.accountId, now(), trx);
    const unlimited = event.type === 'code.updated' && event.code.lifecycle.maxScans === null;
    if (unlimited) await limits.forget(event.code.id, trx);
    await webhooks.outbox.codeEvent(event, trx);
  };

  const bulk = gateEach(
    heavy,
    createBulkService({
      db,
      codes: codesStore,
      routing: routingStore,
      tagging,
      images,
      logos,
      onCodeChanged,
      emit: webhooks.outbox.codeEvent,
      verifiedDomainOf,
      maxLogoFetches: config.bulkLogoFetchesPerCall,
      audit: audit.record,
    }),
  );
  return {
    config,
    accounts,
    /** People: sign-in, sessions, profile and password. */
    users,
    /** Workspaces (accounts) as people see them: memberships, roles, members. */
    workspaces,
    /** Invitations to a workspace: by email and by link, accepted once. */
    invitations,
    /** Single sign-on: workspaces' OpenID Connect providers, and signing in through them. */
    sso,
    /** The TOTP second factor and its recovery codes; sign-in's second step. */
    secondFactor,
    /** Passkeys (WebAuthn): registered on the profile, signing in as both factors at once. */
    passkeys,
    /** "Forgot your password": mailed single-use links. */
    passwordResets,
    /** Email verification: mailed single-use links that prove a user's address. */
    emailVerification,
    /** First run: setup tokens and the first owner. */
    setup: createSetup({
      db,
      users: usersStore,
      sessions: users,
      accounts: accountsStore,
      memberships,
      audit: audit.record,
      now,
    }),
    /** How the edge resolves a session cookie (and sets it). */
    sessionEdge,
    /** OAuth clients of an account, and access-token verification. */
    oauth: oauth.service,
    /** The consent the account gave OAuth clients: listed, withdrawn. */
    oauthGrants: oauth.grants,
    /** The OAuth server (oidc-provider) mounted at /oauth, its issuer and the API's resource indicator. */
    oauthServer: oauth.server,
    /** The consent page's rules: what a request asks, who may approve it, the grant it makes. */
    oauthConsent: createConsentService({
      server: oauth.server,
      clientMetadata: oauth.service.clientMetadata,
      authenticateKey: accounts.authenticate,
      approvedBy: oauth.grants.approved,
    }),
    codes: createCodesService({
      db,
      codes: codesStore,
      routing: routingStore,
      tagging,
      images: createCodeImageCheck(images, logos, uploads),
      onCodeChanged,
      emit: emitCodeEvent,
      verifiedDomainOf,
      utmTemplateOf: utmTemplates.utmOf,
      audit: audit.record,
    }),
    /** The account's saved UTM fields; a new code may start from one (utm_template_id). */
    utmTemplates,
    /** The account's tags; codes carry them by name. */
    tags: createTagsService({
      db,
      tags: tagsStore,
      maxPerAccount: config.tagsPerAccount,
      lockCodes,
      audit: audit.record,
    }),
    /** Accounts' own short domains; `hosts` is the scan route's in-memory set of verified ones. */
    domains,
    verifiedHosts,
    bulk,
    /** Imports of other link services' exports (Bitly, Shlink, YOURLS, Kutt), created through bulk. */
    imports: createImportsService({ codes: codesStore, bulk, verifiedDomainOf }),
    idempotency: createIdempotency(createIdempotencyStore(db)),
    images,
    /** Stored logos; `collect()` is what the hourly collector runs. */
    logos,
    /** The workspaces' uploaded images (logos and business card photos). */
    uploads,
    batches: createBatchesService({ codes: codesStore, images, publicBaseUrl: config.publicBaseUrl }),
    routing: createRoutingService({
      db,
      routing: routingStore,
      // Routing sits below codes and scans: the code lookup and the request's reading are handed in.
      codes: {
        find: codesStore.findById,
        touch: (accountId, codeId, routingEnabled, trx) =>
          codesStore.update(accountId, codeId, { routingEnabled, updatedAt: new Date() }, trx),
      },
      visitorOf: simulatedVisitorOf(clientInfo),
      onCodeChanged,
      audit: audit.record,
    }),
    scans: { store: scansStore, recorder, targets, clientInfo, limits },
    analytics: gateEach(
      heavy,
      createAnalyticsService({
        codes: codesStore,
        rollups: createRollupSource(analyticsReader, rawSource, existingCodesOn),
        raw: rawSource,
        rawOnly: config.analyticsSource === 'raw',
        taggedCodes: (accountId, tag) => tagging.codeIdsWithAny(accountId, [tag]),
        tagIdOf: tagging.idOf,
        rawAvailableSince: scanPurge.rawAvailableSince,
        rawRowsKept: config.scanRawRows === 'keep',
        purging: purgingOf(purgeStore),
        lockedViews: createLockedViewsStore(db).count,
        snapshot: (read) =>
          inTransaction(
            analyticsReader,
            async (trx) => {
              const owned = createOwnedCodeIds(trx);
              const raw = createRawSource(trx, owned);
              return read({
                rollups: createRollupSource(trx, raw, existingCodesOn),
                raw,
                purging: purgingOf(createPurgeStore(trx)),
              });
            },
            'repeatable read',
          ),
        now,
      }),
    ),
    rawScans: createRawScansService({
      codes: codesStore,
      // Pages of raw scans read where analytics read (off the thread that answers scans on
      // SQLite: a 2,000-row page of a CSV export held it for tens of milliseconds), bounded alike.
      scans: createScansStore(analyticsReader),
      rawAvailableSince: scanPurge.rawAvailableSince,
      rawRowsKept: config.scanRawRows === 'keep',
      gate: heavy,
    }),
    /** Raw-scan retention and deleted codes' purges; main.ts starts it, tests call runOnce(). */
    scanPurge,
    /** The account's audit log: recorded into by the services above, read over REST and GraphQL. */
    audit,
    /** Audit log retention (AUDIT_RETENTION_DAYS); main.ts starts it, tests call runOnce(). */
    auditPurge,
    /** The caller's address hashed for the audit log (the edge puts it on the principal's actor). */
    callerAddressHash,
    webhooks: webhooks.service,
    /** Delivers the webhook outbox; main.ts starts it (WEBHOOK_WORKER), tests start their own. */
    webhookWorker: webhooks.worker,
    /** Per-key API limits (on Redis with REDIS_URL) and the scan route's per-address limit. */
    rateLimits,
    /** Prometheus metrics of this instance, served at GET /metrics (METRICS_TOKEN) or on METRICS_PORT. */
    metrics,
    /** Set on SIGTERM: /readyz answers 503 so that load balancers stop sending work here. */
    draining: false,
    /** The scan journal's last write error while its writes fail (scans are answered anyway), else null. */
    scanJournalFailing: (): string | null => journal?.failing() ?? null,
    /** For readiness: one trivial round trip. */
    pingDatabase: () => pingDatabase(db),
    /** Writes buffered scans; call after the server stopped accepting requests. */
    async close(): Promise<void> {
      clearInterval(logoCollector);
      await scanPurge.close();
      await auditPurge.close();
      await runLock.close();
      verifiedHosts.close();
      await recorder.stop();
      await writerThread?.close();
      await renderPool.close();
      // After the scans: their outbox rows are written; attempts in flight finish.
      await webhooks.close();
      rateLimits.close();
      // Last: the changes made while draining are told to the other processes too.
      await bus.close();
      for (const side of [historyReader, scanPool, analyticsReader]) if (side !== db) await side.destroy();
    },
  };
}

export type Services = Awaited<ReturnType<typeof createServices>>;
