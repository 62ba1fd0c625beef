// Input schemas of workspaces and members, shared by REST and GraphQL.
import { z } from 'zod';
import { roleSchema } from '../../shared/roles.ts';
import { displayNameSchema, emailSchema, newPasswordSchema } from '../users/index.ts';

export const MAX_PAGE_SIZE = 200;

export const listPageSchema = z.strictObject({
  limit: z.coerce
    .number({ error: 'must be a number' })
    .int('must be a whole number')
    .min(1, 'must be at least 1')
    .max(MAX_PAGE_SIZE, `must be at most ${MAX_PAGE_SIZE}`)
    .default(50),
  cursor: z.string().max(500).optional().meta({ description: 'The `next_cursor` of the previous page.' }),
});
export type ListPageQuery = z.output<typeof listPageSchema>;

const workspaceName = z
  .string({ error: 'must be a string' })
  .trim()
  .min(1, 'must not be empty')
  .max(191, 'must be at most 191 characters')
  .meta({ example: 'Marketing' });

export const createWorkspaceSchema = z.strictObject({ name: workspaceName });
export type CreateWorkspaceInput = z.output<typeof createWorkspaceSchema>;

export const updateWorkspaceSchema = z.strictObject({ name: workspaceName.optional() });
export type UpdateWorkspaceInput = z.output<typeof updateWorkspaceSchema>;

export const changeRoleSchema = z.strictObject({ role: roleSchema.meta({ example: 'editor' }) });
export type ChangeRoleInput = z.output<typeof changeRoleSchema>;

export const inviteSchema = z.strictObject({
  email: emailSchema.optional().meta({
    description: 'Who may accept it; the link is mailed there when SMTP_URL is set. Absent: whoever holds the link.',
  }),
  role: roleSchema.meta({ description: 'The role the invited person joins with.' }),
});
export type InviteInput = z.output<typeof inviteSchema>;

const invitationToken = z
  .string({ error: 'must be a string' })
  .min(1, 'must not be empty')
  .max(200)
  .meta({ description: 'The token of the invitation’s link.', example: 'qrinv_…' });

export const invitationTokenSchema = z.strictObject({ token: invitationToken });

/**
 * Accepting an invitation: a signed-in person joins with the token alone; anyone else becomes a
 * new user with an email (the invitation's, if it names one), a name and a password.
 */
export const acceptInvitationSchema = z.strictObject({
  token: invitationToken,
  email: emailSchema.optional(),
  display_name: displayNameSchema.optional(),
  password: newPasswordSchema.optional(),
});
export type AcceptInvitationInput = z.output<typeof acceptInvitationSchema>;

export const removeMemberQuerySchema = z.strictObject({
  keep_keys: z
    .enum(['true', 'false'], { error: "must be 'true' or 'false'" })
    .transform((value) => value === 'true')
    .optional()
    .meta({
      description: 'Keep the API keys the member made working (they are revoked with the membership otherwise).',
    }),
});
