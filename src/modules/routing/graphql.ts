// GraphQL types and operations for routing rules: inputs parsed with the same zod schemas as
// REST's bodies, then the same routing service. Enums are the schemas' own values.
import { builder } from '../../graphql/builder.ts';
import { enumOf } from '../../graphql/enums.ts';
import { scoped } from '../../graphql/scoped.ts';
import { compact, snakeKeys } from '../../graphql/inputs.ts';
import { zodInputType } from '../../graphql/zod-inputs.ts';
import { parseInput } from '../../shared/validation.ts';
import { conditionsSchema, daySchema, deviceSchema, ruleTypeSchema, type Conditions } from './conditions.ts';
import { formatInlineCondition } from './inline.ts';
import type { Rule, Routing } from './rule.ts';
import {
  inlineRuleSchema,
  replaceRoutingSchema,
  resolveRequestSchema,
  routingInputSchema,
  ruleSchema,
} from './schemas.ts';
import type { ResolveAnswer, RoutingService } from './service.ts';

declare module '../../graphql/context.ts' {
  interface GraphQLServices {
    routing: RoutingService;
  }
}

const RuleTypeEnum = enumOf(
  'RoutingRuleType',
  ruleTypeSchema,
  'The dimension a rule is about; its conditions must hold that dimension’s fields.',
);
const DeviceEnum = enumOf(
  'Device',
  deviceSchema,
  'ios and android match the operating system (iPads count as ios); desktop, mobile and tablet the kind of device.',
);
const WeekdayEnum = enumOf('Weekday', daySchema);

type NameValue = { name: string; value: string };

const QueryParamRef = builder.objectRef<NameValue>('QueryParam').implement({
  fields: (t) => ({ name: t.exposeString('name'), value: t.exposeString('value') }),
});

const SplitWeightRef = builder.objectRef<{ destination: string; weight: number }>('SplitWeight').implement({
  fields: (t) => ({ destination: t.exposeString('destination'), weight: t.exposeInt('weight') }),
});

const ConditionsRef = builder.objectRef<Conditions>('RuleConditions').implement({
  description: 'Every field present must match (AND). See docs/routing.md for each dimension.',
  fields: (t) => ({
    countries: t.exposeStringList('countries', { nullable: true }),
    devices: t.expose('devices', { type: [DeviceEnum], nullable: true }),
    days: t.expose('days', { type: [WeekdayEnum], nullable: true }),
    from: t.exposeString('from', { nullable: true }),
    to: t.exposeString('to', { nullable: true }),
    timezone: t.exposeString('timezone', { nullable: true }),
    languages: t.exposeStringList('languages', { nullable: true }),
    cidrs: t.exposeStringList('cidrs', { nullable: true }),
    params: t.field({
      type: [QueryParamRef],
      nullable: true,
      resolve: (c) => (c.params ? Object.entries(c.params).map(([name, value]) => ({ name, value })) : null),
    }),
    after: t.exposeString('after', { nullable: true }),
    before: t.exposeString('before', { nullable: true }),
    weights: t.field({ type: [SplitWeightRef], nullable: true, resolve: (c) => c.weights ?? null }),
  }),
});

export const RuleRef = builder.objectRef<Rule>('RoutingRule').implement({
  fields: (t) => ({
    ruleId: t.exposeID('id'),
    type: t.expose('type', { type: RuleTypeEnum }),
    priority: t.exposeInt('priority'),
    conditions: t.field({ type: ConditionsRef, resolve: (rule) => rule.conditions }),
    condition: t.string({
      description: "Inline form, e.g. 'country:US & device:ios'.",
      resolve: (rule) => formatInlineCondition(rule.type, rule.conditions),
    }),
    destination: t.exposeString('destination', { nullable: true, description: 'Null for split rules.' }),
  }),
});

export const RoutingRef = builder.objectRef<Routing>('Routing').implement({
  fields: (t) => ({
    enabled: t.exposeBoolean('enabled'),
    rules: t.field({ type: [RuleRef], description: 'In evaluation order.', resolve: (routing) => routing.rules }),
  }),
});

// The zod side takes query parameters as a JSON object; GraphQL, with no map type, as a list.
const QueryParamInput = builder.inputType('QueryParamInput', {
  fields: (t) => ({ name: t.string({ required: true }), value: t.string({ required: true }) }),
});

const SplitWeightInput = zodInputType('SplitWeightInput', conditionsSchema.shape.weights.unwrap().element);

// The inputs below take REST's fields; REST's descriptions (snake_case, HTTP methods) stay out.
const ConditionsInput = zodInputType('RuleConditionsInput', conditionsSchema, {
  types: { params: [QueryParamInput], weights: [SplitWeightInput] },
  zodDescriptions: false,
});

const RULE_ID_HELP = 'The id as read back: kept when it names a rule of this code.';

const ruleInputOptions = {
  types: { conditions: ConditionsInput },
  descriptions: { type: 'geo, device, time, language, ip, query, schedule or split' },
  zodDescriptions: false,
} as const;

/** A rule to add: its id is made anew (addRoutingRule). */
const NewRuleInput = zodInputType('NewRoutingRuleInput', ruleSchema, ruleInputOptions);

