// UTM passthrough: the scan URL's query string carried on to the destination. The destination's
// own query is kept exactly as written (re-serialising it could turn %20 into +, which some
// servers read differently); the scan's parameters follow it, except those the destination
// sets itself, which keep the destination's value. A fragment stays last.
// A code's UTM fields (codes/utm.ts) are merged by the same rules, before the scan's query: they
// count as the destination's own, so a scan's `?utm_source=` cannot replace the code's.

/** `destination` (a valid absolute URL, as stored) with the scan's `query` (after `?`) appended. */
export function withForwardedQuery(destination: string, query: string): string {
  const url = new URL(destination);
  const own = url.searchParams;
  const extra = [...new URLSearchParams(query)]
    .filter(([name]) => !own.has(name))
    .map((pair) => new URLSearchParams([pair]).toString())
    .join('&');
  if (extra === '') return destination;
  url.search = url.search.length > 1 ? `${url.search.slice(1)}&${extra}` : extra;
  return url.href;
}

/** A destination with a code's UTM fields merged in (utmTagger). */
export type UtmTagger = (destination: string) => string;

/** Destinations remembered per code: its fallback, its rules' and split weights' (a code has a few). */
const MAX_TAGGED = 64;

/**
 * Merges the code's UTM query into destinations, remembering each result: a code's destinations
 * are fixed until it changes (which drops its cache entry, and this with it), and parsing the URL
 * again on every scan cost a few microseconds of the scan's budget. Null for a code without UTM fields.
 */
export function utmTagger(utm: string | null): UtmTagger | null {
  if (utm === null) return null;
  const tagged = new Map<string, string>();
  return (destination) => {
    let location = tagged.get(destination);
    if (location === undefined) {
      location = withForwardedQuery(destination, utm);
      if (tagged.size < MAX_TAGGED) tagged.set(destination, location);
    }
    return location;
  };
}

/**
 * Where a scan is sent: the destination, then the code's UTM fields (null: none), then the scan's
 * forwarded query (undefined: not forwarded), each adding only the parameters not set before it.
 */
export function locationOf(destination: string, tag: UtmTagger | null, forwarded: string | undefined): string {
  const tagged = tag === null ? destination : tag(destination);
  return forwarded ? withForwardedQuery(tagged, forwarded) : tagged;
}
