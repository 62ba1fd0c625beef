// REST routes of workspaces and their members, for signed-in people (keys and tokens act for
// one workspace and cannot manage members), and the first-run setup.
import type { Router } from '@koa/router';
import { sessionOf, type AppContext, type AppState } from '../../http/context.ts';
import type { RouteEdge } from '../../http/route-edge.ts';
import { parseInput } from '../../shared/validation.ts';
import { personOf, signInContextOf } from './route-callers.ts';
import { presentSignedIn, setupSchema, type NewSession } from '../users/index.ts';
import { presentInvitation, presentInvitationPreview } from './invitation-presenter.ts';
import type { Invitations } from './invitations.ts';
import { presentMember, presentWorkspace } from './presenter.ts';
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
import type { Setup } from './setup.ts';
import type { WorkspacesService } from './service.ts';

export function registerWorkspaceRoutes(
  router: Router<AppState>,
  deps: RouteEdge & { workspaces: WorkspacesService; invitations: Invitations; setup: Setup; sessionSeconds: number },
): void {
  const { workspaces, invitations, setup, json, signedIn, sessionCookie, callerAddressHash } = deps;
  const contextOf = (ctx: AppContext) => signInContextOf(ctx, callerAddressHash);
  /** Answers 201 with a new user's session: the cookie set, the user, their workspaces, the CSRF token. */
  const signedInAnswer = async (ctx: AppContext, started: NewSession) => {
    sessionCookie.set(ctx, started.token, deps.sessionSeconds);
    ctx.status = 201;
    const mine = await workspaces.listMine(started.user.id, { limit: 200 });
    ctx.body = presentSignedIn(started, started.token, mine.data.map(presentWorkspace));
  };

  // POST /v1/setup: with the one-time setup token, create the first owner (and workspace) and sign in
  router.post('/setup', json, async (ctx) => {
    const input = parseInput(setupSchema, ctx.request.body);
    await signedInAnswer(ctx, await setup.complete(input, await contextOf(ctx)));
  });

  // POST /v1/workspaces/:id/invitations: invite by email (mailed with SMTP) and by link (owners, admins)
  router.post('/workspaces/:id/invitations', signedIn, json, async (ctx) => {
    const input = parseInput(inviteSchema, ctx.request.body);
    const made = await invitations.invite(personOf(ctx), ctx.params.id!, input);
    ctx.status = 201;
    ctx.body = { ...presentInvitation(made.invitation), link: made.link, email_sent: made.emailSent };
  });

  // GET /v1/workspaces/:id/invitations: the pending invitations (owners, admins)
  router.get('/workspaces/:id/invitations', signedIn, async (ctx) => {
    const pending = await invitations.pending(personOf(ctx), ctx.params.id!);
    ctx.body = { object: 'list', data: pending.map(presentInvitation) };
  });

  // DELETE /v1/workspaces/:id/invitations/:invitation_id: revoke a pending invitation (owners, admins)
  router.delete('/workspaces/:id/invitations/:invitation_id', signedIn, async (ctx) => {
    await invitations.revoke(personOf(ctx), ctx.params.id!, ctx.params.invitation_id!);
    ctx.status = 204;
  });

  // POST /v1/invitations/preview: what an invitation's link offers (workspace, role, email), before accepting
  router.post('/invitations/preview', json, async (ctx) => {
    const { token } = parseInput(invitationTokenSchema, ctx.request.body);
    ctx.body = presentInvitationPreview(await invitations.preview(token));
  });

  // POST /v1/invitations/accept: a signed-in person joins the invitation's workspace
  router.post('/invitations/accept', signedIn, json, async (ctx) => {
    const { token } = parseInput(invitationTokenSchema, ctx.request.body);
    const invitation = await invitations.acceptAs(sessionOf(ctx).userId, token, await contextOf(ctx));
    ctx.body = presentWorkspace(await workspaces.get(sessionOf(ctx).userId, invitation.accountId));
  });

  // POST /v1/invitations/register: someone without a user joins as a new user and is signed in
  router.post('/invitations/register', json, async (ctx) => {
    const input = parseInput(acceptInvitationSchema, ctx.request.body);
    await signedInAnswer(ctx, await invitations.acceptAsNewUser(input, await contextOf(ctx)));
  });

  // GET /v1/workspaces: one page of the caller's workspaces, each with the caller's role
  router.get('/workspaces', signedIn, async (ctx) => {
    const page = await workspaces.listMine(sessionOf(ctx).userId, parseInput(listPageSchema, ctx.query));
    ctx.body = { object: 'list', data: page.data.map(presentWorkspace), next_cursor: page.nextCursor };
  });

  // POST /v1/workspaces: a new workspace; the caller becomes its owner
  router.post('/workspaces', signedIn, json, async (ctx) => {
    const input = parseInput(createWorkspaceSchema, ctx.request.body);
    const created = await workspaces.create(personOf(ctx), input.name);
    ctx.status = 201;
    ctx.set('Location', `${router.opts.prefix}/workspaces/${created.account.id}`);
    ctx.body = presentWorkspace(created);
  });

  // GET /v1/workspaces/:id: one of the caller's workspaces (another one is a 404)
  router.get('/workspaces/:id', signedIn, async (ctx) => {
    ctx.body = presentWorkspace(await workspaces.get(sessionOf(ctx).userId, ctx.params.id!));
  });

  // PATCH /v1/workspaces/:id: rename (owners only)
  router.patch('/workspaces/:id', signedIn, json, async (ctx) => {
    const input = parseInput(updateWorkspaceSchema, ctx.request.body);
    ctx.body = presentWorkspace(await workspaces.update(personOf(ctx), ctx.params.id!, input));
  });

  // GET /v1/workspaces/:id/members: one page of the workspace's members, for any member
  router.get('/workspaces/:id/members', signedIn, async (ctx) => {
    const query = parseInput(listPageSchema, ctx.query);
    const page = await workspaces.members(sessionOf(ctx).userId, ctx.params.id!, query);
    ctx.body = { object: 'list', data: page.data.map(presentMember), next_cursor: page.nextCursor };
  });

  // PATCH /v1/workspaces/:id/members/:user_id: change a member's role (owners; admins below owner)
  router.patch('/workspaces/:id/members/:user_id', signedIn, json, async (ctx) => {
    const { role } = parseInput(changeRoleSchema, ctx.request.body);
    ctx.body = presentMember(await workspaces.changeRole(personOf(ctx), ctx.params.id!, ctx.params.user_id!, role));
  });

  // DELETE /v1/workspaces/:id/members/:user_id: remove a member, or leave (the last owner stays);
  // the keys they made in the workspace are revoked with it unless ?keep_keys=true
  router.delete('/workspaces/:id/members/:user_id', signedIn, async (ctx) => {
    const { keep_keys: keepKeys } = parseInput(removeMemberQuerySchema, ctx.query);
    await workspaces.removeMember(personOf(ctx), ctx.params.id!, ctx.params.user_id!, keepKeys);
    ctx.status = 204;
  });
}

// Single sign-on's routes live beside these, in their own file.
export { registerSsoRoutes } from './sso-routes.ts';
