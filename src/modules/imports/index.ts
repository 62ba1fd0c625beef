// The imports module's public face: what the rest of the service may use of it. Anything
// not exported here is the module's own (npm run lint:imports enforces it).
export { IMPORT_FORMATS } from './model.ts';
export type { ImportFormat } from './model.ts';
export { presentImportReport } from './presenter.ts';
export { importBodySchema } from './schemas.ts';
export type { ImportBody } from './schemas.ts';
export { createImportsService } from './service.ts';
export type { ImportReport, ImportsService } from './service.ts';
