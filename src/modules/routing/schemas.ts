// Routing input: one stored rule model, two shapes. The inline shape lives inside a code
// (`{ condition: "country:US", destination }`); the rules endpoints take
// `{ type, priority, conditions, destination }`. Both end as RuleInput.
import { z } from 'zod';
import { httpUrlSchema } from '../../shared/url.ts';
import {
  conditionsSchema,
  countryCode,
  missingForType,
  ruleTypeSchema,
  type Conditions,
  type RuleType,
} from './conditions.ts';
import { InlineSyntaxError, parseInlineCondition } from './inline.ts';
import type { RuleInput } from './rule.ts';

export const MAX_RULES_PER_CODE = 50;
const MAX_PRIORITY = 1_000_000;

/** Checks that cut across fields: the type's own fields, and where the destination comes from. */
function checkRuleShape(
  type: RuleType,
  conditions: Conditions,
  destination: string | undefined,
  ctx: z.RefinementCtx,
  at: (string | number)[],
) {
  const missing = missingForType(type, conditions);
  if (missing) ctx.addIssue({ code: 'custom', path: [...at, 'conditions'], message: missing });
  if (type === 'split' && destination !== undefined) {
    ctx.addIssue({
      code: 'custom',
      path: [...at, 'destination'],
      message: 'a split rule sends scans to its weights; leave destination out',
    });
  }
  if (type !== 'split' && destination === undefined) {
    ctx.addIssue({ code: 'custom', path: [...at, 'destination'], message: 'is required' });
  }
}

/** The rules endpoints' shape. */
export const ruleSchema = z
  .strictObject({
    type: ruleTypeSchema.meta({
      description: 'The dimension the rule is about; `conditions` must hold that dimension’s fields.',
      example: 'geo',
    }),
    priority: z
      .number()
      .int('must be a whole number')
      .min(0)
      .max(MAX_PRIORITY)
      .optional()
      .meta({
        description:
          'Lower runs first; equal priorities keep the order the rules were added in. Left out: after every ' +
          'existing rule (POST) or the position in the list (PUT).',
      }),
    conditions: conditionsSchema,
    destination: httpUrlSchema.optional().meta({
      description: 'Where a matching scan goes. Required, except for split rules, which must leave it out.',
      example: 'https://example.com/us',
    }),
  })
  .superRefine((rule, ctx) => checkRuleShape(rule.type, rule.conditions, rule.destination, ctx, []))
  .meta({
    id: 'RuleInput',
    description: 'A rule in the full shape: a type, conditions and a destination.',
    example: {
      type: 'geo',
      priority: 10,
      conditions: { countries: ['US', 'CA'] },
      destination: 'https://example.com/us',
    },
  });

export type RuleBody = z.output<typeof ruleSchema>;

/** What a rule read back carries beyond its input: ignored, so a client can send it back as read. */
const READ_ONLY_RULE_FIELDS = ['ruleId', 'condition'] as const;
const ruleIdReadBack = z
  .string()
  .max(64)
  .optional()
  .meta({
    description:
      'The rule’s id as read back: replacing a code’s rules keeps it when it names a rule of that code (another id ' +
      'is ignored, and the rule gets a new one).',
  });

export const inlineRuleSchema = z
  .strictObject({
    ruleId: ruleIdReadBack,
    condition: z
      .string()
      .trim()
      .min(1, 'must not be empty')
      .max(2000)
      .meta({
        description:
          '`<dimension>:<value>` parts joined by ` & ` (all must match). Dimensions: `country:US,CA`, ' +
          '`device:ios,android`, `time:mon-fri 09:00-17:30 Europe/Berlin`, `language:de,fr`, `ip:203.0.113.0/24`, ' +
          '`query:src=flyer`, `after:<ISO date-time>`, `before:<ISO date-time>`, and `split` (with `weights`).',
        example: 'country:US & device:ios',
      }),
    destination: httpUrlSchema.nullable().optional().meta({
      description:
        'Where a matching scan goes. Required, except for `split`, which takes `weights` instead (null or left out).',
      example: 'https://example.com/us-ios',
    }),
    weights: z
      .unknown()
      .optional()
      .meta({
        description:
          'Only with `split`: two to twenty `{ destination, weight }` (weight a whole number 1 to 10000), as in ' +
          'RuleConditions.weights.',
        example: [
          { destination: 'https://example.com/a', weight: 1 },
          { destination: 'https://example.com/b', weight: 1 },
        ],
      }),
  })
  .meta({
    id: 'InlineRuleInput',
    description: 'A rule in the inline shape, as it is written inside a code.',
    example: { condition: 'country:US,CA', destination: 'https://example.com/na' },
  });

/** Inline rule -> rule input; problems are reported on the inline fields the user wrote. */
function inlineToRule(
  inline: z.output<typeof inlineRuleSchema>,
  priority: number,
  ctx: z.RefinementCtx,
  at: (string | number)[],
): RuleInput | null {
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
  checkRuleShape(parsed.type, conditions.data, inline.destination ?? undefined, ctx, at);
  return {
    type: parsed.type,
    priority,
    conditions: conditions.data,
    destination: inline.destination ?? null,
    ...(inline.ruleId ? { ruleId: inline.ruleId } : {}),
  };
}

