// The UTM templates operations in the OpenAPI document: the same schemas that validate the
// requests (schemas.ts) and shape the answers (presenter.ts).
import { z } from 'zod';
import { pathParams, resourceOperations, type OpenApiModule } from '../../http/openapi/common.ts';
import { utmTemplateResourceSchema } from './presenter.ts';
import { createUtmTemplateSchema, updateUtmTemplateSchema } from './schemas.ts';
import { MAX_UTM_TEMPLATES } from './service.ts';

const TAG = 'UTM templates';

const templates = resourceOperations({
  tag: TAG,
  resource: utmTemplateResourceSchema,
  idParams: pathParams({ id: { description: 'The template’s id.', example: 'utm_8kD2mQ9xT4pL0aZc7VbN' } }),
  read: 'codes:read',
  write: 'codes:write',
  create: {
    operationId: 'createUtmTemplate',
    summary: 'Create a UTM template',
    description: `A name and at least one of the five UTM fields. At most ${MAX_UTM_TEMPLATES} per account.`,
    body: createUtmTemplateSchema.meta({
      id: 'CreateUtmTemplate',
      example: { name: 'Print posters', utm_source: 'poster', utm_medium: 'print' },
    }),
    location: z.object({
      Location: z
        .string()
        .meta({ description: 'The template’s URL.', example: '/v1/utm-templates/utm_8kD2mQ9xT4pL0aZc7VbN' }),
    }),
    answered: 'The new template.',
    problems: [422],
  },
  list: {
    operationId: 'listUtmTemplates',
    summary: 'List UTM templates',
    description:
      `Every template of the account, oldest first (at most ${MAX_UTM_TEMPLATES}: \`next_cursor\` is ` +
      'always null).',
    listId: 'UtmTemplateList',
    answered: 'The account’s templates.',
    problems: [],
  },
  get: { operationId: 'getUtmTemplate', summary: 'Get a UTM template', answered: 'The template.', problems: [404] },
  update: {
    operationId: 'updateUtmTemplate',
    summary: 'Change a UTM template',
    description:
      'A new name or fields; null removes a field (at least one must remain). Codes made from the template keep ' +
      'the fields they were given.',
    body: updateUtmTemplateSchema.meta({ id: 'UpdateUtmTemplate', example: { utm_campaign: 'summer-2026' } }),
    answered: 'The template after the change.',
    problems: [404, 422],
  },
  remove: {
    operationId: 'deleteUtmTemplate',
    summary: 'Delete a UTM template',
    description: 'Codes made from it keep their UTM fields.',
    problems: [404],
  },
});

export const utmTemplatesOpenApi: OpenApiModule = {
  tag: {
    name: TAG,
    description:
      'Saved sets of UTM fields of the account. A url code starts from one with `utm_template_id` on create: the ' +
      'template’s fields are copied into the code’s `utm` (fields given in `utm` win), so later changes to the ' +
      'template do not reach codes made from it.',
  },
  paths: { '/utm-templates': templates.collection, '/utm-templates/{id}': templates.item },
};
