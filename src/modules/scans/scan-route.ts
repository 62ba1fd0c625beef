// GET|HEAD /:slug, the public scan redirect. This is the hot path, answered by a plain
// node:http handler in front of Koa: cache lookup, pure routing decision, enqueue, 302.
// POST /:slug: a password-protected code's unlock form (unlock.ts), which redirects like a scan
// once the password is right; a code without a password costs the scan one null check.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Logger } from 'pino';
import { setRateLimitHeaders } from '../../http/rate-limit.ts';
import { HOSTED_PAGE_CSP, HTML_SECURITY_HEADERS, STATIC_PAGE_CSP } from '../../http/security-headers.ts';
import type { RouteObserver } from '../../shared/metrics.ts';
import type { RateLimit, RateLimitState } from '../../shared/rate-limiter.ts';
import { isReservedPath, scanUrl } from '../codes/index.ts';
import { decide } from '../routing/index.ts';
import type { ClientInfo } from './client-info.ts';
import { referrerHost } from './client-info.ts';
import type { ScanRecorder } from './recorder.ts';
import type { VerifiedHosts } from '../domains/index.ts';
import { hostOf, wellKnownBody } from '../domains/index.ts';
import { targetKey, type ScanTarget, type TargetCache } from './target-cache.ts';
import { locationOf } from './forward-query.ts';
import {
  fallbackOf,
  sendLifecyclePage,
  statusOutcome,
  type ScanEventOutcome,
  type ScanOutcome,
} from './lifecycle-answer.ts';
import type { ScanLimits } from './scan-limits.ts';
import { splitKey } from './visitor.ts';
import { MAX_PASSWORD_LENGTH, passwordMatches } from '../codes/index.ts';
import { isUnlocked, readUnlockForm, sendUnlockPage, unlockCookie, type UnlockProblem } from './unlock.ts';
import type { ScanEvent } from './model.ts';
import { createScanIds } from './scan-ids.ts';
import { previewPage, sendPreviewPage } from './preview-page.ts';
import { CONTACT_FILE, PHOTO_FILE, withPhoto, type HostedPage } from '../pages/index.ts';

/** A locked view's decision: no destination yet, no rule (they apply after the unlock). */
const LOCKED = { destination: null, ruleId: null } as const;

/** A code that asks for a password before it redirects. */
type ProtectedTarget = ScanTarget & { passwordHash: string };
const isProtected = (target: ScanTarget): target is ProtectedTarget => target.passwordHash !== null;

/** The app target for a scan's OS (as the User-Agent parser names it), or null. */
function appRedirectOf(target: ScanTarget, os: string | null): string | null {
  const links = target.appLinks;
  if (links === null) return null;
  // iPadOS reports itself as iOS, as the routing rules' `device:ios` reads it.
  return os === 'iOS' ? links.ios : os === 'Android' ? links.android : null;
}

/** An app download page's store for a scan's OS: the page's routing by OS, before the page itself. */
function storeRedirectOf(target: ScanTarget, os: string | null): string | null {
  const stores = target.page?.stores;
  if (!stores) return null;
  return os === 'iOS' ? stores.ios : os === 'Android' ? stores.android : null;
}

/**
 * Where a scan goes; an app link or a store (`asWritten`) goes without UTM fields or a forwarded
 * query; `page`: the code's hosted page is the answer (no destination).
 */
interface Decision {
  destination: string | null;
  ruleId: string | null;
  asWritten?: boolean;
  page?: HostedPage;
}

/** Shared by scans without a query string; the resolver only reads it. */
const NO_QUERY = new URLSearchParams();

/**
 * One path segment of 3-64 of A-Z a-z 0-9 _ - (random slugs are 7 base62 characters, custom
 * ones codes/slug.ts's CUSTOM_SLUG); anything else is not ours to answer here, and neither are
 * the server's own paths (isReservedPath).
 */