/**
 * Either shape, per element, so a client can PUT back what it read in either form. An element
 * without `condition` is checked against ruleSchema in the list's transform, so the document
 * shows that schema for the second branch: a reference to its component, which is there because
 * POST /codes/{id}/routing/rules takes it as its body (a dangling reference fails the linter).
 */
const anyRuleSchema = z.union([
  inlineRuleSchema,
  z.looseObject({ type: z.unknown() }).meta({
    override: ({ jsonSchema }: { jsonSchema: Record<string, unknown> }) => {
      for (const key of Object.keys(jsonSchema)) delete jsonSchema[key];
      jsonSchema.$ref = '#/components/schemas/RuleInput';
    },
  }),
]);

/** A list of rules in either shape; inline rules without a priority follow list order. */
export const rulesListSchema = z
  .array(anyRuleSchema)
  .max(MAX_RULES_PER_CODE, `at most ${MAX_RULES_PER_CODE} rules per code`)
  .meta({
    description:
      `At most ${MAX_RULES_PER_CODE} rules, each in the inline or the full shape (they may be mixed). ` +
      `Rules without a priority take their position in the list (1, 2, ...). Rules as the API answers them can be ` +
      `sent back unchanged: a rule keeps its \`ruleId\` when it names a rule of this code, a full rule's ` +
      `\`condition\` is ignored, and a split rule's \`destination: null\` is accepted.`,
  })
  .transform((list, ctx) => {
    const rules = list.map((item, index): RuleInput | null => {
      if (!('type' in item)) return inlineToRule(item as z.output<typeof inlineRuleSchema>, index + 1, ctx, [index]);
      // A full rule as GET /routing shows it: its id and inline form are derived, a split
      // rule's destination is null.
      const { destination, ...rest } = Object.fromEntries(
        Object.entries(item).filter(([key]) => !(READ_ONLY_RULE_FIELDS as readonly string[]).includes(key)),
      );
      const full = ruleSchema.safeParse(destination === null ? rest : { ...rest, destination });
      if (!full.success) {
        for (const issue of full.error.issues)
          ctx.addIssue({ ...issue, path: [index, ...issue.path] } as z.core.$ZodRawIssue);
        return null;
      }
      const ruleId = typeof item.ruleId === 'string' && item.ruleId.length <= 64 ? { ruleId: item.ruleId } : {};
      return {
        ...full.data,
        priority: full.data.priority ?? index + 1,
        destination: full.data.destination ?? null,
        ...ruleId,
      };
    });
    return rules.every((rule) => rule !== null) ? (rules as RuleInput[]) : z.NEVER;
  });

/** `routing` inside a code, and the body of PUT /codes/:id/routing. */
export const routingInputSchema = z
  .strictObject({
    enabled: z
      .boolean()
      .optional()
      .meta({
        description:
          'Routing on or off; rules are kept either way. Left out: on when rules are given (creating a code, PUT ' +
          'routing), unchanged when updating a code.',
      }),
    rules: rulesListSchema.optional(),
  })
  .meta({
    id: 'RoutingInput',
    description:
      'A code’s routing: rules checked in priority order; the first match decides, and a scan no rule matches goes ' +
      'to the code’s own destination.',
  });
export type RoutingInput = z.output<typeof routingInputSchema>;

/** The body of PUT /codes/:id/routing: the whole rule set, so `rules` is required. */
export const replaceRoutingSchema = routingInputSchema.required({ rules: true });
export type ReplaceRoutingInput = z.output<typeof replaceRoutingSchema>;

/** POST /codes/:id/routing/resolve: a simulated scan. */
export const resolveRequestSchema = z
  .strictObject({
    ip: z.union([z.ipv4(), z.ipv6()], { error: 'must be an IPv4 or IPv6 address' }).optional().meta({
      description: 'The visitor’s address; also gives the country when `country` is left out.',
      example: '203.0.113.7',
    }),
    country: countryCode
      .optional()
      .meta({ description: 'ISO 3166-1 alpha-2; overrides the country of `ip`.', example: 'DE' }),
    user_agent: z.string().max(2000).optional().meta({
      description: 'The User-Agent header, for device rules.',
      example: 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X)',
    }),
    accept_language: z
      .string()
      .max(500)
      .optional()
      .meta({ description: 'The Accept-Language header, for language rules.', example: 'de-DE,de;q=0.9,en;q=0.8' }),
    time: z.iso
      .datetime({ offset: true, error: 'must be an ISO 8601 date-time' })
      .optional()
      .meta({ description: 'When the scan happens; now when left out.', example: '2026-06-01T10:30:00+02:00' }),
    query: z
      .record(z.string().max(100), z.string().max(500))
      .optional()
      .meta({ description: 'Query parameters of the scan URL, for query rules.', example: { src: 'flyer' } }),
  })
  .meta({
    id: 'ResolveRequest',
    description: 'A simulated scan; every field is optional, and what is left out is unknown (or now, for `time`).',
  });
export type ResolveRequest = z.output<typeof resolveRequestSchema>;
