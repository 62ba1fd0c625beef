// Workspaces, members and first-run setup in the OpenAPI document.
import { z } from 'zod';
import { jsonResponse, noContent, pathParams, personOperation, type OpenApiModule } from '../../http/openapi/common.ts';
import { setupSchema, signedInSchema, workspaceSchema } from '../users/index.ts';
import { invitationListSchema, invitationPreviewSchema, newInvitationSchema } from './invitation-presenter.ts';
import { memberListSchema, memberSchema, workspaceListSchema } from './presenter.ts';
import {
  acceptInvitationSchema,
  changeRoleSchema,
  createWorkspaceSchema,
  invitationTokenSchema,
  inviteSchema,
  listPageSchema,
  removeMemberQuerySchema,
  updateWorkspaceSchema,
} from './schemas.ts';
import { ssoPaths } from './sso-api-doc.ts';

const TAG = 'Workspaces and members';

const workspaceParams = pathParams({
  id: { description: 'The workspace’s (account’s) id.', example: 'acct_2bN7xQ4mK9pL1vT5rW8z' },
});
const memberParams = pathParams({
  id: { description: 'The workspace’s (account’s) id.', example: 'acct_2bN7xQ4mK9pL1vT5rW8z' },
  user_id: { description: 'The member’s user id.', example: 'user_4kT0Xb2Qm9LpV7sR1wZc' },
});
const invitationParams = pathParams({
  id: { description: 'The workspace’s (account’s) id.', example: 'acct_2bN7xQ4mK9pL1vT5rW8z' },
  invitation_id: { description: 'The invitation’s id.', example: 'inv_5hJ2aC4eX7uQ9LmV3bN8' },
});
const tokenBody = {
  required: true,
  content: { 'application/json': { schema: invitationTokenSchema.meta({ id: 'InvitationToken' }) } },
};
const location = z.object({
  Location: z
    .string()
    .meta({ description: 'The new workspace’s URL.', example: '/v1/workspaces/acct_2bN7xQ4mK9pL1vT5rW8z' }),
});
const setupBody = setupSchema.meta({
  id: 'Setup',
  example: {
    token: 'qrsetup_…',
    email: 'ada@example.com',
    display_name: 'Ada Lovelace',
    password: 'tangerine orbit canvas 42',
    workspace_name: 'Marketing',
  },
});

