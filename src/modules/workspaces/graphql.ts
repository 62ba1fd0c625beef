// GraphQL for people: `me` (the signed-in user and their workspaces; null for a key or token)
// and member management by role, through the same service calls as REST. Neither needs a scope:
// `me` is about the caller, and member changes are checked by role, refused to keys and tokens.
import { z } from 'zod';
import { builder } from '../../graphql/builder.ts';
import { enumOf } from '../../graphql/enums.ts';
import type { GraphQLContext } from '../../graphql/context.ts';
import { userIdOf } from '../../shared/principal.ts';
import { ROLES } from '../../shared/roles.ts';
import type { UserRecord, UsersService } from '../users/index.ts';
import type { Member, Person, Workspace, WorkspacesService } from './service.ts';
import { graphqlPersonOf } from './graphql-person.ts';
import './sso-graphql.ts';

// What this module's resolvers find in the context (graphql/context.ts explains the merging).
declare module '../../graphql/context.ts' {
  interface GraphQLServices {
    users: UsersService;
    workspaces: WorkspacesService;
  }
}

const RoleEnum = enumOf('Role', z.enum(ROLES), 'A member’s role in a workspace (docs/workspaces.md has the scopes).');

const UserRef = builder.objectRef<UserRecord>('User').implement({
  description: 'A person who signs in.',
  fields: (t) => ({
    id: t.exposeID('id'),
    email: t.exposeString('email'),
    displayName: t.exposeString('displayName'),
    emailVerified: t.boolean({
      description: 'Whether the user proved they read mail at the address (docs/workspaces.md).',
      resolve: (user) => user.emailVerifiedAt !== null,
    }),
    createdAt: t.field({ type: 'DateTime', resolve: (user) => user.createdAt }),
  }),
});

const WorkspaceRef = builder.objectRef<Workspace>('Workspace').implement({
  description: 'A workspace (an account) with the signed-in user’s role in it.',
  fields: (t) => ({
    id: t.id({ resolve: (w) => w.account.id }),
    name: t.string({ resolve: (w) => w.account.name }),
    role: t.field({ type: RoleEnum, resolve: (w) => w.membership.role }),
  }),
});

const MemberRef = builder.objectRef<Member>('Member').implement({
  description: 'A member of a workspace.',
  fields: (t) => ({
    user: t.field({ type: UserRef, resolve: (m) => m.user }),
    role: t.field({ type: RoleEnum, resolve: (m) => m.membership.role }),
    joinedAt: t.field({ type: 'DateTime', resolve: (m) => m.membership.createdAt }),
  }),
});

const MeRef = builder.objectRef<{ user: UserRecord; workspaces: Workspace[] }>('Me').implement({
  description: 'The signed-in user and their workspaces (up to 200).',
  fields: (t) => ({
    user: t.field({ type: UserRef, resolve: (me) => me.user }),
    workspaces: t.field({ type: [WorkspaceRef], resolve: (me) => me.workspaces }),
  }),
});

/** The signed-in person of a session request; keys and tokens manage no members. */
const personOf = (ctx: GraphQLContext): Person =>
  graphqlPersonOf(ctx, 'Members are managed by signed-in people; API keys and tokens cannot.');

builder.queryFields((t) => ({
  me: t.field({
    type: MeRef,
    nullable: true,
    description: 'The signed-in user and their workspaces; null for an API key or access token.',
    resolve: async (_root, _args, ctx) => {
      const userId = userIdOf(ctx.principal);
      if (!userId) return null;
      const user = await ctx.services.users.me(userId);
      const page = await ctx.services.workspaces.listMine(userId, { limit: 200 });
      return { user, workspaces: page.data };
    },
  }),
}));

builder.mutationFields((t) => ({
  changeMemberRole: t.field({
    type: MemberRef,
    description: 'Change a member’s role (owners; admins below owner). The last owner stays.',
    args: {
      workspaceId: t.arg.id({ required: true }),
      userId: t.arg.id({ required: true }),
      role: t.arg({ type: RoleEnum, required: true }),
    },
    resolve: (_root, args, ctx) =>
      ctx.services.workspaces.changeRole(personOf(ctx), String(args.workspaceId), String(args.userId), args.role),
  }),
  removeMember: t.field({
    type: 'ID',
    description:
      'Remove a member, or leave; answers the removed user’s id. The last owner stays. The API keys the member ' +
      'made in the workspace are revoked with it unless keepKeys.',
    args: {
      workspaceId: t.arg.id({ required: true }),
      userId: t.arg.id({ required: true }),
      keepKeys: t.arg.boolean({ required: false, description: 'Keep the keys the member made working.' }),
    },
    resolve: async (_root, args, ctx) => {
      await ctx.services.workspaces.removeMember(
        personOf(ctx),
        String(args.workspaceId),
        String(args.userId),
        args.keepKeys ?? false,
      );
      return String(args.userId);
    },
  }),
}));
