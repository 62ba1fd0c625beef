// The workspaces module's public face: memberships, roles at work, member management, setup,
// single sign-on.
export { createInvitationsStore } from './invitation-store.ts';
export { createInvitations } from './invitations.ts';
export type { Invitations } from './invitations.ts';
export { presentWorkspace } from './presenter.ts';
export { createWorkspacePrincipals } from './principals.ts';
export { createWorkspacesService } from './service.ts';
export type { Person, WorkspacesService } from './service.ts';
export { createSetup, SETUP_TOKEN_TTL_MS } from './setup.ts';
export type { Setup } from './setup.ts';
export { createSso } from './sso.ts';
export type { Sso } from './sso.ts';
export { createMembershipsStore } from './store.ts';
export type { MembershipsStore } from './store.ts';
