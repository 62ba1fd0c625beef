// The public JSON of invitations: what owners and admins list, what the invited see before
// accepting, and the answer to inviting (the link, shown this once).
import { z } from 'zod';
import { ROLES } from '../../shared/roles.ts';
import type { Invitation } from './invitation-store.ts';
import type { InvitationPreview } from './invitations.ts';

const instant = z.iso.datetime();
const role = z.enum(ROLES).meta({ description: 'The role the invited person joins with.' });

export const invitationSchema = z
  .object({
    id: z.string().meta({ example: 'inv_5hJ2aC4eX7uQ9LmV3bN8' }),
    object: z.literal('invitation'),
    workspace_id: z.string().meta({ example: 'acct_2bN7xQ4mK9pL1vT5rW8z' }),
    email: z.string().nullable().meta({ description: 'Who may accept it; null: whoever holds the link.' }),
    role,
    invited_by: z.string().meta({ description: 'The user who invited (`user_…`).' }),
    created_at: instant,
    expires_at: instant,
  })
  .meta({ id: 'Invitation', description: 'A pending invitation to a workspace.' });

export const invitationListSchema = z
  .object({ object: z.literal('list'), data: z.array(invitationSchema) })
  .meta({ id: 'InvitationList', description: 'The workspace’s pending invitations, newest first. Not paginated.' });

export const newInvitationSchema = invitationSchema
  .extend({
    link: z.string().meta({
      description: 'The link to accept it: shown only this once (only its hash is kept).',
      example: 'https://qr.example.com/dashboard/invite?token=qrinv_…',
    }),
    email_sent: z.boolean().meta({ description: 'Whether the link was mailed (an email given, SMTP_URL set, sent).' }),
  })
  .meta({ id: 'NewInvitation', description: 'The invitation made, with its link.' });

export const invitationPreviewSchema = z
  .object({
    object: z.literal('invitation_preview'),
    workspace_name: z.string().meta({ example: 'Marketing' }),
    role,
    email: z.string().nullable().meta({ description: 'Who may accept it; null: whoever holds the link.' }),
    expires_at: instant,
  })
  .meta({ id: 'InvitationPreview', description: 'What a pending invitation offers, shown before accepting.' });

export const presentInvitation = (invitation: Invitation): z.output<typeof invitationSchema> => ({
  id: invitation.id,
  object: 'invitation',
  workspace_id: invitation.accountId,
  email: invitation.email,
  role: invitation.role,
  invited_by: invitation.invitedBy,
  created_at: invitation.createdAt.toISOString(),
  expires_at: invitation.expiresAt.toISOString(),
});

export const presentInvitationPreview = ({
  invitation,
  workspaceName,
}: InvitationPreview): z.output<typeof invitationPreviewSchema> => ({
  object: 'invitation_preview',
  workspace_name: workspaceName,
  role: invitation.role,
  email: invitation.email,
  expires_at: invitation.expiresAt.toISOString(),
});
