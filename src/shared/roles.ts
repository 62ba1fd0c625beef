// The roles a member holds in a workspace, and what each may do: the one table of it (docs/
// workspaces.md repeats it). A session's principal carries its role's scopes, so every route's
// scope check applies to people exactly as to keys. Managing members is checked by role, not by
// scope: no key or OAuth token can manage members.
import { z } from 'zod';
import { SCOPES, type Scope } from './principal.ts';

export const ROLES = ['owner', 'admin', 'editor', 'viewer'] as const;
export type Role = (typeof ROLES)[number];
export const roleSchema = z.enum(ROLES, { error: `must be one of ${ROLES.join(', ')}` });

interface RoleRules {
  scopes: readonly Scope[];
  /** Whose memberships this role may change or end (besides leaving, which anyone may). */
  manages: readonly Role[];
  /** Renaming and (later) deleting the workspace. */
  ownsWorkspace: boolean;
}

export const ROLE_RULES: Readonly<Record<Role, RoleRules>> = {
  owner: { scopes: SCOPES, manages: ROLES, ownsWorkspace: true },
  admin: { scopes: SCOPES, manages: ['admin', 'editor', 'viewer'], ownsWorkspace: false },
  // Tags, routing, bulk and images are under the codes scopes.
  editor: { scopes: ['codes:read', 'codes:write', 'analytics:read'], manages: [], ownsWorkspace: false },
  viewer: { scopes: ['codes:read', 'analytics:read'], manages: [], ownsWorkspace: false },
};

const SCOPE_SETS = new Map(ROLES.map((role) => [role, new Set(ROLE_RULES[role].scopes)]));

export const scopesOfRole = (role: Role): ReadonlySet<Scope> => SCOPE_SETS.get(role)!;

export const isRole = (value: string): value is Role => (ROLES as readonly string[]).includes(value);
