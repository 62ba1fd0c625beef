import type { Conditions, RuleType } from './conditions.ts';

/** A routing rule as stored and as the rules endpoints present it. */
export interface Rule {
  id: string;
  type: RuleType;
  /** Lower runs first; equal priorities keep the order in which rules were added. */
  priority: number;
  conditions: Conditions;
  /** Where a matching scan goes; null for a split rule, whose weights name the destinations. */
  destination: string | null;
}

/**
 * A rule as the client writes it. `ruleId` is the id it had when read back: replacing a code's
 * rules keeps it for a rule of that code, so ids stored by clients stay valid.
 */
export type RuleInput = Omit<Rule, 'id'> & { ruleId?: string };

export interface Routing {
  enabled: boolean;
  /** In evaluation order. */
  rules: Rule[];
}
