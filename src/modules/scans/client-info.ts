// What a scan tells about its visitor: address, country, region and city, device, OS, browser, bot flag and
// languages. Parsing is memoised in small LRU caches keyed by the raw header, because the same
// few User-Agent strings and addresses repeat across scans.
import { createRequire } from 'node:module';
import type { IncomingHttpHeaders } from 'node:http';
import Bowser from 'bowser';
import { isbot } from 'isbot';
import { LRUCache } from 'lru-cache';
import maxmind, { type CityResponse, type CountryResponse, type Reader } from 'maxmind';
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
  /** MMDB city databases (GEOIP_CITY_DB), tried in order; none: no region or city. */
  cityDbPaths?: readonly string[];
}

/**
 * Where a scan came from below its country, as breakdowns show it: each value carries what it
 * lies in, so two Springfields stay apart ("US/Illinois", "US/Illinois/Springfield").
 */
export interface Place {
  region: string | null;
  city: string | null;
}

const NO_PLACE: Place = Object.freeze({ region: null, city: null });

// ip-location-db city files answer country_code, state1 and city; GeoLite2 City files answer
// country.iso_code, subdivisions[0].names.en and city.names.en.
type CityRecord = Partial<CityResponse> & { country_code?: string; state1?: string; city?: unknown };

/** The English names of a city record, joined as Place says; values fit the 191-character columns. */
export function placeOf(record: CityRecord | null): Place {
  if (!record) return NO_PLACE;
  const country = record.country_code || record.country?.iso_code || '';
  const region = record.state1 || record.subdivisions?.[0]?.names?.en || '';
  const city = typeof record.city === 'string' ? record.city : (record.city?.names?.en ?? '');
  if (!country || (!region && !city)) return NO_PLACE;
  return {
    region: region ? `${country}/${region}`.slice(0, 191) : null,
    city: city ? `${country}/${region}/${city}`.slice(0, 191) : null,
  };
}

/** Opens the city databases, naming the file that is not one. */
async function openCityReaders(paths: readonly string[]): Promise<Array<Reader<CityRecord>>> {
  return Promise.all(
    paths.map((path) =>
      maxmind.open<CityRecord>(path).catch((err: Error) => {
        throw new Error(`GEOIP_CITY_DB: ${path} is not a readable MMDB file (${err.message})`);
      }),
    ),
  );
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
  const cityReaders = await openCityReaders(options.cityDbPaths ?? []);
  const places = new LRUCache<string, Place>({ max: 10_000 });

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

    /** Region and city from the city databases; nulls without GEOIP_CITY_DB, at no cost. */
    placeOfIp(ip: string | null): Place {
      if (cityReaders.length === 0 || !ip) return NO_PLACE;
      let place = places.get(ip);
      if (place) return place;
      const address = ip.startsWith('::ffff:') ? ip.slice(7) : ip;
      let record: CityRecord | null = null;
      for (const reader of cityReaders) {
        try {
          record = reader.get(address);
        } catch {
          // an IPv6 address in an IPv4-only file (DB-IP ships one of each), or not an address
        }
        if (record) break;
      }
      place = placeOf(record);
      places.set(ip, place);
      return place;
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
