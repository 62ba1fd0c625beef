// GraphQL types, queries and mutations for tags: the same service calls as REST. A code's
// `tags` field (names) is on Code, in codes/graphql.ts.
import { builder } from '../../graphql/builder.ts';
import { compact, snakeKeys } from '../../graphql/inputs.ts';
import { connectionOf, forwardOnly, orNull } from '../../graphql/pages.ts';
import { scoped } from '../../graphql/scoped.ts';
import { zodInputType } from '../../graphql/zod-inputs.ts';
import { parseInput } from '../../shared/validation.ts';
import { createTagSchema, listTagsSchema, updateTagSchema } from './schemas.ts';
import type { Tag } from './store.ts';
import type { TagsService } from './service.ts';

// What this module's resolvers find in the context (graphql/context.ts explains the merging).
declare module '../../graphql/context.ts' {
  interface GraphQLServices {
    tags: TagsService;
  }
}

export const TagRef = builder.objectRef<Tag>('Tag').implement({
  description: 'A label of the account for its codes; codes name their tags by `name`.',
  fields: (t) => ({
    id: t.exposeID('id'),
    name: t.exposeString('name', { description: 'Unique in the account, ignoring case.' }),
    color: t.exposeString('color', { nullable: true, description: '#rrggbb, or null.' }),
    codeCount: t.exposeInt('codeCount', { description: 'How many of the account’s codes carry it.' }),
    createdAt: t.field({ type: 'DateTime', resolve: (tag) => tag.createdAt }),
  }),
});

const CreateTagInput = zodInputType('CreateTagInput', createTagSchema, {
  descriptions: {
    name: '1-50 characters after trimming, unique in the account ignoring case; no |.',
    color: '#rrggbb.',
  },
});

const UpdateTagInput = zodInputType('UpdateTagInput', updateTagSchema, {
  descriptions: {
    name: 'A new name; one another tag has (in any case) is a conflict.',
    color: 'A new colour; null removes it.',
  },
});

const DeleteTagPayload = builder.objectRef<{ deletedId: string }>('DeleteTagPayload').implement({
  fields: (t) => ({ deletedId: t.exposeID('deletedId') }),
});

builder.queryFields((t) => ({
  tag: t.field({
    type: TagRef,
    nullable: true,
    description: 'One of the caller’s tags; null when there is none with this id.',
    args: { id: t.arg.id({ required: true }) },
    resolve: scoped('codes:read', (_root, { id }, ctx) => orNull(ctx.services.tags.get(ctx.principal, String(id)))),
  }),
  tags: t.connection({
    type: TagRef,
    description: 'The caller’s tags in name order (case ignored), each with its code count. Forward pagination only.',
    args: {},
    resolve: scoped('codes:read', async (_root, args, ctx) => {
      forwardOnly(args);
      return connectionOf(
        await ctx.services.tags.list(
          ctx.principal,
          parseInput(listTagsSchema, compact({ limit: args.first ?? undefined, cursor: args.after ?? undefined })),
        ),
        args.after,
      );
    }),
  }),
}));

builder.mutationFields((t) => ({
  createTag: t.field({
    type: TagRef,
    args: { input: t.arg({ type: CreateTagInput, required: true }) },
    resolve: scoped('codes:write', (_root, { input }, ctx) =>
      ctx.services.tags.create(ctx.principal, parseInput(createTagSchema, snakeKeys(input))),
    ),
  }),
  updateTag: t.field({
    type: TagRef,
    args: { id: t.arg.id({ required: true }), input: t.arg({ type: UpdateTagInput, required: true }) },
    resolve: scoped('codes:write', (_root, { id, input }, ctx) =>
      ctx.services.tags.update(
        ctx.principal,
        String(id),
        // An explicit null removes the colour.
        parseInput(updateTagSchema, snakeKeys(input, ['color'])),
      ),
    ),
  }),
  deleteTag: t.field({
    type: DeleteTagPayload,
    args: { id: t.arg.id({ required: true }) },
    resolve: scoped('codes:write', async (_root, { id }, ctx) => {
      await ctx.services.tags.remove(ctx.principal, String(id));
      return { deletedId: String(id) };
    }),
  }),
}));