const RuleInput = zodInputType('RoutingRuleInput', ruleSchema, {
  ...ruleInputOptions,
  // ruleSchema has no ruleId: it is the read-back id a full rule may carry in a list of rules,
  // which rulesListSchema (replaceRouting, as REST's PUT) keeps when it names a rule of the code.
  fields: (t) => ({ ruleId: t.string({ required: false, description: RULE_ID_HELP }) }),
});

export const InlineRuleInput = zodInputType('InlineRoutingRuleInput', inlineRuleSchema, {
  types: { weights: [SplitWeightInput] },
  descriptions: {
    ruleId: RULE_ID_HELP,
    condition: "e.g. 'country:US' or 'country:US & device:ios'",
    weights: "Only with 'split'.",
  },
  zodDescriptions: false,
});

export const RoutingInputRef = zodInputType('RoutingInput', routingInputSchema, {
  types: { rules: [InlineRuleInput] },
  descriptions: { rules: 'Replaces every rule when given.' },
  zodDescriptions: false,
});

const SimulatedScanInput = zodInputType('SimulatedScanInput', resolveRequestSchema, {
  types: { query: [QueryParamInput] },
  descriptions: { country: 'Overrides the GeoIP lookup of ip.', time: 'ISO 8601; defaults to now.' },
  zodDescriptions: false,
});

const EvaluationRef = builder.objectRef<ResolveAnswer['evaluations'][number]>('RuleEvaluation').implement({
  fields: (t) => ({
    ruleId: t.exposeID('rule_id'),
    matched: t.exposeBoolean('matched'),
    reasons: t.exposeStringList('reasons'),
  }),
});

const ScanFactsRef = builder.objectRef<ResolveAnswer['facts']>('SimulatedScanFacts').implement({
  fields: (t) => ({
    country: t.exposeString('country', { nullable: true }),
    device: t.exposeString('device', { nullable: true }),
    os: t.exposeString('os', { nullable: true }),
    browser: t.exposeString('browser', { nullable: true }),
    isBot: t.exposeBoolean('is_bot'),
    languages: t.exposeStringList('languages'),
    time: t.exposeString('time'),
  }),
});

const ExplanationRef = builder.objectRef<ResolveAnswer>('RoutingExplanation').implement({
  fields: (t) => ({
    destination: t.exposeString('destination'),
    ruleId: t.exposeID('ruleId', { nullable: true }),
    evaluations: t.field({ type: [EvaluationRef], resolve: (a) => a.evaluations }),
    facts: t.field({ type: ScanFactsRef, resolve: (a) => a.facts }),
  }),
});

/** GraphQL lists of {name, value} to the JSON object the domain takes. */
const toRecord = (pairs: readonly NameValue[] | null | undefined) =>
  pairs ? Object.fromEntries(pairs.map((p) => [p.name, p.value])) : undefined;

type RuleInputShape = typeof RuleInput.$inferInput | typeof NewRuleInput.$inferInput;
const toRuleBody = (rule: RuleInputShape) =>
  compact({ ...rule, conditions: compact({ ...rule.conditions, params: toRecord(rule.conditions.params) }) });

builder.queryFields((t) => ({
  resolveRouting: t.field({
    type: ExplanationRef,
    description:
      'Where a simulated scan of the code would go, and why each rule did or did not match. Records nothing.',
    args: { codeId: t.arg.id({ required: true }), scan: t.arg({ type: SimulatedScanInput, required: true }) },
    resolve: scoped('codes:read', (_root, { codeId, scan: { query, ...scan } }, ctx) =>
      ctx.services.routing.resolve(
        ctx.principal,
        String(codeId),
        parseInput(resolveRequestSchema, { ...snakeKeys(scan), ...compact({ query: toRecord(query) }) }),
      ),
    ),
  }),
}));

builder.mutationFields((t) => ({
  replaceRouting: t.field({
    type: RoutingRef,
    description: 'Replaces every rule of the code (and the enabled flag) atomically.',
    args: {
      codeId: t.arg.id({ required: true }),
      enabled: t.arg.boolean({ required: false }),
      rules: t.arg({ type: [RuleInput], required: true }),
    },
    resolve: scoped('codes:write', (_root, { codeId, enabled, rules }, ctx) =>
      ctx.services.routing.replace(
        ctx.principal,
        String(codeId),
        parseInput(replaceRoutingSchema, compact({ enabled, rules: rules.map(toRuleBody) })),
      ),
    ),
  }),
  addRoutingRule: t.field({
    type: RuleRef,
    args: { codeId: t.arg.id({ required: true }), input: t.arg({ type: NewRuleInput, required: true }) },
    resolve: scoped('codes:write', (_root, { codeId, input }, ctx) =>
      ctx.services.routing.addRule(ctx.principal, String(codeId), parseInput(ruleSchema, toRuleBody(input))),
    ),
  }),
  removeRoutingRule: t.field({
    type: builder.objectRef<{ deletedRuleId: string }>('RemoveRoutingRulePayload').implement({
      fields: (f) => ({ deletedRuleId: f.exposeID('deletedRuleId') }),
    }),
    args: { codeId: t.arg.id({ required: true }), ruleId: t.arg.id({ required: true }) },
    resolve: scoped('codes:write', async (_root, { codeId, ruleId }, ctx) => {
      await ctx.services.routing.removeRule(ctx.principal, String(codeId), String(ruleId));
      return { deletedRuleId: String(ruleId) };
    }),
  }),
}));
