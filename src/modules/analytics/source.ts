// What analytics ask of the data. The interface and its helpers are the scans module's
// (scans/scan-queries.ts: its query stores answer it from rollups or raw scans); the account
// overview's breakdowns are the analytics API's own.
import type { CodeDimension } from '../scans/index.ts';

export { ALL_VALUES, CODE_DIMENSIONS, DIMENSION_COLUMNS, rankCodes, rankValues } from '../scans/index.ts';
export type {
  AggregateRow,
  AnalyticsSource,
  Bucket,
  CodeDimension,
  CodeRanking,
  CodeTotals,
  Scope,
  ValueCount,
  Window,
} from '../scans/index.ts';

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
