// What each analytics read charges the key's rate limit, in points (a plain API call is 1), the
// same over REST and GraphQL. Priced by their database work against a plain call's, from
// bench:analytics (bench/RESULTS.md, 2026-11-28): an overview took 4.5x (a month) to 11x (a
// year) a page of codes, a code's series or weekday x hour cells about 4x.
/** GET /v1/analytics/overview, Query.analyticsOverview: the account's rollups, ranked and broken down. */
export const OVERVIEW_POINTS = 10;
/** The weekday x hour cells of the account (or a tag), or of one code. */
export const WEEKDAY_HOURS_POINTS = 5;
/** GET /v1/codes/:id/scans, Code.scans: one code's series and breakdowns. */
export const CODE_SCANS_POINTS = 5;
/** GET /v1/codes/:id/scans/raw: a page of raw scan rows, or the CSV stream of all of them. */
export const RAW_SCANS_POINTS = 5;
/** Code.scanCount and uniqueScanCount: one batched query per request, whatever the list size. */
export const CODE_COUNT_POINTS = 1;
