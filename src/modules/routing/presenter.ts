// The two JSON shapes of a rule. Every rule has both: the rules endpoints show the full shape
// (with the inline `condition` too), a code shows the inline shape.
import { formatInlineCondition } from './inline.ts';
import type { Rule, Routing } from './rule.ts';

export interface InlineRuleJson {
  ruleId: string;
  condition: string;
  destination: string | null;
  weights?: { destination: string; weight: number }[];
}

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