const SLUG_PATH = /^\/([0-9A-Za-z_-]{3,64})(?:\?(.*))?$/s;

/** A business card's vCard or photo under its code's scan path (pages module's CONTACT_FILE, PHOTO_FILE). */
const PAGE_FILE_PATH = /^\/([0-9A-Za-z_-]{3,64})\/(contact\.vcf|photo\.png)(?:\?.*)?$/s;
type PageFile = typeof CONTACT_FILE | typeof PHOTO_FILE;

/** The route's template, its label in the request metrics. */
export const SCAN_ROUTE = '/:slug';

export interface ScanRouteDeps {
  cache: TargetCache;
  clientInfo: ClientInfo;
  recorder: ScanRecorder;
  redirectStatus: 301 | 302 | 307;
  /** Scans per visitor address (in memory); null for no limit. */
  limit?: RateLimit | null;
  logger: Logger;
  /** Counts and times every answer (metrics.routeObserver(SCAN_ROUTE)). */
  observe: RouteObserver;
  /** Claims the uses of codes with max_scans; without it limits are not enforced. */
  limits?: ScanLimits | null;
  /**
   * Accounts' verified domains: a request whose Host is one of them is answered from that
   * domain's slugs (and its fallback URL); any other Host is the service's own domain.
   */
  hosts?: VerifiedHosts | null;
  /** Where `/` on the service's own host redirects (ROOT_REDIRECT_URL: the dashboard by default). */
  rootRedirect: string;
  /** Password tries per protected code and visitor address (UNLOCK_ATTEMPTS_PER_MINUTE); null for no limit. */
  unlockLimit?: RateLimit | null;
  /** How long a right password is remembered (UNLOCK_REMEMBER_SECONDS). */
  unlockRememberSeconds?: number;
  /** The unlock cookie is sent only over HTTPS (PUBLIC_BASE_URL is https). */
  secureCookies?: boolean;
  /** PUBLIC_BASE_URL: the scan URL a preview page names as its og:url. */
  publicBaseUrl: string;
  /** A business card's photo: the account's uploaded image, scaled for the page (images module), or null. */
  photos?: (accountId: string, imageId: string) => Promise<Buffer | null>;
}

/** The domain's root: `/`, with or without a query string. */
const ROOT_PATH = /^\/(?:\?.*)?$/s;

const NOT_FOUND_HTML =
  '<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, ' +
  'initial-scale=1">' +
  ('<title>QR code not found</title></head><body style="font-family:system-ui,sans-serif;max-width:32rem;margin:4rem ' +
    'auto;padding:0 1rem">') +
  '<h1>This QR code is not active</h1><p>The code you scanned does not exist or has been deleted.</p></body></html>';

const TOO_MANY_HTML =
  '<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, ' +
  'initial-scale=1">' +
  ('<title>Too many scans</title></head><body style="font-family:system-ui,sans-serif;max-width:32rem;margin:4rem ' +
    'auto;padding:0 1rem">') +
  ('<h1>Too many scans</h1><p>Too many codes were scanned from your network in a short time. Please try again in a ' +
    'minute.</p></body></html>');

const HTML_HEADERS = {
  'Content-Type': 'text/html; charset=utf-8',
  'Content-Security-Policy': STATIC_PAGE_CSP,
  ...HTML_SECURITY_HEADERS,
  'Cache-Control': 'no-store',
};

/**
 * A hosted page: like the scan route's other pages, nothing to run and nothing from elsewhere (a
 * business card's photo comes from this origin); every scan reaches us.
 */
const PAGE_HEADERS = {
  ...HTML_HEADERS,
  'Content-Security-Policy': HOSTED_PAGE_CSP,
  'Cache-Control': 'private, max-age=0',
};

function wantsJson(req: IncomingMessage): boolean {
  const accept = req.headers.accept ?? '';
  return /application\/(problem\+)?json/.test(accept) && !accept.includes('text/html');
}

