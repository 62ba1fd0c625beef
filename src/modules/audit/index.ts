// The audit module's public face: what the rest of the service may use of it. It sits low
// (beside tags): every service that changes something records into it in its own transaction.
export { createAuditPurge } from './purge.ts';
export type { AuditPurge } from './purge.ts';
export { AUDIT_ACTIONS, AUDIT_OBJECT_TYPES } from './schemas.ts';
export type { AuditAction, AuditObjectType } from './schemas.ts';
export { createAuditService } from './service.ts';
export type { AuditChange, AuditService, AuditedCaller, RecordAudit } from './service.ts';
export { createAuditStore } from './store.ts';
export type { AuditStore } from './store.ts';
