// slug -> what a scan needs (code, account, fallback, compiled rules), in process memory so
// the redirect does not wait on the database. Changes made through this process invalidate
// an entry at once; other processes' changes arrive through the invalidation bus (REDIS_URL),
// and the entry's TTL (CODE_CACHE_TTL_MS) bounds what a lost message or no Redis leaves stale.
import { LRUCache } from 'lru-cache';
import { appLinkLocation, utmQuery, type AppLinks, type Code, type Preview } from '../codes/index.ts';
import { compileRouting, type CompiledRouting } from '../routing/index.ts';
import type { Routing } from '../routing/index.ts';
import { hostedPageOf, type HostedPage } from '../pages/index.ts';
import { compileLifecycle, type TargetLifecycle } from './lifecycle-answer.ts';
import { utmTagger, type UtmTagger } from './forward-query.ts';

export interface ScanTarget {
  codeId: string;
  accountId: string;
  /** Where a scan goes when no rule matches. */
  fallback: string;
  /** The scan URL's query string goes on to the destination (forward-query.ts). */
  forwardQuery: boolean;
  routing: CompiledRouting;
  /** Paused, archived, expiring or limited; null for an active code with neither (lifecycle-answer.ts). */
  lifecycle: TargetLifecycle | null;
  /** The argon2id hash of the code's password (unlock.ts), or null for a code that asks for none. */
  passwordHash: string | null;
  /** Where scans from iOS and Android go when no rule matched (codes/app-links.ts), or null for none. */
  appLinks: AppRedirects | null;
  /** Merges the code's UTM fields into a destination (forward-query.ts), or null for a code without. */
  tagUtm: UtmTagger | null;
  /** What link-preview crawlers are shown instead of the redirect (preview-page.ts), or null for none. */
  preview: Preview | null;
  /** The hosted page scans are answered with when no rule matched (pages module), or null: the redirect. */
  page: HostedPage | null;
}

/** Per OS, the one URL an app target redirects to; null for an OS without a target. */
export interface AppRedirects {
  ios: string | null;
  android: string | null;
}

function appRedirectsOf(links: AppLinks | null): AppRedirects | null {
  if (!links) return null;
  const location = (target: AppLinks['ios']) => target && asLocation(appLinkLocation(target));
  return { ios: location(links.ios), android: location(links.android) };
}

/**
 * A destination as a Location header can carry it: URLs are stored as the client wrote them,
 * and `https://bücher.example/straße` is valid input but not a valid header value.
 */
const asLocation = (url: string) => new URL(url).href;

function withLocations(routing: Routing): Routing {
  return {
    enabled: routing.enabled,
    rules: routing.rules.map((rule) => ({
      ...rule,
      destination: rule.destination && asLocation(rule.destination),
      conditions: rule.conditions.weights
        ? {
            ...rule.conditions,
            weights: rule.conditions.weights.map((w) => ({ ...w, destination: asLocation(w.destination) })),
          }
        : rule.conditions,
    })),
  };
}

/**
 * The cache key of a slug on a domain: the slug alone on the service's own domain (as before
 * domains existed), `<hostname>/<slug>` on an account's (neither contains a slash otherwise).
 */
export const targetKey = (slug: string, domain: string | null | undefined) => (domain ? `${domain}/${slug}` : slug);

/** The slug and domain (null: the service's own) of a targetKey. */
export function splitTargetKey(key: string): { slug: string; domain: string | null } {
  const at = key.lastIndexOf('/');
  return at < 0 ? { slug: key, domain: null } : { slug: key.slice(at + 1), domain: key.slice(0, at) };
}

/** Cached answer for a slug that has no code (never existed or deleted). */
const MISSING = Symbol('missing');
type Entry = ScanTarget | typeof MISSING;

export function createTargetCache(options: {
  load: (slug: string) => Promise<Code | null>;
  max: number;
  ttlMs: number;
}) {
  async function read(slug: string): Promise<Entry> {
    const code = await options.load(slug);
    if (!code || code.type !== 'url') return MISSING;
    return {
      codeId: code.id,
      accountId: code.accountId,
      fallback: asLocation(code.content as string),
      forwardQuery: code.forwardQuery,
      routing: compileRouting(withLocations(code.routing)),
      lifecycle: compileLifecycle(code.lifecycle, asLocation),
      passwordHash: code.passwordHash,
      appLinks: appRedirectsOf(code.appLinks),
      tagUtm: utmTagger(utmQuery(code.utm)),
      preview: code.preview,
      page: code.page && hostedPageOf(code.page, `/${code.slug}`),
    };
  }

  const cache = new LRUCache<string, Entry>({
    max: options.max,
    ttl: options.ttlMs,
    // Concurrent misses for one slug share a single database read.
    fetchMethod: (slug) => read(slug),
  });

  return {
    /** Synchronous hit: the target, null for a known-missing slug, undefined when not cached. */
    peek(slug: string): ScanTarget | null | undefined {
      const entry = cache.get(slug);
      return entry === MISSING ? null : entry;
    },

    async load(slug: string): Promise<ScanTarget | null> {
      const status: LRUCache.Status<string, Entry> = {};
      let entry: Entry | undefined;
      try {
        entry = await cache.fetch(slug, { status });
      } catch (err) {
        if (!status.fetchAborted) throw err;
      }
      // Aborted: an invalidation discarded the shared read while it ran, so what it read may be
      // old. A read of our own, begun after the invalidation, answers this scan (uncached: the
      // next miss caches again), rather than a 503.
      entry ??= await read(slug);
      return entry === MISSING ? null : entry;
    },

    /** Drops a slug at once (a fetch in flight for it is discarded too). */
    invalidate(slug: string): void {
      cache.delete(slug);
    },

    /** Drops every slug (the invalidation bus lost messages; fetches in flight are discarded too). */
    clear(): void {
      cache.clear();
    },
  };
}

export type TargetCache = ReturnType<typeof createTargetCache>;
