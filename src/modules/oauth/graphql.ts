// GraphQL for the grants the account gave OAuth clients (the dashboard's Connected apps page):
// the same service as GET and DELETE /v1/oauth-grants, with the same scope, keys:manage.
import { builder } from '../../graphql/builder.ts';
import { scoped } from '../../graphql/scoped.ts';
import type { OAuthGrant } from './grant-store.ts';
import type { GrantsService } from './grants.ts';
import type { OAuthService } from './service.ts';

// What this module's resolvers find in the context (graphql/context.ts explains the merging).
declare module '../../graphql/context.ts' {
  interface GraphQLServices {
    oauth: OAuthService;
    oauthGrants: GrantsService;
  }
}

type GrantWithClient = OAuthGrant & { clientName: string | null };

const OAuthGrantRef = builder.objectRef<GrantWithClient>('OAuthGrant').implement({
  description:
    'The consent the account gave an OAuth client: the client acts for the account with these scopes until the ' +
    'grant expires or is withdrawn.',
  fields: (t) => ({
    id: t.exposeID('id'),
    clientId: t.exposeID('clientId'),
    clientName: t.exposeString('clientName', { nullable: true, description: 'Null once the client is deleted.' }),
    scopes: t.exposeStringList('scopes'),
    approvedByKeyId: t.exposeID('approvedByKeyId', {
      nullable: true,
      description:
        'The API key that approved it; revoking that key withdraws the grant. Null for grants given before this was ' +
        'recorded.',
    }),
    createdAt: t.field({ type: 'DateTime', resolve: (g) => g.createdAt }),
    expiresAt: t.field({ type: 'DateTime', nullable: true, resolve: (g) => g.expiresAt }),
  }),
});

const RevokeOAuthGrantPayload = builder.objectRef<{ revokedId: string }>('RevokeOAuthGrantPayload').implement({
  fields: (t) => ({ revokedId: t.exposeID('revokedId') }),
});

builder.queryFields((t) => ({
  oauthGrants: t.field({
    type: [OAuthGrantRef],
    description: 'Every live grant the account gave OAuth clients, newest first. Not paginated.',
    resolve: scoped('keys:manage', async (_root, _args, ctx) => {
      const grants = await ctx.services.oauthGrants.list(ctx.principal);
      return Promise.all(
        grants.map(async (grant) => ({ ...grant, clientName: await ctx.services.oauth.clientName(grant.clientId) })),
      );
    }),
  }),
}));

builder.mutationFields((t) => ({
  revokeOAuthGrant: t.field({
    type: RevokeOAuthGrantPayload,
    description:
      'Withdraws a grant: its refresh tokens end at once, its access tokens are refused (other processes within ' +
      'API_KEY_CACHE_TTL_MS).',
    args: { id: t.arg.id({ required: true }) },
    resolve: scoped('keys:manage', async (_root, { id }, ctx) => {
      await ctx.services.oauthGrants.revoke(ctx.principal, String(id));
      return { revokedId: String(id) };
    }),
  }),
}));
