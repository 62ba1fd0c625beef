// The scans module's public face: what the rest of the service may use of it. Anything
// not exported here is the module's own (npm run lint:imports enforces it).
export { createAddressHasher } from './address-hash.ts';
export type { HashAddress } from './address-hash.ts';
export { bundledGeoipDbPath, createClientInfo } from './client-info.ts';
export type { RawRows } from './batch-writer.ts';
export { createCommitBatch } from './commit-batch.ts';
export type { CommitBatch, WriteScanEvents } from './commit-batch.ts';
export { SCAN_EVENT_OUTCOMES, SCAN_OUTCOMES } from './lifecycle-answer.ts';
export type { ScanEventOutcome, ScanOutcome } from './lifecycle-answer.ts';
export { createLockedViewsStore } from './locked-views.ts';
export type { LockedViewsStore } from './locked-views.ts';
export type { ScanEvent } from './model.ts';
export { CITY_DESCRIPTION, REGION_DESCRIPTION, citySchema, regionSchema } from './place.ts';
export type { Place } from './client-info.ts';
export { createPurgeStore } from './purge-store.ts';
export type { PurgeStore } from './purge-store.ts';
export { LATE_SCANS_MS, createScanPurge } from './purge.ts';
export { createScanRecorder } from './recorder.ts';
export { openScanJournal, type ScanJournal } from './scan-journal.ts';
export { createRollupSource } from './rollup-query-store.ts';
export { createRollupStore } from './rollup-store.ts';
export { createScanLimits } from './scan-limits.ts';
export type { ScanLimits } from './scan-limits.ts';
export { createScanUseStore } from './scan-use-store.ts';
export {
  ALL_VALUES,
  CODE_DIMENSIONS,
  DIMENSION_COLUMNS,
  SPARSE_DIMENSIONS,
  rankCodes,
  rankValues,
} from './scan-queries.ts';
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
} from './scan-queries.ts';
export { createRawSource } from './scan-query-store.ts';
export { SCAN_ROUTE, createScanRoute } from './scan-route.ts';
export { simulatedVisitorOf } from './simulated-visitor.ts';
export { createScansStore } from './store.ts';
export { createTagHistoryMover } from './tag-rollups.ts';
export type { Grid, OffsetRun, WeekHourCount } from './time-grid.ts';
export type { ScanDimensions, ScansStore, StoredScan } from './store.ts';
export { createTargetCache, splitTargetKey, targetKey } from './target-cache.ts';
export { createWriterThread } from './writer-thread.ts';
export type { WriterReply, WriterRequest, WriterThread, WriterThreadData } from './writer-thread.ts';
