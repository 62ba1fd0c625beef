// The users module's public face: people, their password and their sessions.
export { assertStrongPassword } from './password-policy.ts';
export { displayNameSchema, emailSchema, newPasswordSchema, setupSchema } from './schemas.ts';
export type { SetupInput } from './schemas.ts';
export { presentSignedIn, presentUser, signedInSchema, userSchema, workspaceSchema } from './presenter.ts';
export type { WorkspaceJson } from './presenter.ts';
export { createUsersService } from './service.ts';
export type { NewSession, SignInContext, SignedIn, UsersService } from './service.ts';
export { createUsersStore } from './store.ts';
export type { SessionRecord, UserRecord, UsersStore } from './store.ts';
export { createPasswordResets } from './password-reset.ts';
export { createSecondFactor } from './second-factor.ts';
export type { SecondFactor } from './second-factor.ts';
export { createSecondFactorStore } from './second-factor-store.ts';
export type { PasswordResets } from './password-reset.ts';
export { createPasskeys, relyingPartyOf } from './passkeys.ts';
export type { Passkeys } from './passkeys.ts';
export { createPasskeyStore } from './passkey-store.ts';
