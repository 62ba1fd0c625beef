// The account overview's breakdowns, the analytics API's own. What analytics ask of the data
// (the query interface and its helpers) is the scans module's: scans/scan-queries.ts, whose
// query stores answer it from rollups or raw scans.
import type { CodeDimension } from '../scans/index.ts';

/** The account overview breaks down by these (those its rollup keeps); not by language or rule. */
export const ACCOUNT_BREAKDOWNS = [
  'country',
  'region',
  'city',
  'device',
  'os',
  'browser',
  'referrer',
] as const satisfies readonly CodeDimension[];
export type AccountDimension = (typeof ACCOUNT_BREAKDOWNS)[number];
