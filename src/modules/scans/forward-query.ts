// UTM passthrough: the scan URL's query string carried on to the destination. The destination's
// own query is kept exactly as written (re-serialising it could turn %20 into +, which some
// servers read differently); the scan's parameters follow it, except those the destination
// sets itself, which keep the destination's value. A fragment stays last.

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
