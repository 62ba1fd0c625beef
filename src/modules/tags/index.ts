// The tags module's public face: what the rest of the service may use of it. Anything
// not exported here is the module's own (npm run lint:imports enforces it).
export { CSV_TAG_SEPARATOR, codeTagsSchema, tagFilterSchema, tagNameSchema } from './schemas.ts';
export { createTagsService } from './service.ts';
export { createTagsStore, tagIdsOfCodes } from './store.ts';
export type { LinkChange } from './store.ts';
export { createCodeTagging } from './tagging.ts';
