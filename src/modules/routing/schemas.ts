// Routing rules: one stored model, two input shapes (the inline `condition` string inside a
// code, and the rules endpoints' `{ type, priority, conditions, destination }`).
import countries from 'i18n-iso-countries';
import { z } from 'zod';
import { httpUrlSchema } from '../../shared/url.ts';

export const MAX_RULES_PER_CODE = 50;

const countryCode = z
  .string()
  .trim()
  .transform((value) => value.toUpperCase())
  .refine((value) => /^[A-Z]{2}$/.test(value) && countries.isValid(value), {
    message: 'must be an ISO 3166-1 alpha-2 country code such as US or DE',
  });

export const geoConditionsSchema = z.strictObject({
  countries: z.array(countryCode).min(1, 'must name at least one country').max(250),
});

export type RuleType = 'geo';

export interface RuleConditions {
  countries: string[];
}

/** A rule as stored and as the rules endpoints present it. */
export interface Rule {
  id: string;
  type: RuleType;
  priority: number;
  conditions: RuleConditions;
  destination: string;
}

/** A rule as the client writes it, before it has an id. */
export type RuleInput = Omit<Rule, 'id'>;

const inlineRuleSchema = z.strictObject({
  condition: z.string().trim().min(1, 'must not be empty').max(2000),
  destination: httpUrlSchema,
});

/** `country:US` or `country:US,CA` (any of the listed countries). */
const inlineConditionPattern = /^(?<dimension>[a-z]+):(?<value>.+)$/;

function inlineToRule(inline: z.output<typeof inlineRuleSchema>, index: number, ctx: z.RefinementCtx): RuleInput | null {
  const match = inlineConditionPattern.exec(inline.condition);
  if (!match) {
    ctx.addIssue({ code: 'custom', path: [index, 'condition'], message: "must have the form '<dimension>:<value>', e.g. 'country:US'" });
    return null;
  }
  const { dimension, value } = match.groups!;
  if (dimension !== 'country') {
    ctx.addIssue({ code: 'custom', path: [index, 'condition'], message: `unknown dimension '${dimension}'; supported: country` });
    return null;
  }
  const parsed = geoConditionsSchema.safeParse({ countries: value!.split(',') });
  if (!parsed.success) {
    ctx.addIssue({ code: 'custom', path: [index, 'condition'], message: parsed.error.issues[0]!.message });
    return null;
  }
  return { type: 'geo', priority: index + 1, conditions: parsed.data, destination: inline.destination };
}

/** The inline list, turned into stored rules whose priorities follow list order. */
export const inlineRulesSchema = z
  .array(inlineRuleSchema)
  .max(MAX_RULES_PER_CODE, `at most ${MAX_RULES_PER_CODE} rules per code`)
  .transform((list, ctx) => {
    const rules = list.map((rule, index) => inlineToRule(rule, index, ctx));
    return rules.every((rule) => rule !== null) ? (rules as RuleInput[]) : z.NEVER;
  });

export const routingInputSchema = z.strictObject({
  enabled: z.boolean().optional(),
  rules: inlineRulesSchema.optional(),
});

export type RoutingInput = z.output<typeof routingInputSchema>;

/** The inline `condition` string for a stored rule. */
export function ruleToInlineCondition(rule: Rule): string {
  return `country:${rule.conditions.countries.join(',')}`;
}