function sendNotFound(req: IncomingMessage, res: ServerResponse, path: string): void {
  if (wantsJson(req)) {
    const body = JSON.stringify({
      type: '/problems/not-found',
      title: 'Not found',
      status: 404,
      detail: 'No active QR code has this address.',
      instance: path,
    });
    res.writeHead(404, {
      'Content-Type': 'application/problem+json',
      'Content-Length': Buffer.byteLength(body),
      'Cache-Control': 'no-store',
    });
    res.end(req.method === 'HEAD' ? undefined : body);
    return;
  }
  res.writeHead(404, { ...HTML_HEADERS, 'Content-Length': Buffer.byteLength(NOT_FOUND_HTML) });
  res.end(req.method === 'HEAD' ? undefined : NOT_FOUND_HTML);
}

function sendTooMany(req: IncomingMessage, res: ServerResponse, path: string, state: RateLimitState): void {
  const retryAfter = Math.max(1, state.resetSeconds);
  const limitHeaders: Record<string, string> = { 'Retry-After': String(retryAfter), 'Cache-Control': 'no-store' };
  setRateLimitHeaders((name, value) => (limitHeaders[name] = value), state);
  if (wantsJson(req)) {
    const detail = `More than ${state.limit} scans a minute came from this address. Retry in ${retryAfter} s.`;
    const body = JSON.stringify({
      type: '/problems/rate-limited',
      title: 'Too many requests',
      status: 429,
      detail,
      instance: path,
    });
    res.writeHead(429, {
      ...limitHeaders,
      'Content-Type': 'application/problem+json',
      'Content-Length': Buffer.byteLength(body),
    });
    res.end(req.method === 'HEAD' ? undefined : body);
    return;
  }
  res.writeHead(429, { ...HTML_HEADERS, ...limitHeaders, 'Content-Length': Buffer.byteLength(TOO_MANY_HTML) });
  res.end(req.method === 'HEAD' ? undefined : TOO_MANY_HTML);
}

/** What the request line and socket say about a scan, read once per request. */
interface ScanRequestLine {
  slug: string;
  /** The verified domain of the request's Host, or null for the service's own. */
  domain: string | null;
  /** The query string after `?`, if any. */
  query: string | undefined;
  ip: string | null;
  /** performance.now() on arrival, for the latency metric. */
  startedAt: number;
}

