// The tags operations in the OpenAPI document: the same schemas that validate the requests
// (schemas.ts) and shape the answers (presenter.ts).
import { z } from 'zod';
import { pathParams, resourceOperations, type OpenApiModule } from '../../http/openapi/common.ts';
import { tagResourceSchema } from './presenter.ts';
import { createTagSchema, listTagsSchema, updateTagSchema } from './schemas.ts';

const TAG = 'Tags';

const tags = resourceOperations({
  tag: TAG,
  resource: tagResourceSchema,
  idParams: pathParams({ id: { description: 'The tag’s id.', example: 'tag_8kD2mQ9xT4pL0aZc7VbN' } }),
  read: 'codes:read',
  write: 'codes:write',
  create: {
    operationId: 'createTag',
    summary: 'Create a tag',
    description:
      'A name the account already has, in any case, is a 409. At most TAGS_PER_ACCOUNT tags (1000 by default) per ' +
      'account.',
    body: createTagSchema.meta({ id: 'CreateTag', example: { name: 'print', color: '#e8710a' } }),
    location: z.object({
      Location: z.string().meta({ description: 'The tag’s URL.', example: '/v1/tags/tag_8kD2mQ9xT4pL0aZc7VbN' }),
    }),
    answered: 'The new tag.',
    problems: [409, 422],
  },
  list: {
    operationId: 'listTags',
    summary: 'List tags',
    description:
      'One page of the account’s tags in name order (case ignored), each with the number of codes carrying it.',
    query: listTagsSchema,
    listId: 'TagList',
    answered: 'One page of tags.',
    problems: [422],
  },
  get: { operationId: 'getTag', summary: 'Get a tag', answered: 'The tag.', problems: [404] },
  update: {
    operationId: 'updateTag',
    summary: 'Rename or recolour a tag',
    description:
      'Codes carrying the tag show its new name. A name another tag of the account has, in any case, is a 409; ' +
      '`color: null` removes the colour.',
    body: updateTagSchema.meta({ id: 'UpdateTag', example: { name: 'Print 2026' } }),
    answered: 'The changed tag.',
    problems: [404, 409, 422],
  },
  remove: {
    operationId: 'deleteTag',
    summary: 'Delete a tag',
    description: 'The tag is taken off every code carrying it; the codes stay.',
    problems: [404],
  },
});

export const tagsOpenApi: OpenApiModule = {
  tag: {
    name: TAG,
    description:
      'Labels of the account for its codes (a code has 0-20). Codes name their tags in `tags`; a name the account ' +
      'has no tag for is created on the fly. Names are unique in the account ignoring case. List codes with ' +
      '`tag` to filter by them, and ask the analytics overview for one `tag`.',
  },
  paths: { '/tags': tags.collection, '/tags/{id}': tags.item },
};
