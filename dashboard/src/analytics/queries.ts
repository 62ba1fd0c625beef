// GraphQL text of the analytics pages kept apart from their components: bench:analytics times
// the account page's query exactly as the page sends it.

/** Values listed per dimension; pages ask the API for its most (100), which the map shows all of. */
export const TOP_SHOWN = 10;

/** The fields of a weekday x hour answer that WeekdayHours draws. */
export const WEEKDAY_HOURS_FIELDS = 'totalScans cells { weekday hour scans }';

/**
 * The account page's one query: 100 values per breakdown (the API's most) for the map, of which
 * the tables show the first TOP_SHOWN, and that many top codes; the weekday x hour cells beside;
 * with $tag, of the codes carrying that tag.
 */
export const ACCOUNT_OVERVIEW_QUERY = `query Overview(
  $from: String, $to: String, $granularity: AnalyticsGranularity, $timezone: String, $tag: String
) {
  analyticsOverview(
    from: $from, to: $to, granularity: $granularity, timezone: $timezone, tag: $tag, top: 100, topCodes: ${TOP_SHOWN}
  ) {
    totalScans uniqueScans totalCodes activeCodes
    previousPeriod { totalScans changePct }
    trend { period scans uniqueScans }
    topCodes { id name type content scans }
    breakdowns {
      country { value scans } region { value scans } city { value scans }
      device { value scans } os { value scans } browser { value scans } referrer { value scans }
    }
  }
  analyticsWeekdayHours(from: $from, to: $to, timezone: $timezone, tag: $tag) { ${WEEKDAY_HOURS_FIELDS} }
}`;
