// The bulk module's public face: what the rest of the service may use of it. Anything
// not exported here is the module's own (npm run lint:imports enforces it).
export { CSV_PARSE_OPTIONS, csvRowNumber, headerProblems, normalizeHeader } from './csv.ts';
export { MAX_BULK_CODES, createBulkService } from './service.ts';
export type { BulkService, ImportedHistory } from './service.ts';
