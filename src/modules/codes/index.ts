// The codes module's public face: what the rest of the service may use of it. Anything
// not exported here is the module's own (npm run lint:imports enforces it).
export { lockCodes } from './code-locks.ts';
export { contrastRatio } from './contrast.ts';
export { decodeCursor, encodeCursor } from './cursor.ts';
export type { VerifiedDomainOf } from './domain-field.ts';
export type { CodeImageCheck } from './image-check.ts';
export type { CodeLifecycle } from './lifecycle.ts';
export { designProblems, resolveDesign } from './model.ts';
export type { ChangedCode, Code, ResolvedDesign } from './model.ts';
export { MAX_PASSWORD_LENGTH, passwordMatches } from './password.ts';
export { appLinkLocation } from './app-links.ts';
export type { AppLinks } from './app-links.ts';
export { MAX_PAGE_LINKS, PAGE_KINDS } from './page.ts';
export type { AppDownloadPage, BusinessCardPage, LinksPage, Page, PageKind } from './page.ts';
export { UTM_FIELDS, utmQuery, utmValueSchema } from './utm.ts';
export type { Utm, UtmField } from './utm.ts';
export type { Preview } from './preview.ts';
export { payloadOf, scanUrl } from './payload.ts';
export type { PayloadSource } from './payload.ts';
export { codeResourceSchema, presentCode } from './presenter.ts';
export { CODE_TYPES, parseCreateCode } from './schemas.ts';
export type { CreateCodeInput } from './schemas.ts';
export { createCodesService } from './service.ts';
export type { CodeEvent, CodesServiceDeps } from './service.ts';
export { CUSTOM_SLUG, PREVIEW_SLUG, SLUG_LENGTH, isReservedPath } from './slug.ts';
export { createCodesStore, createOwnedCodeIds, newCodeOf } from './store.ts';
export type { CodeWithoutRouting, CodesStore, CountLimitedScans, NewCode, OwnedCodeIds } from './store.ts';
