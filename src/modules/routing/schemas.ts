// Routing input: one stored rule model, two shapes. The inline shape lives inside a code
// (`{ condition: "country:US", destination }`); the rules endpoints take
// `{ type, priority, conditions, destination }`. Both end as RuleInput.
import { z } from 'zod';
import { httpUrlSchema } from '../../shared/url.ts';
import { conditionsSchema, countryCode, missingForType, RULE_TYPES, type Conditions, type RuleType } from './conditions.ts';
import { InlineSyntaxError, parseInlineCondition } from './inline.ts';
import type { RuleInput } from './rule.ts';

export const MAX_RULES_PER_CODE = 50;
const MAX_PRIORITY = 1_000_000;

/** Checks that cut across fields: the type's own fields, and where the destination comes from. */
function checkRuleShape(type: RuleType, conditions: Conditions, destination: string | undefined, ctx: z.RefinementCtx, at: (string | number)[]) {
  const missing = missingForType(type, conditions);
  if (missing) ctx.addIssue({ code: 'custom', path: [...at, 'conditions'], message: missing });
  if (type === 'split' && destination !== undefined) {
    ctx.addIssue({ code: 'custom', path: [...at, 'destination'], message: 'a split rule sends scans to its weights; leave destination out' });
  }
  if (type !== 'split' && destination === undefined) {
    ctx.addIssue({ code: 'custom', path: [...at, 'destination'], message: 'is required' });
  }
}

/** The rules endpoints' shape. */
export const ruleSchema = z
  .strictObject({
    type: z.enum(RULE_TYPES, { error: `must be one of ${RULE_TYPES.join(', ')}` }),
    priority: z.number().int('must be a whole number').min(0).max(MAX_PRIORITY).optional(),
    conditions: conditionsSchema,
    destination: httpUrlSchema.optional(),
  })
  .superRefine((rule, ctx) => checkRuleShape(rule.type, rule.conditions, rule.destination, ctx, []));

export type RuleBody = z.output<typeof ruleSchema>;

const inlineRuleSchema = z.strictObject({
  condition: z.string().trim().min(1, 'must not be empty').max(2000),
  destination: httpUrlSchema.optional(),
  weights: z.unknown().optional(),
});

/** Inline rule -> rule input; problems are reported on the inline fields the user wrote. */
function inlineToRule(inline: z.output<typeof inlineRuleSchema>, priority: number, ctx: z.RefinementCtx, at: (string | number)[]): RuleInput | null {
  let parsed: ReturnType<typeof parseInlineCondition>;
  try {
    parsed = parseInlineCondition(inline.condition, inline.weights);
  } catch (err) {
    if (!(err instanceof InlineSyntaxError)) throw err;
    ctx.addIssue({ code: 'custom', path: [...at, 'condition'], message: err.message });
    return null;
  }
  if (inline.weights !== undefined && parsed.type !== 'split') {
    ctx.addIssue({ code: 'custom', path: [...at, 'weights'], message: "only a 'split' condition takes weights" });
    return null;
  }
  const conditions = conditionsSchema.safeParse(parsed.conditions);
  if (!conditions.success) {
    for (const issue of conditions.error.issues) {
      const field = issue.path[0] === 'weights' ? ['weights', ...issue.path.slice(1)] : ['condition'];
      ctx.addIssue({ code: 'custom', path: [...at, ...field], message: issue.message });
    }
    return null;
  }
  checkRuleShape(parsed.type, conditions.data, inline.destination, ctx, at);
  return { type: parsed.type, priority, conditions: conditions.data, destination: inline.destination ?? null };
}

/** Either shape, per element, so a client can PUT back what it read in either form. */
const anyRuleSchema = z.union([inlineRuleSchema, z.looseObject({ type: z.unknown() })]);

/** A list of rules in either shape; inline rules without a priority follow list order. */
export const rulesListSchema = z
  .array(anyRuleSchema)
  .max(MAX_RULES_PER_CODE, `at most ${MAX_RULES_PER_CODE} rules per code`)
  .transform((list, ctx) => {
    const rules = list.map((item, index): RuleInput | null => {
      if ('condition' in item) return inlineToRule(item as z.output<typeof inlineRuleSchema>, index + 1, ctx, [index]);
      const full = ruleSchema.safeParse(item);
      if (!full.success) {
        for (const issue of full.error.issues) ctx.addIssue({ ...issue, path: [index, ...issue.path] } as z.core.$ZodRawIssue);
        return null;
      }
      return { ...full.data, priority: full.data.priority ?? index + 1, destination: full.data.destination ?? null };
    });
    return rules.every((rule) => rule !== null) ? (rules as RuleInput[]) : z.NEVER;
  });

/** `routing` inside a code, and the body of PUT /codes/:id/routing. */
export const routingInputSchema = z.strictObject({
  enabled: z.boolean().optional(),
  rules: rulesListSchema.optional(),
});
export type RoutingInput = z.output<typeof routingInputSchema>;

/** POST /codes/:id/routing/resolve: a simulated scan. */
export const resolveRequestSchema = z.strictObject({
  ip: z.union([z.ipv4(), z.ipv6()], { error: 'must be an IPv4 or IPv6 address' }).optional(),
  country: countryCode.optional(),
  user_agent: z.string().max(2000).optional(),
  accept_language: z.string().max(500).optional(),
  time: z.iso.datetime({ offset: true, error: 'must be an ISO 8601 date-time' }).optional(),
  query: z.record(z.string().max(100), z.string().max(500)).optional(),
});
export type ResolveRequest = z.output<typeof resolveRequestSchema>;