export const workspacesOpenApi: OpenApiModule = {
  tag: {
    name: TAG,
    description:
      'A workspace is an account (`acct_…`): its codes, keys, domains and webhooks. People are members with a ' +
      'role: owner, admin, editor or viewer (docs/workspaces.md has the table of scopes). Members are managed by ' +
      'role, by signed-in people only; at least one owner always remains. Owners may let people sign in through ' +
      'the company’s OpenID Connect provider (single sign-on, per email domain).',
  },
  paths: {
    '/setup': {
      post: personOperation({
        operationId: 'completeSetup',
        summary: 'Create the first owner with a setup token',
        description:
          'The token comes from the server’s log on first run or from `cli users create-owner`; it works once and ' +
          'for an hour. Creates the user, their workspace (or joins the account the token names) and signs in.',
        tag: TAG,
        anonymous: true,
        requestBody: { required: true, content: { 'application/json': { schema: setupBody } } },
        responses: { '201': jsonResponse(signedInSchema, 'The owner, signed in; the cookie is set.') },
        problems: [401, 409, 422],
      }),
    },
    '/workspaces': {
      get: personOperation({
        operationId: 'listWorkspaces',
        summary: 'List my workspaces',
        tag: TAG,
        requestParams: { query: listPageSchema },
        responses: { '200': jsonResponse(workspaceListSchema, 'One page of workspaces, each with my role.') },
        problems: [422],
      }),
      post: personOperation({
        operationId: 'createWorkspace',
        summary: 'Create a workspace',
        description: 'The caller becomes its owner.',
        tag: TAG,
        requestBody: {
          required: true,
          content: { 'application/json': { schema: createWorkspaceSchema.meta({ id: 'CreateWorkspace' }) } },
        },
        responses: { '201': { ...jsonResponse(workspaceSchema, 'The new workspace.'), headers: location } },
        problems: [422],
      }),
    },
    '/workspaces/{id}': {
      get: personOperation({
        operationId: 'getWorkspace',
        summary: 'Get a workspace of mine',
        description: 'A workspace the caller is not a member of is a 404, like one that does not exist.',
        tag: TAG,
        requestParams: { path: workspaceParams },
        responses: { '200': jsonResponse(workspaceSchema, 'The workspace with my role.') },
        problems: [404],
      }),
      patch: personOperation({
        operationId: 'updateWorkspace',
        summary: 'Rename a workspace',
        description: 'Owners only.',
        tag: TAG,
        requestParams: { path: workspaceParams },
        requestBody: {
          required: true,
          content: { 'application/json': { schema: updateWorkspaceSchema.meta({ id: 'UpdateWorkspace' }) } },
        },
        responses: { '200': jsonResponse(workspaceSchema, 'The workspace as changed.') },
        problems: [404, 422],
      }),
    },
    '/workspaces/{id}/members': {
      get: personOperation({
        operationId: 'listMembers',
        summary: 'List a workspace’s members',
        tag: TAG,
        requestParams: { path: workspaceParams, query: listPageSchema },
        responses: { '200': jsonResponse(memberListSchema, 'One page of members.') },
        problems: [404, 422],
      }),
    },
    '/workspaces/{id}/members/{user_id}': {
      patch: personOperation({
        operationId: 'changeMemberRole',
        summary: 'Change a member’s role',
        description:
          'Owners change anyone’s; admins those of admins, editors and viewers, never to owner. The last owner ' +
          'cannot be demoted (409). Takes effect on the member’s next request.',
        tag: TAG,
        requestParams: { path: memberParams },
        requestBody: {
          required: true,
          content: { 'application/json': { schema: changeRoleSchema.meta({ id: 'ChangeMemberRole' }) } },
        },
        responses: { '200': jsonResponse(memberSchema, 'The member with the new role.') },
        problems: [404, 409, 422],
      }),
      delete: personOperation({
        operationId: 'removeMember',
        summary: 'Remove a member, or leave',
        description:
          'Anyone may leave; removing others follows the role rules. The last owner stays (409). The API keys the ' +
          'member made in the workspace are revoked with the membership, unless `keep_keys=true`.',
        tag: TAG,
        requestParams: { path: memberParams, query: removeMemberQuerySchema },
        responses: { '204': noContent },
        problems: [404, 409],
      }),
    },
    '/workspaces/{id}/invitations': {
      post: personOperation({
        operationId: 'inviteToWorkspace',
        summary: 'Invite someone to the workspace',
        description:
          'Owners invite with any role, admins with admin, editor or viewer. With an `email`, only that person may ' +
          'accept, and the link is mailed when the service has SMTP_URL (`email_sent`); the `link` is in the answer ' +
          'this once either way. It works once, for INVITATION_DAYS (7).',
        tag: TAG,
        requestParams: { path: workspaceParams },
        requestBody: {
          required: true,
          content: { 'application/json': { schema: inviteSchema.meta({ id: 'Invite' }) } },
        },
        responses: { '201': jsonResponse(newInvitationSchema, 'The invitation, with its link.') },
        problems: [404, 409, 422],
      }),
      get: personOperation({
        operationId: 'listInvitations',
        summary: 'List the pending invitations',
        description: 'For owners and admins: neither accepted, revoked nor expired.',
        tag: TAG,
        requestParams: { path: workspaceParams },
        responses: { '200': jsonResponse(invitationListSchema, 'The pending invitations.') },
        problems: [404],
      }),
    },
    '/workspaces/{id}/invitations/{invitation_id}': {
      delete: personOperation({
        operationId: 'revokeInvitation',
        summary: 'Revoke a pending invitation',
        description: 'Its link stops working at once. Admins cannot revoke an owner’s invitation.',
        tag: TAG,
        requestParams: { path: invitationParams },
        responses: { '204': noContent },
        problems: [404],
      }),
    },
    '/invitations/preview': {
      post: personOperation({
        operationId: 'previewInvitation',
        summary: 'What an invitation offers',
        description: 'The workspace, the role and whom it is for, before accepting. 401 when it is gone.',
        tag: TAG,
        anonymous: true,
        requestBody: tokenBody,
        responses: { '200': jsonResponse(invitationPreviewSchema, 'The invitation’s offer.') },
        problems: [401, 422],
      }),
    },
    '/invitations/accept': {
      post: personOperation({
        operationId: 'acceptInvitation',
        summary: 'Join a workspace as the signed-in person',
        description: 'The invitation is used up; an invitation for another email is a 403, a member already gets 409.',
        tag: TAG,
        requestBody: tokenBody,
        responses: { '200': jsonResponse(workspaceSchema, 'The workspace joined, with the role.') },
        problems: [401, 409, 422],
      }),
    },
    '/invitations/register': {
      post: personOperation({
        operationId: 'registerWithInvitation',
        summary: 'Join a workspace as a new user',
        description:
          'Makes the user (the invitation’s email, or the given one when it names none; a name; a strong ' +
          'password), joins them with the invitation’s role and signs them in.',
        tag: TAG,
        anonymous: true,
        requestBody: {
          required: true,
          content: {
            'application/json': {
              schema: acceptInvitationSchema.meta({
                id: 'RegisterWithInvitation',
                example: { token: 'qrinv_…', display_name: 'Grace Hopper', password: 'tangerine orbit canvas 42' },
              }),
            },
          },
        },
        responses: { '201': jsonResponse(signedInSchema, 'The new member, signed in; the cookie is set.') },
        problems: [401, 409, 422],
      }),
    },
    ...ssoPaths(TAG),
  },
};
