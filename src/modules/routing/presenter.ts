// The two JSON shapes of a rule. Every rule has both: the rules endpoints show the full shape
// (with the inline `condition` too), a code shows the inline shape.
import { z } from 'zod';
import { formatInlineCondition } from './inline.ts';
import type { Rule, Routing } from './rule.ts';

const weightsSchema = z.array(z.object({ destination: z.string(), weight: z.number() }));

export const inlineRuleResourceSchema = z
  .object({
    ruleId: z.string().meta({ example: 'rule_8dK2pQ7wZ1' }),
    condition: z.string().meta({ description: 'The rule in inline syntax.', example: 'country:US' }),
    destination: z.string().nullable().meta({ description: 'Null for split rules, which send scans to their weights.' }),
    weights: weightsSchema.optional(),
  })
  .meta({ id: 'InlineRule', description: 'A routing rule as it appears inside a code.' });
export type InlineRuleJson = z.output<typeof inlineRuleResourceSchema>;

export function presentInlineRule(rule: Rule): InlineRuleJson {
  const json: InlineRuleJson = { ruleId: rule.id, condition: formatInlineCondition(rule.type, rule.conditions), destination: rule.destination };
  if (rule.conditions.weights) json.weights = rule.conditions.weights;
  return json;
}

export function presentRule(rule: Rule) {
  return {
    ruleId: rule.id,
    type: rule.type,
    priority: rule.priority,
    conditions: rule.conditions,
    destination: rule.destination,
    condition: formatInlineCondition(rule.type, rule.conditions),
  };
}

export function presentRouting(routing: Routing) {
  return { enabled: routing.enabled, rules: routing.rules.map(presentRule) };
}
