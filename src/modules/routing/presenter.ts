// The JSON shapes of routing answers. Every rule has two: the rules endpoints show the full
// shape (with the inline `condition` too), a code shows the inline shape. The zod schemas are
// the contract (they feed the OpenAPI document); the presenters' return types are inferred from
// them, so the two cannot drift apart.
import { z } from 'zod';
import { DAYS, DEVICES, RULE_TYPES } from './conditions.ts';
import { formatInlineCondition } from './inline.ts';
import type { Rule, Routing } from './rule.ts';
import type { ResolveAnswer } from './service.ts';

const weightsSchema = z.array(z.object({ destination: z.string(), weight: z.number() }));

export const inlineRuleResourceSchema = z
  .object({
    ruleId: z.string().meta({ example: 'rule_8dK2pQ7wZ1' }),
    condition: z.string().meta({ description: 'The rule in inline syntax.', example: 'country:US' }),
    destination: z
      .string()
      .nullable()
      .meta({ description: 'Null for split rules, which send scans to their weights.' }),
    weights: weightsSchema.optional(),
  })
  .meta({ id: 'InlineRule', description: 'A routing rule as it appears inside a code.' });
export type InlineRuleJson = z.output<typeof inlineRuleResourceSchema>;

export function presentInlineRule(rule: Rule): InlineRuleJson {
  const json: InlineRuleJson = {
    ruleId: rule.id,
    condition: formatInlineCondition(rule.type, rule.conditions),
    destination: rule.destination,
  };
  if (rule.conditions.weights) json.weights = rule.conditions.weights;
  return json;
}

/** Stored conditions, as validated by conditionsSchema (which describes each field), normalised. */
const storedConditionsSchema = z
  .object({
    countries: z.array(z.string()).meta({ description: 'Upper case.', example: ['US', 'CA'] }),
    devices: z.array(z.enum(DEVICES)),
    days: z.array(z.enum(DAYS)),
    from: z.string().meta({ example: '09:00' }),
    to: z.string().meta({ example: '17:30' }),
    timezone: z.string().meta({ example: 'Europe/Berlin' }),
    languages: z.array(z.string()).meta({ description: 'Lower case.', example: ['de'] }),
    cidrs: z.array(z.string()),
    params: z.record(z.string(), z.string()),
    after: z.string(),
    before: z.string(),
    weights: weightsSchema,
  })
  .partial()
  .meta({ description: 'The rule’s conditions as stored: the fields of RuleConditions that were given.' });

export const ruleResourceSchema = z
  .object({
    ruleId: z.string().meta({ example: 'rule_8dK2pQ7wZ1' }),
    type: z.enum(RULE_TYPES),
    priority: z.int().meta({ description: 'Lower runs first.', example: 1 }),
    conditions: storedConditionsSchema,
    destination: z.string().nullable().meta({
      description: 'Null for split rules, which send scans to their weights.',
      example: 'https://example.com/na',
    }),
    condition: z.string().meta({ description: 'The same rule in inline syntax.', example: 'country:US,CA' }),
  })
  .meta({ id: 'Rule', description: 'A routing rule in the full shape, with its inline form.' });
export type RuleJson = z.output<typeof ruleResourceSchema>;

export function presentRule(rule: Rule): RuleJson {
  return {
    ruleId: rule.id,
    type: rule.type,
    priority: rule.priority,
    conditions: rule.conditions,
    destination: rule.destination,
    condition: formatInlineCondition(rule.type, rule.conditions),
  };
}

export const routingResourceSchema = z
  .object({
    enabled: z
      .boolean()
      .meta({ description: 'When false, every scan goes to the code’s own destination; the rules are kept.' }),
    rules: z
      .array(ruleResourceSchema)
      .meta({ description: 'In evaluation order: by priority, then in the order they were added.' }),
  })
  .meta({ id: 'Routing' });
export type RoutingJson = z.output<typeof routingResourceSchema>;

export function presentRouting(routing: Routing): RoutingJson {
  return { enabled: routing.enabled, rules: routing.rules.map(presentRule) };
}

/** The answer of POST /codes/:id/routing/resolve, which the route sends as the service returns it. */
export const resolutionResourceSchema = z
  .object({
    destination: z.string().meta({ description: 'Where the scan would be sent.', example: 'https://example.de/ios' }),
    ruleId: z.string().nullable().meta({
      description: 'The rule that decided; null when none matched and the code’s own destination applies.',
      example: 'rule_8dK2pQ7wZ1',
    }),
    evaluations: z
      .array(
        z.object({
          rule_id: z.string().meta({ example: 'rule_8dK2pQ7wZ1' }),
          matched: z.boolean(),
          reasons: z.array(z.string()).meta({
            description: 'One per condition that did not match; empty on a match.',
            example: ['country FR is not one of DE, AT'],
          }),
        }),
      )
      .meta({ description: 'Every rule in evaluation order, also those after the first match.' }),
    facts: z
      .object({
        country: z.string().nullable().meta({ example: 'DE' }),
        device: z.string().nullable().meta({ description: 'mobile, tablet, desktop, tv or bot.', example: 'mobile' }),
        os: z.string().nullable().meta({ example: 'iOS' }),
        browser: z.string().nullable().meta({ example: 'Safari' }),
        is_bot: z.boolean(),
        languages: z
          .array(z.string())
          .meta({ description: 'Primary language tags, most preferred first.', example: ['de', 'en'] }),
        time: z.iso.datetime(),
      })
      .meta({ description: 'What the simulated scan was taken to be.' }),
  })
  .meta({ id: 'RoutingResolution', description: 'Where a simulated scan would go and why. Nothing is recorded.' });
export type ResolutionJson = z.output<typeof resolutionResourceSchema>;

// The resolve route answers the service's result as it is: this fails to compile when the
// service's type and the schema above part ways.
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const resolutionMatchesSchema: Same<ResolveAnswer, ResolutionJson> = true;
void resolutionMatchesSchema;
