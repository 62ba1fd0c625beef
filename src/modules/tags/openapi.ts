// The tags operations in the OpenAPI document: the same schemas that validate the requests
// (schemas.ts) and shape the answers (presenter.ts).
import { z } from 'zod';
import { jsonResponse, listOf, noContent, operation, pathParams, type OpenApiModule } from '../../http/openapi/common.ts';
import { tagResourceSchema } from './presenter.ts';
import { createTagSchema, listTagsSchema, updateTagSchema } from './schemas.ts';

const TAG = 'Tags';

const tagIdParams = pathParams({ id: { description: 'The tag’s id.', example: 'tag_8kD2mQ9xT4pL0aZc7VbN' } });
const createBody = createTagSchema.meta({ id: 'CreateTag', example: { name: 'print', color: '#e8710a' } });
const updateBody = updateTagSchema.meta({ id: 'UpdateTag', example: { name: 'Print 2026' } });
const location = z.object({ Location: z.string().meta({ description: 'The tag’s URL.', example: '/v1/tags/tag_8kD2mQ9xT4pL0aZc7VbN' }) });

export const tagsOpenApi: OpenApiModule = {
  tag: {
    name: TAG,
    description:
      'Labels of the account for its codes (a code has 0-20). Codes name their tags in `tags`; a name the account has no tag for is created on the fly. Names are unique in the account ignoring case. List codes with `tag` to filter by them, and ask the analytics overview for one `tag`.',
  },
  paths: {
    '/tags': {
      post: operation({
        operationId: 'createTag',
        summary: 'Create a tag',
        description: 'A name the account already has, in any case, is a 409. At most TAGS_PER_ACCOUNT tags (1000 by default) per account.',
        tag: TAG,
        scope: 'codes:write',
        requestBody: { required: true, content: { 'application/json': { schema: createBody } } },
        responses: { '201': { ...jsonResponse(tagResourceSchema, 'The new tag.'), headers: location } },
        problems: [409, 422],
      }),
      get: operation({
        operationId: 'listTags',
        summary: 'List tags',
        description: 'One page of the account’s tags in name order (case ignored), each with the number of codes carrying it.',
        tag: TAG,
        scope: 'codes:read',
        requestParams: { query: listTagsSchema },
        responses: { '200': jsonResponse(listOf(tagResourceSchema, 'TagList'), 'One page of tags.') },
        problems: [422],
      }),
    },
    '/tags/{id}': {
      get: operation({
        operationId: 'getTag',
        summary: 'Get a tag',
        tag: TAG,
        scope: 'codes:read',
        requestParams: { path: tagIdParams },
        responses: { '200': jsonResponse(tagResourceSchema, 'The tag.') },
        problems: [404],
      }),
      patch: operation({
        operationId: 'updateTag',
        summary: 'Rename or recolour a tag',
        description: 'Codes carrying the tag show its new name. A name another tag of the account has, in any case, is a 409; `color: null` removes the colour.',
        tag: TAG,
        scope: 'codes:write',
        requestParams: { path: tagIdParams },
        requestBody: { required: true, content: { 'application/json': { schema: updateBody } } },
        responses: { '200': jsonResponse(tagResourceSchema, 'The changed tag.') },
        problems: [404, 409, 422],
      }),
      delete: operation({
        operationId: 'deleteTag',
        summary: 'Delete a tag',
        description: 'The tag is taken off every code carrying it; the codes stay.',
        tag: TAG,
        scope: 'codes:write',
        requestParams: { path: tagIdParams },
        responses: { '204': noContent },
        problems: [404],
      }),
    },
  },
};
