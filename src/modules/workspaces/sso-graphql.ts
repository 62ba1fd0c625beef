// GraphQL of a workspace's single sign-on settings (owners only), through the same service
// calls as REST. The sign-in itself is a browser's redirects, REST only.
import { z } from 'zod';
import { builder } from '../../graphql/builder.ts';
import type { GraphQLContext } from '../../graphql/context.ts';
import { enumOf } from '../../graphql/enums.ts';
import { snakeKeys } from '../../graphql/inputs.ts';
import { zodInputType } from '../../graphql/zod-inputs.ts';
import { parseInput } from '../../shared/validation.ts';
import { graphqlPersonOf } from './graphql-person.ts';
import type { Person } from './service.ts';
import { putSsoSchema, SSO_ROLES } from './sso-schemas.ts';
import type { SsoSettings } from './sso-store.ts';
import type { Sso } from './sso.ts';

declare module '../../graphql/context.ts' {
  interface GraphQLServices {
    sso: Sso;
  }
}

const SsoRoleEnum = enumOf('SsoRole', z.enum(SSO_ROLES), 'The role of someone who joins by signing in (never owner).');

const SsoSettingsRef = builder.objectRef<SsoSettings>('SsoSettings').implement({
  description: 'A workspace’s single sign-on through an OpenID Connect provider. The client secret is never answered.',
  fields: (t) => ({
    issuer: t.exposeString('issuer'),
    clientId: t.exposeString('clientId'),
    domains: t.exposeStringList('domains'),
    defaultRole: t.field({ type: SsoRoleEnum, resolve: (s) => s.defaultRole }),
    enabled: t.exposeBoolean('enabled'),
    redirectUri: t.string({
      description: 'The redirect URI to register with the identity provider.',
      resolve: (_s, _args, ctx) => ctx.services.sso.redirectUri,
    }),
    updatedAt: t.field({ type: 'DateTime', resolve: (s) => s.updatedAt }),
  }),
});

const SsoSettingsInput = zodInputType('SsoSettingsInput', putSsoSchema, {
  types: { defaultRole: SsoRoleEnum },
});

/** The signed-in person; keys and tokens cannot manage single sign-on. */
const ownerOf = (ctx: GraphQLContext): Person =>
  graphqlPersonOf(ctx, 'Single sign-on is managed by signed-in owners; API keys and tokens cannot.');

builder.queryFields((t) => ({
  workspaceSso: t.field({
    type: SsoSettingsRef,
    nullable: true,
    description: 'The workspace’s single sign-on settings (owners only); null when none are set.',
    args: { workspaceId: t.arg.id({ required: true }) },
    resolve: (_root, args, ctx) => ctx.services.sso.settings.find(ownerOf(ctx), String(args.workspaceId)),
  }),
}));

builder.mutationFields((t) => ({
  setWorkspaceSso: t.field({
    type: SsoSettingsRef,
    description: 'Set the workspace’s single sign-on whole (owners only); a domain another workspace covers is a 409.',
    args: { workspaceId: t.arg.id({ required: true }), input: t.arg({ type: SsoSettingsInput, required: true }) },
    resolve: (_root, args, ctx) =>
      ctx.services.sso.settings.put(
        ownerOf(ctx),
        String(args.workspaceId),
        parseInput(putSsoSchema, snakeKeys(args.input)),
      ),
  }),
  removeWorkspaceSso: t.field({
    type: 'ID',
    description: 'Remove the workspace’s single sign-on (owners only); answers the workspace’s id.',
    args: { workspaceId: t.arg.id({ required: true }) },
    resolve: async (_root, args, ctx) => {
      await ctx.services.sso.settings.remove(ownerOf(ctx), String(args.workspaceId));
      return String(args.workspaceId);
    },
  }),
}));
