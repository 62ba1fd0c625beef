// The routing operations in the OpenAPI document: the same schemas that validate the requests
// (schemas.ts, conditions.ts) and shape the answers (presenter.ts).
import { jsonResponse, noContent, operation, pathParams, type OpenApiModule } from '../../http/openapi/common.ts';
import { resolutionResourceSchema, routingResourceSchema, ruleResourceSchema } from './presenter.ts';
import { MAX_RULES_PER_CODE, replaceRoutingSchema, resolveRequestSchema, ruleSchema } from './schemas.ts';

const TAG = 'Routing';

const code = { description: 'The code’s id (a url code: static codes have no routing).', example: 'qr_4fT9kQ2mX8pL' };
const codeParams = pathParams({ id: code });
const ruleParams = pathParams({ id: code, ruleId: { description: 'The rule’s id.', example: 'rule_8dK2pQ7wZ1' } });

const replaceBody = replaceRoutingSchema.meta({
  id: 'ReplaceRouting',
  description: 'The whole rule set: `rules` is required (an empty list removes every rule).',
  example: {
    enabled: true,
    rules: [
      { condition: 'country:DE,AT & device:ios', destination: 'https://example.de/ios' },
      {
        type: 'time',
        conditions: { days: ['sat', 'sun'], timezone: 'Europe/Berlin' },
        destination: 'https://example.com/weekend',
      },
      {
        condition: 'split',
        weights: [
          { destination: 'https://example.com/a', weight: 1 },
          { destination: 'https://example.com/b', weight: 1 },
        ],
      },
    ],
  },
});

const NOT_URL_CODE = 'A static code (which has no routing) is a 422.';

export const routingOpenApi: OpenApiModule = {
  tag: {
    name: TAG,
    description:
      'Routing rules of url codes: each scan goes to the destination of the first rule it matches (by country, ' +
      'device, time, language, address, query, date or a weighted split), else to the code’s own destination.',
  },
  paths: {
    '/codes/{id}/routing': {
      get: operation({
        operationId: 'getRouting',
        summary: 'Get a code’s routing',
        description:
          `The enabled flag and every rule in evaluation order, in the full shape with its inline form. ` +
          `${NOT_URL_CODE}`,
        tag: TAG,
        scope: 'codes:read',
        requestParams: { path: codeParams },
        responses: { '200': jsonResponse(routingResourceSchema, 'The code’s routing.') },
        problems: [404, 422],
      }),
      put: operation({
        operationId: 'replaceRouting',
        summary: 'Replace a code’s routing',
        description:
          'Replaces every rule, and the enabled flag, at once: either all of it is stored or, on a 422, nothing. ' +
          'Each rule may be in the inline or the full shape, so what GET answers can be sent back once `ruleId` ' +
          'is removed (and, for the full shape, `condition`, and a split rule’s null `destination`). The rules ' +
          'get new ids. ' +
          NOT_URL_CODE,
        tag: TAG,
        scope: 'codes:write',
        requestParams: { path: codeParams },
        requestBody: { required: true, content: { 'application/json': { schema: replaceBody } } },
        responses: { '200': jsonResponse(routingResourceSchema, 'The code’s routing as stored.') },
        problems: [404, 422],
      }),
    },
    '/codes/{id}/routing/rules': {
      post: operation({
        operationId: 'addRoutingRule',
        summary: 'Add a rule',
        description:
          `Adds one rule in the full shape; without a priority it runs after every existing rule. The ` +
          `first rule of a code that never had rules switches routing on. A code has at most ${MAX_RULES_PER_CODE} ` +
          `rules; one more is a 422, as is a static code.`,
        tag: TAG,
        scope: 'codes:write',
        requestParams: { path: codeParams },
        requestBody: { required: true, content: { 'application/json': { schema: ruleSchema } } },
        responses: { '201': jsonResponse(ruleResourceSchema, 'The new rule.') },
        problems: [404, 422],
      }),
    },
    '/codes/{id}/routing/rules/{ruleId}': {
      delete: operation({
        operationId: 'deleteRoutingRule',
        summary: 'Delete a rule',
        description: `404 when the code or the rule (on this code) does not exist. ${NOT_URL_CODE}`,
        tag: TAG,
        scope: 'codes:write',
        requestParams: { path: ruleParams },
        responses: { '204': noContent },
        problems: [404, 422],
      }),
    },
    '/codes/{id}/routing/resolve': {
      post: operation({
        operationId: 'resolveRouting',
        summary: 'Simulate a scan',
        description:
          `Where a scan with these facts would go, and why each rule did or did not match. Evaluates the ` +
          `rules also when routing is disabled (each then says so). Records nothing. ${NOT_URL_CODE}`,
        tag: TAG,
        scope: 'codes:read',
        requestParams: { path: codeParams },
        requestBody: {
          required: true,
          content: { 'application/json': { schema: resolveRequestSchema } },
        },
        responses: { '200': jsonResponse(resolutionResourceSchema, 'The decision and every rule’s evaluation.') },
        problems: [404, 422],
      }),
    },
  },
};
