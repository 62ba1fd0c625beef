// What a scan tells about its visitor: address, country, device, OS, browser, bot flag and
// languages. Parsing is memoised in small LRU caches keyed by the raw header, because the same
// few User-Agent strings and addresses repeat across scans.
import { createRequire } from 'node:module';
import type { IncomingHttpHeaders } from 'node:http';
import Bowser from 'bowser';
import { isbot } from 'isbot';
import { LRUCache } from 'lru-cache';
import maxmind, { type CountryResponse, type Reader } from 'maxmind';
import { createClientAddress, type ProxyTrust } from '../../shared/client-address.ts';

export interface ParsedUserAgent {
  /** bowser's platform type: mobile, tablet, desktop, tv, bot; null when unknown. */
  device: string | null;
  os: string | null;
  browser: string | null;
  isBot: boolean;
}

export interface ClientInfoOptions {
  /** MMDB file with a country_code (DB-IP/ip-location-db) or country.iso_code (GeoLite2) field. */
  geoipDbPath: string;
  /** Which X-Forwarded-For entries to believe (TRUST_PROXY, TRUSTED_PROXIES). */
  proxies: ProxyTrust;
  /** Lower-cased name of a trusted header carrying the country, e.g. cf-ipcountry. */
  countryHeader: string | null;
}

/** The CC0 country database shipped by @ip-location-db/geo-whois-asn-country-mmdb. */
export function bundledGeoipDbPath(): string {
  return createRequire(import.meta.url).resolve(
    '@ip-location-db/geo-whois-asn-country-mmdb/geo-whois-asn-country.mmdb',
  );
}

// GeoLite2 files answer country.iso_code; ip-location-db files answer country_code.
type CountryRecord = CountryResponse & { country_code?: string };

export type ClientInfo = Awaited<ReturnType<typeof createClientInfo>>;

export async function createClientInfo(options: ClientInfoOptions) {
  const reader: Reader<CountryRecord> = await maxmind.open<CountryRecord>(options.geoipDbPath);
  const userAgents = new LRUCache<string, ParsedUserAgent>({ max: 2000 });
  const countries = new LRUCache<string, string | 'none'>({ max: 10_000 });
  const languageLists = new LRUCache<string, string[]>({ max: 2000 });

  function parseUserAgent(ua: string): ParsedUserAgent {
    const bot = isbot(ua);
    if (!ua) return { device: null, os: null, browser: null, isBot: bot };
    const parsed = Bowser.parse(ua);
    return {
      device: bot ? 'bot' : (parsed.platform.type ?? null),
      os: parsed.os.name ?? null,
      browser: parsed.browser.name || null,
      isBot: bot,
    };
  }

  return {
    /**
     * The visitor's address: the socket peer, or the X-Forwarded-For entry our proxies vouch for
     * (shared/client-address.ts).
     */
    clientIp: createClientAddress(options.proxies),

    /** Country from the trusted header when configured and present, else from the GeoIP database. */
    country(ip: string | null, headers: IncomingHttpHeaders): string | null {
      if (options.countryHeader) {
        const value = headers[options.countryHeader];
        const code = (Array.isArray(value) ? value[0] : value)?.trim().toUpperCase();
        if (code && /^[A-Z]{2}$/.test(code) && code !== 'XX') return code;
      }
      return ip ? this.countryOfIp(ip) : null;
    },

    countryOfIp(ip: string): string | null {
      const cached = countries.get(ip);
      if (cached !== undefined) return cached === 'none' ? null : cached;
      let code: string | null = null;
      try {
        const record = reader.get(ip.startsWith('::ffff:') ? ip.slice(7) : ip);
        code = record?.country_code ?? record?.country?.iso_code ?? null;
      } catch {
        // not an IP address: no country
      }
      countries.set(ip, code ?? 'none');
      return code;
    },

    userAgent(ua: string | undefined): ParsedUserAgent {
      const key = ua ?? '';
      let parsed = userAgents.get(key);
      if (!parsed) {
        parsed = parseUserAgent(key);
        userAgents.set(key, parsed);
      }
      return parsed;
    },

    /** Primary language subtags from Accept-Language, most preferred first. */
    languages(acceptLanguage: string | undefined): string[] {
      if (!acceptLanguage) return [];
      let list = languageLists.get(acceptLanguage);
      if (!list) {
        list = parseAcceptLanguage(acceptLanguage);
        languageLists.set(acceptLanguage, list);
      }
      return list;
    },
  };
}

export function parseAcceptLanguage(header: string): string[] {
  const ranked = header
    .split(',')
    .map((part, index) => {
      const [tag = '', ...params] = part.trim().split(';');
      const q = params.map((p) => /^\s*q=([\d.]+)\s*$/.exec(p)?.[1]).find(Boolean);
      return { lang: tag.trim().split('-')[0]!.toLowerCase(), q: q === undefined ? 1 : Number(q), index };
    })
    .filter((entry) => /^[a-z]{2,3}$/.test(entry.lang) && entry.q > 0)
    .sort((a, b) => b.q - a.q || a.index - b.index);
  return [...new Set(ranked.map((entry) => entry.lang))];
}

/** Host of the Referer header, or null. */
export function referrerHost(referer: string | undefined): string | null {
  if (!referer || !URL.canParse(referer)) return null;
  return new URL(referer).hostname.slice(0, 191) || null;
}