export function createScanRoute({
  cache,
  clientInfo,
  recorder,
  redirectStatus,
  limit = null,
  logger,
  observe,
  limits = null,
  hosts = null,
  rootRedirect,
  unlockLimit = null,
  unlockRememberSeconds = 86_400,
  secureCookies = false,
  publicBaseUrl,
  photos,
}: ScanRouteDeps) {
  const nextScanId = createScanIds();
  /** A 302 that records no scan: to a domain's fallback URL (its root and unknown slugs) or from the own root. */
  function redirectUnrecorded(req: IncomingMessage, res: ServerResponse, location: string, startedAt: number): void {
    res.writeHead(302, { Location: location, 'Cache-Control': 'private, max-age=0', 'Content-Length': '0' });
    res.end();
    observe(req.method!, 302, startedAt);
  }

  /** Answers a scan whose outcome is known: `redirect` to the destination (or a rule's), others to the fallback. */
  function redirect(
    req: IncomingMessage,
    res: ServerResponse,
    scan: ScanRequestLine,
    target: ScanTarget,
    outcome: ScanOutcome,
    unlocked = false,
  ): void {
    const { query, ip } = scan;
    const headers = req.headers;
    const userAgent = headers['user-agent'];
    const ua = clientInfo.userAgent(userAgent);
    const languages = clientInfo.languages(headers['accept-language']);
    const country = clientInfo.country(ip, headers);
    const now = Date.now();
    // A link-preview crawler at an active code with a preview gets the card, not a rule's or an app's target.
    const previewed = outcome === 'redirect' && target.preview !== null && ua.isBot;
    const ruled =
      outcome !== 'redirect'
        ? { destination: fallbackOf(target.lifecycle!, outcome), ruleId: null }
        : target.routing.enabled && !previewed
          ? decide(target.routing, target.fallback, {
              now: new Date(now),
              country,
              device: { type: ua.device, os: ua.os },
              languages,
              ip,
              query: query ? new URLSearchParams(query) : NO_QUERY,
              // Only split rules read it, so the hash is computed only for them.
              get visitorKey() {
                return splitKey(ip, userAgent);
              },
            })
          : { destination: target.fallback, ruleId: null };
    // App links and a hosted page replace the destination only when no rule matched (rules decide
    // first); an app download page sends iOS and Android to their store. Both go as written.
    const unruled = outcome === 'redirect' && !previewed && ruled.ruleId === null;
    const appLink = unruled ? (appRedirectOf(target, ua.os) ?? storeRedirectOf(target, ua.os)) : null;
    const decision: Decision = appLink
      ? { destination: appLink, ruleId: null, asWritten: true }
      : unruled && target.page
        ? { destination: null, ruleId: null, page: target.page }
        : ruled;

    // HEAD is answered the same way but is not a scan: link checkers and previews use it. A POST
    // is the unlock form with the right password: the scan the page held back. A scan is
    // answered once the recorder has it journaled (end of this event-loop turn), so that an
    // answered scan survives a crash.
    const answer = previewed
      ? // A hosted page is what people see at the scan URL: the card links there, not to the fallback behind it.
        () =>
          sendPreview(
            req,
            res,
            scan,
            target,
            target.page ? null : locationOf(decision.destination!, target.tagUtm, undefined),
          )
      : () => send(req, res, scan, target, decision, outcome);
    if (req.method === 'HEAD') return answer();
    recorder.enqueue(scanEventOf(req, scan, target, now, decision, outcome, unlocked, ua, country, languages), answer);
  }

  /** A crawler's preview page of the code's scan URL, its link going to `link`. */
  function sendPreview(
    req: IncomingMessage,
    res: ServerResponse,
    scan: ScanRequestLine,
    target: ScanTarget,
    link: string | null,
  ): void {
    const pageUrl = scanUrl(publicBaseUrl, scan.slug, scan.domain);
    sendPreviewPage(req, res, previewPage(target.preview!, pageUrl, link ?? pageUrl));
    observe(req.method!, 200, scan.startedAt);
  }

  /**
   * The answer to a scan decided: the redirect, or the lifecycle page when there is no destination.
   */
  function send(
    req: IncomingMessage,
    res: ServerResponse,
    scan: ScanRequestLine,
    target: ScanTarget,
    decision: Decision,
    outcome: ScanOutcome,
  ): void {
    const query = scan.query;
    // After the unlock form too: the page itself (a 303 to a GET would record the scan twice).
    if (decision.page) return answerPage(req, res, scan, decision.page.html);
    if (decision.destination === null) {
      const status = sendLifecyclePage(
        req,
        res,
        outcome as Exclude<ScanOutcome, 'redirect'>,
        `/${scan.slug}`,
        wantsJson(req),
      );
      return observe(req.method!, status, scan.startedAt);
    }
    // After the unlock form: 303, so that the browser follows with a GET (a 307 would post the password on).
    const status = req.method === 'POST' ? 303 : redirectStatus;
    res.writeHead(status, {
      Location: decision.asWritten
        ? decision.destination
        : locationOf(decision.destination, target.tagUtm, target.forwardQuery ? query : undefined),
      // Every scan must reach us: browsers and proxies may not reuse this answer.
      'Cache-Control': 'private, max-age=0',
      'Content-Length': '0',
    });
    res.end();
    observe(req.method!, status, scan.startedAt);
  }

  function answerPage(req: IncomingMessage, res: ServerResponse, scan: ScanRequestLine, html: string): void {
    const headers = { ...PAGE_HEADERS, 'Content-Length': Buffer.byteLength(html) };
    res.writeHead(200, headers);
    res.end(req.method === 'HEAD' ? undefined : html);
    observe(req.method!, 200, scan.startedAt);
  }

  /**
   * GET|HEAD `/<slug>/contact.vcf` and `/<slug>/photo.png`: an active business card's vCard (with
   * its photo) and photo, not scans (the page's view was one). A protected code's need the unlock
   * cookie, as its page does; anything else is 404.
   */
  async function answerPageFile(
    req: IncomingMessage,
    res: ServerResponse,
    scan: ScanRequestLine,
    target: ScanTarget | null,
    file: PageFile,
  ): Promise<void> {
    const life = target?.lifecycle;
    const active = target !== null && ((life && statusOutcome(life, Date.now())) ?? 'redirect') === 'redirect';
    const unlocked =
      active &&
      (!isProtected(target) || isUnlocked(req.headers.cookie, target.codeId, target.passwordHash, Date.now()));
    const page = unlocked ? target!.page : null;
    const photoId = page?.photoImageId;
    const photo = photoId && photos ? await photos(target!.accountId, photoId) : null;
    const vcard = page?.vcard;
    let answer: { type: string; body: string | Buffer; disposition?: string } | null = null;
    if (file === PHOTO_FILE && photo) answer = { type: 'image/png', body: photo };
    else if (file === CONTACT_FILE && vcard)
      answer = {
        type: 'text/vcard; charset=utf-8',
        body: photo ? withPhoto(vcard.body, photo) : vcard.body,
        disposition: `attachment; filename="${vcard.fileName}"`,
      };
    if (!answer) {
      sendNotFound(req, res, `/${scan.slug}/${file}`);
      return observe(req.method!, 404, scan.startedAt);
    }
    res.writeHead(200, {
      'Content-Type': answer.type,
      ...(answer.disposition ? { 'Content-Disposition': answer.disposition } : {}),
      'Content-Length': Buffer.byteLength(answer.body),
      'Cache-Control': 'private, max-age=0',
      'X-Content-Type-Options': 'nosniff',
    });
    res.end(req.method === 'HEAD' ? undefined : answer.body);
    observe(req.method!, 200, scan.startedAt);
  }

  /** A scan (or a locked view) as the recorder takes it: one object, built once per request. */
  function scanEventOf(
    req: IncomingMessage,
    scan: ScanRequestLine,
    target: ScanTarget,
    at: number,
    decision: { destination: string | null; ruleId: string | null },
    outcome: ScanEventOutcome,
    unlocked: boolean,
    ua = clientInfo.userAgent(req.headers['user-agent']),
    country = clientInfo.country(scan.ip, req.headers),
    languages = clientInfo.languages(req.headers['accept-language']),
  ): ScanEvent {
    return {
      id: nextScanId(),
      codeId: target.codeId,
      slug: scan.slug,
      domain: scan.domain,
      accountId: target.accountId,
      at,
      ruleId: decision.ruleId,
      destination: decision.destination,
      outcome,
      unlocked,
      country,
      ...clientInfo.placeOfIp(scan.ip),
      device: ua.device,
      os: ua.os,
      browser: ua.browser,
      referrerHost: referrerHost(req.headers.referer),
      language: languages[0] ?? null,
      isBot: ua.isBot,
      ip: scan.ip,
      userAgent: req.headers['user-agent'],
    };
  }

  function fail(req: IncomingMessage, res: ServerResponse, scan: ScanRequestLine, err: unknown): void {
    logger.error({ err }, 'scan redirect failed');
    // An answer cut short is not counted: it never completed.
    if (res.headersSent) return void res.destroy();
    const body = JSON.stringify({
      type: '/problems/unavailable',
      title: 'Service unavailable',
      status: 503,
      detail: 'Try again in a moment.',
    });
    res.writeHead(503, {
      'Content-Type': 'application/problem+json',
      'Retry-After': '1',
      'Content-Length': Buffer.byteLength(body),
    });
    res.end(body);
    observe(req.method!, 503, scan.startedAt);
  }

  /**
   * A code with max_scans, about to go to its destination: a person's GET claims one use first
   * (scan-limits.ts), bots and HEAD requests only check that one is left; neither uses any.
   */
  function answerLimited(
    req: IncomingMessage,
    res: ServerResponse,
    scan: ScanRequestLine,
    target: ScanTarget,
    maxScans: number,
    unlocked: boolean,
  ): void {
    const uses = req.method !== 'HEAD' && !clientInfo.userAgent(req.headers['user-agent']).isBot;
    (uses ? limits!.claim(target.codeId, maxScans) : limits!.left(target.codeId, maxScans))
      .then((allowed) => redirect(req, res, scan, target, allowed ? 'redirect' : 'limit_reached', unlocked))
      .catch((err) => fail(req, res, scan, err));
  }

  /** An active code's scan past its lock (if any): a use claimed when it is limited, then the redirect. */
  function proceed(
    req: IncomingMessage,
    res: ServerResponse,
    scan: ScanRequestLine,
    target: ScanTarget,
    unlocked: boolean,
  ): void {
    const maxScans = target.lifecycle?.maxScans;
    if (maxScans != null && limits) return answerLimited(req, res, scan, target, maxScans, unlocked);
    redirect(req, res, scan, target, 'redirect', unlocked);
  }

  /**
   * A password-protected code's GET or HEAD: on with a valid unlock cookie, else the unlock page.
   * A GET of the page is a locked view, recorded beside the scans but not as one (locked-views.ts).
   */
  function answerLocked(
    req: IncomingMessage,
    res: ServerResponse,
    scan: ScanRequestLine,
    target: ProtectedTarget,
  ): void {
    const now = Date.now();
    if (isUnlocked(req.headers.cookie, target.codeId, target.passwordHash, now))
      return proceed(req, res, scan, target, true);
    const event = req.method === 'GET' ? scanEventOf(req, scan, target, now, LOCKED, 'locked', false) : null;
    if (event) recorder.enqueue(event);
    // A crawler gets the card, linking to the scan URL: the destination stays behind the password.
    if (target.preview !== null && (event?.isBot ?? clientInfo.userAgent(req.headers['user-agent']).isBot))
      return sendPreview(req, res, scan, target, null);
    sendUnlockPage(req, res, 200, `/${scan.slug}`, null);
    observe(req.method!, 200, scan.startedAt);
  }

  /** The unlock form's answer once its password was checked (or refused unread). */
  function refuseUnlock(
    req: IncomingMessage,
    res: ServerResponse,
    scan: ScanRequestLine,
    status: number,
    problem: UnlockProblem,
    headers?: Record<string, string>,
  ): void {
    sendUnlockPage(req, res, status, `/${scan.slug}`, problem, headers);
    observe(req.method!, status, scan.startedAt);
  }

  /**
   * POST /:slug of a protected code: tries are counted per code and address before the password
   * is read (argon2id is slow on purpose: a flood of tries must not cost a hash each); the right
   * password sets the signed cookie and goes on as the scan (303); a wrong one, the page again (403).
   */
  async function unlock(
    req: IncomingMessage,
    res: ServerResponse,
    scan: ScanRequestLine,
    target: ProtectedTarget,
  ): Promise<void> {
    const state = unlockLimit ? await unlockLimit.take(`${target.codeId}|${scan.ip ?? 'unknown'}`) : null;
    if (state && !state.allowed) {
      req.resume();
      const retryAfterSeconds = Math.max(1, state.resetSeconds);
      const headers: Record<string, string> = { 'Retry-After': String(retryAfterSeconds) };
      setRateLimitHeaders((name, value) => (headers[name] = value), state);
      return refuseUnlock(req, res, scan, 429, { kind: 'too_many', retryAfterSeconds, limit: state.limit }, headers);
    }
    const password = await readUnlockForm(req);
    if (!password) return refuseUnlock(req, res, scan, 400, { kind: 'missing' });
    // A try longer than any password can be is wrong without a hash.
    const right = password.length <= MAX_PASSWORD_LENGTH && (await passwordMatches(target.passwordHash, password));
    if (!right) return refuseUnlock(req, res, scan, 403, { kind: 'wrong' });
    res.setHeader(
      'Set-Cookie',
      unlockCookie(target, `/${scan.slug}`, Date.now(), unlockRememberSeconds, secureCookies),
    );
    proceed(req, res, scan, target, true);
  }

  /**
   * A POST to a slug: a protected, active code's unlock form; any other code's scan URL is sent
   * back to a GET (303), an unknown one gets the 404.
   */
  function answerPost(
    req: IncomingMessage,
    res: ServerResponse,
    scan: ScanRequestLine,
    target: ScanTarget,
    active: boolean,
  ): void {
    if (active && isProtected(target))
      return void unlock(req, res, scan, target).catch((err) => fail(req, res, scan, err));
    req.resume();
    res.writeHead(303, { Location: `/${scan.slug}`, 'Cache-Control': 'no-store', 'Content-Length': '0' });
    res.end();
    observe(req.method!, 303, scan.startedAt);
  }

  function answer(req: IncomingMessage, res: ServerResponse, scan: ScanRequestLine, target: ScanTarget | null): void {
    if (target) {
      const life = target.lifecycle;
      const outcome = (life && statusOutcome(life, Date.now())) ?? 'redirect';
      if (req.method === 'POST') return answerPost(req, res, scan, target, outcome === 'redirect');
      // Paused, archived or expired: the fallback destination or a page, no rules and no use claimed.
      if (outcome !== 'redirect') return redirect(req, res, scan, target, outcome);
      // Routing rules, the scan limit and the redirect come after the unlock.
      if (isProtected(target)) return answerLocked(req, res, scan, target);
      return proceed(req, res, scan, target, false);
    }
    if (req.method === 'POST') req.resume();
    const fallback = scan.domain ? hosts?.get(scan.domain)?.fallbackUrl : null;
    if (fallback) return redirectUnrecorded(req, res, fallback, scan.startedAt);
    sendNotFound(req, res, `/${scan.slug}`);
    observe(req.method!, 404, scan.startedAt);
  }

  function refuse(req: IncomingMessage, res: ServerResponse, scan: ScanRequestLine, state: RateLimitState): void {
    sendTooMany(req, res, `/${scan.slug}`, state);
    observe(req.method!, 429, scan.startedAt);
  }

  function serve(req: IncomingMessage, res: ServerResponse, scan: ScanRequestLine, file: PageFile | null = null): void {
    const respond = file
      ? (rq: IncomingMessage, rs: ServerResponse, sc: ScanRequestLine, target: ScanTarget | null) =>
          void answerPageFile(rq, rs, sc, target, file).catch((err: unknown) => fail(rq, rs, sc, err))
      : answer;
    try {
      const key = targetKey(scan.slug, scan.domain);
      const cached = cache.peek(key);
      if (cached !== undefined) respond(req, res, scan, cached);
      else {
        cache
          .load(key)
          .then((target) => respond(req, res, scan, target))
          .catch((err) => fail(req, res, scan, err));
      }
    } catch (err) {
      fail(req, res, scan, err);
    }
  }

  /**
   * The Host header's verified domain, or null. Only Host is read (X-Forwarded-Host is not): an
   * edge in front must pass the visitor's Host through, as Caddy does and nginx does with
   * `proxy_set_header Host $host`.
   */
  function verifiedDomainOf(req: IncomingMessage): string | null {
    const host = hostOf(req.headers.host);
    return hosts!.get(host) ? host : null;
  }

  /**
   * A verified domain's root goes to its fallback URL (without one it is Koa's 404: the account
   * chose none); the service's own root, which people type in to find the service, to `rootRedirect`.
   */
  function answerRoot(req: IncomingMessage, res: ServerResponse): boolean {
    const domain = hosts !== null && hosts.size > 0 ? verifiedDomainOf(req) : null;
    const location = domain === null ? rootRedirect : hosts!.get(domain)!.fallbackUrl;
    if (!location) return false;
    redirectUnrecorded(req, res, location, performance.now());
    return true;
  }

  /**
   * GET|HEAD /.well-known/apple-app-site-association and /.well-known/assetlinks.json on a verified
   * own domain: its file from memory (read with the verified set), or a 404 when it has none. Any
   * other host (the service's own) is left to Koa, which has no such file.
   */
  function answerWellKnown(req: IncomingMessage, res: ServerResponse, url: string): boolean {
    const startedAt = performance.now();
    const body = hosts !== null && hosts.size > 0 ? wellKnownBody(hosts.get(hostOf(req.headers.host)), url) : undefined;
    if (body === undefined) return false;
    if (body === null) {
      sendNotFound(req, res, url);
      observe(req.method!, 404, startedAt);
      return true;
    }
    res.writeHead(200, {
      'Content-Type': 'application/json',
      'Content-Length': Buffer.byteLength(body),
      // Apple's and Google's fetchers cache these themselves; a few minutes here bounds a change's delay.
      'Cache-Control': 'public, max-age=300',
    });
    res.end(req.method === 'HEAD' ? undefined : body);
    observe(req.method!, 200, startedAt);
    return true;
  }

  /** `/<slug>/contact.vcf` and `/<slug>/photo.png`: not scans, so neither the scan limit nor the recorder sees them. */
  function servePageFile(req: IncomingMessage, res: ServerResponse, slug: string, file: PageFile): boolean {
    if (isReservedPath(slug)) return false;
    const domain = hosts !== null && hosts.size > 0 ? verifiedDomainOf(req) : null;
    const ip = clientInfo.clientIp(req.headers, req.socket.remoteAddress);
    serve(req, res, { slug, domain, query: undefined, ip, startedAt: performance.now() }, file);
    return true;
  }

  /** Answers the request when it is a scan and returns true; otherwise leaves it to Koa. */
  return function handleScan(req: IncomingMessage, res: ServerResponse): boolean {
    const method = req.method;
    if (method !== 'GET' && method !== 'HEAD' && method !== 'POST') return false;
    const url = req.url ?? '';
    const match = SLUG_PATH.exec(url);
    if (!match) {
      const pageFile = method !== 'POST' && PAGE_FILE_PATH.exec(url);
      if (pageFile) return servePageFile(req, res, pageFile[1]!, pageFile[2] as PageFile);
      if (method === 'POST') return false;
      return url.startsWith('/.well-known/')
        ? answerWellKnown(req, res, url)
        : ROOT_PATH.test(url) && answerRoot(req, res);
    }
    const slug = match[1]!;
    if (isReservedPath(slug)) return false;
    // Only read when some account has a verified domain: an in-memory lookup of the Host header.
    const domain = hosts !== null && hosts.size > 0 ? verifiedDomainOf(req) : null;
    // The visitor's address, worked out once: the limiter and the recorded scan both use it.
    const scan: ScanRequestLine = {
      slug,
      domain,
      query: match[2],
      ip: clientInfo.clientIp(req.headers, req.socket.remoteAddress),
      startedAt: performance.now(),
    };
    if (!limit) {
      serve(req, res, scan);
      return true;
    }
    // Counted before the lookup, so that guessing at slugs counts too. The memory limiter
    // answers within this tick; only the promise's callback waits for the next microtask.
    limit.take(scan.ip ?? 'unknown').then(
      (state) => (state && !state.allowed ? refuse(req, res, scan, state) : serve(req, res, scan)),
      (err) => fail(req, res, scan, err),
    );
    return true;
  };
}
