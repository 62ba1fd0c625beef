// The public JSON of workspaces and members. A workspace's schema is the users module's (the
// sign-in answer lists them too); a member's is here.
import { z } from 'zod';
import { ROLES } from '../../shared/roles.ts';
import { listOf } from '../../http/openapi/common.ts';
import { presentUser, userSchema, workspaceSchema, type WorkspaceJson } from '../users/index.ts';
import type { Member, Workspace } from './service.ts';

export const memberSchema = z
  .object({
    object: z.literal('member'),
    user: userSchema,
    role: z.enum(ROLES),
    created_at: z.iso.datetime().meta({ description: 'When the user joined the workspace.' }),
  })
  .meta({ id: 'Member', description: 'A member of a workspace, with the role.' });
export type MemberJson = z.output<typeof memberSchema>;

export const workspaceListSchema = listOf(workspaceSchema, 'WorkspaceList');
export const memberListSchema = listOf(memberSchema, 'MemberList');

export const presentWorkspace = ({ account, membership }: Workspace): WorkspaceJson => ({
  id: account.id,
  object: 'workspace',
  name: account.name,
  role: membership.role,
  created_at: account.createdAt.toISOString(),
});

export const presentMember = ({ membership, user }: Member): MemberJson => ({
  object: 'member',
  user: presentUser(user),
  role: membership.role,
  created_at: membership.createdAt.toISOString(),
});
