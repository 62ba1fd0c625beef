// GraphQL types, queries and mutations for UTM templates: the same service calls as REST.
import { builder } from '../../graphql/builder.ts';
import { snakeKeys } from '../../graphql/inputs.ts';
import { orNull } from '../../graphql/pages.ts';
import { scoped } from '../../graphql/scoped.ts';
import { zodInputType } from '../../graphql/zod-inputs.ts';
import { parseInput } from '../../shared/validation.ts';
import { UTM_FIELDS } from '../codes/index.ts';
import { createUtmTemplateSchema, updateUtmTemplateSchema } from './schemas.ts';
import type { UtmTemplatesService } from './service.ts';
import type { UtmTemplate } from './store.ts';

// What this module's resolvers find in the context (graphql/context.ts explains the merging).
declare module '../../graphql/context.ts' {
  interface GraphQLServices {
    utmTemplates: UtmTemplatesService;
  }
}

const UtmTemplateRef = builder.objectRef<UtmTemplate>('UtmTemplate').implement({
  description: 'A saved set of UTM fields a new url code can start from (CreateCodeInput.utmTemplateId).',
  fields: (t) => ({
    id: t.exposeID('id'),
    name: t.exposeString('name'),
    utmSource: t.string({ nullable: true, resolve: (template) => template.utm.utm_source ?? null }),
    utmMedium: t.string({ nullable: true, resolve: (template) => template.utm.utm_medium ?? null }),
    utmCampaign: t.string({ nullable: true, resolve: (template) => template.utm.utm_campaign ?? null }),
    utmTerm: t.string({ nullable: true, resolve: (template) => template.utm.utm_term ?? null }),
    utmContent: t.string({ nullable: true, resolve: (template) => template.utm.utm_content ?? null }),
    createdAt: t.field({ type: 'DateTime', resolve: (template) => template.createdAt }),
    updatedAt: t.field({ type: 'DateTime', resolve: (template) => template.updatedAt }),
  }),
});

const CreateUtmTemplateInput = zodInputType('CreateUtmTemplateInput', createUtmTemplateSchema, {
  description: 'A name and at least one UTM field.',
});

const UpdateUtmTemplateInput = zodInputType('UpdateUtmTemplateInput', updateUtmTemplateSchema, {
  description: 'A new name or fields; null removes a field (at least one must remain).',
});

/** Where an explicit null in updateUtmTemplate removes a field. */
const NULL_CLEARS = UTM_FIELDS.map((f) => f.replace(/_([a-z])/g, (_, c: string) => c.toUpperCase()));

const DeleteUtmTemplatePayload = builder
  .objectRef<{ deletedId: string }>('DeleteUtmTemplatePayload')
  .implement({ fields: (t) => ({ deletedId: t.exposeID('deletedId') }) });

builder.queryFields((t) => ({
  utmTemplates: t.field({
    type: [UtmTemplateRef],
    description: 'The account’s UTM templates, oldest first.',
    resolve: scoped('codes:read', (_root, _args, ctx) => ctx.services.utmTemplates.list(ctx.principal)),
  }),
  utmTemplate: t.field({
    type: UtmTemplateRef,
    nullable: true,
    args: { id: t.arg.id({ required: true }) },
    resolve: scoped('codes:read', (_root, { id }, ctx) =>
      orNull(ctx.services.utmTemplates.get(ctx.principal, String(id))),
    ),
  }),
}));

builder.mutationFields((t) => ({
  createUtmTemplate: t.field({
    type: UtmTemplateRef,
    args: { input: t.arg({ type: CreateUtmTemplateInput, required: true }) },
    resolve: scoped('codes:write', (_root, { input }, ctx) =>
      ctx.services.utmTemplates.create(ctx.principal, parseInput(createUtmTemplateSchema, snakeKeys(input))),
    ),
  }),
  updateUtmTemplate: t.field({
    type: UtmTemplateRef,
    args: { id: t.arg.id({ required: true }), input: t.arg({ type: UpdateUtmTemplateInput, required: true }) },
    resolve: scoped('codes:write', (_root, { id, input }, ctx) =>
      ctx.services.utmTemplates.update(
        ctx.principal,
        String(id),
        parseInput(updateUtmTemplateSchema, snakeKeys(input, NULL_CLEARS)),
      ),
    ),
  }),
  deleteUtmTemplate: t.field({
    type: DeleteUtmTemplatePayload,
    args: { id: t.arg.id({ required: true }) },
    resolve: scoped('codes:write', async (_root, { id }, ctx) => {
      await ctx.services.utmTemplates.remove(ctx.principal, String(id));
      return { deletedId: String(id) };
    }),
  }),
}));
